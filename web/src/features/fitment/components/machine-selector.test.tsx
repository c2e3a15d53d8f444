import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { fitmentMakes, fitmentModels } from '../../../../test/fixtures.ts';
import { server } from '../../../../test/msw-server.ts';
import { renderApp } from '../../../../test/render.tsx';
import { MACHINE_STORAGE_KEY } from '../../../lib/machine.ts';
import { setMachine } from '../../../lib/use-machine.ts';
import { MachineSelector } from './machine-selector.tsx';

/** The makes whose models were asked for (GET /api/fitment/models?make=). */
let modelsAskedFor: string[];

beforeEach(() => {
  setMachine(null); // the machine is kept for the visit: each test starts without one
  modelsAskedFor = [];
  server.use(
    http.get('/api/fitment/makes', () => HttpResponse.json(fitmentMakes(['Caterpillar', 'Komatsu']))),
    http.get('/api/fitment/models', ({ request }) => {
      const make = new URL(request.url).searchParams.get('make')!;
      modelsAskedFor.push(make);
      return HttpResponse.json(fitmentModels(make, make === 'Caterpillar' ? ['320D Excavator', 'D6T Dozer'] : ['PC200']));
    }),
  );
});

const make = () => screen.getByLabelText('Make');
const model = () => screen.getByLabelText('Model');
const serial = () => screen.getByLabelText(/Serial number/);
const stored = () => JSON.parse(sessionStorage.getItem(MACHINE_STORAGE_KEY) ?? 'null') as unknown;
const chip = () => screen.queryByText('Fits:')?.closest('p') ?? null;

async function renderSelector(props: Parameters<typeof MachineSelector>[0] = {}, route = '/category/filters') {
  const r = renderApp(<MachineSelector {...props} />, { route });
  await within(make()).findByRole('option', { name: 'Caterpillar' });
  return r;
}

async function choose(r: Awaited<ReturnType<typeof renderSelector>>, makeName: string, modelName?: string, serialText?: string) {
  await r.user.selectOptions(make(), makeName);
  if (modelName) {
    await within(model()).findByRole('option', { name: modelName });
    await r.user.selectOptions(model(), modelName);
  }
  if (serialText) await r.user.type(serial(), serialText);
  await r.user.click(screen.getByRole('button', { name: 'Find parts' }));
}

describe('MachineSelector', () => {
  it('offers the catalogue makes once loaded, and no model or serial before a make', async () => {
    renderApp(<MachineSelector />);
    expect(within(make()).getByRole('option', { name: 'Loading makes...' })).toBeInTheDocument();
    expect(await within(make()).findByRole('option', { name: 'Komatsu' })).toBeInTheDocument();
    expect(model()).toBeDisabled();
    expect(serial()).toBeDisabled();
  });

  it("loads the chosen make's models and opens the serial number only once a model is chosen", async () => {
    const r = await renderSelector();
    await r.user.selectOptions(make(), 'Caterpillar');
    expect(model()).toBeEnabled();
    expect(await within(model()).findByRole('option', { name: 'D6T Dozer' })).toBeInTheDocument();
    expect(modelsAskedFor).toEqual(['Caterpillar']);
    expect(serial()).toBeDisabled();
    await r.user.selectOptions(model(), '320D Excavator');
    expect(serial()).toBeEnabled();
  });

  it('shows the chosen machine as a chip and keeps it for the visit (make, model, serial)', async () => {
    const r = await renderSelector();
    await choose(r, 'Caterpillar', '320D Excavator', 'RJS01000');
    expect(chip()).toHaveTextContent('Fits: Caterpillar 320D Excavator · S/N RJS01000');
    expect(stored()).toEqual({ make: 'Caterpillar', model: '320D Excavator', serial: 'RJS01000' });
    expect(screen.getByRole('button', { name: 'Change machine' })).toBeInTheDocument();
  });

  it('keeps a make alone as "all models", storing neither model nor serial', async () => {
    const r = await renderSelector();
    await choose(r, 'Komatsu');
    expect(chip()).toHaveTextContent('Fits: Komatsu (all models)');
    expect(stored()).toEqual({ make: 'Komatsu' });
  });

  it('forgets the model and serial when the make changes', async () => {
    const r = await renderSelector();
    await r.user.selectOptions(make(), 'Caterpillar');
    await within(model()).findByRole('option', { name: '320D Excavator' });
    await r.user.selectOptions(model(), '320D Excavator');
    await r.user.type(serial(), 'RJS');
    await r.user.selectOptions(make(), 'Komatsu');
    expect(model()).toHaveValue('');
    expect(serial()).toHaveValue('');
    expect(serial()).toBeDisabled();
  });

  it('stores nothing when Find parts is pressed without a make', async () => {
    const r = await renderSelector();
    await r.user.click(screen.getByRole('button', { name: 'Find parts' }));
    expect(chip()).toBeNull();
    expect(stored()).toBeNull();
  });

  it('removes the machine with the chip’s × button: chip gone, storage cleared, focus kept in the selector', async () => {
    const r = await renderSelector();
    await choose(r, 'Caterpillar', '320D Excavator');
    await r.user.click(screen.getByRole('button', { name: 'Remove machine filter' }));
    expect(chip()).toBeNull();
    expect(stored()).toBeNull();
    const section = screen.getByRole('region', { name: 'Find parts for your machine' });
    expect(section).toContainElement(document.activeElement as HTMLElement);
    expect(screen.getByRole('button', { name: 'Choose your machine' })).toBeInTheDocument();
  });

  it('shows the machine already chosen in this visit, in the chip and the form', async () => {
    setMachine({ make: 'Caterpillar', model: 'D6T Dozer' });
    await renderSelector();
    expect(chip()).toHaveTextContent('Fits: Caterpillar D6T Dozer');
    expect(make()).toHaveValue('Caterpillar');
    expect(await within(model()).findByRole('option', { name: '320D Excavator' })).toBeInTheDocument();
    expect(model()).toHaveValue('D6T Dozer');
  });

  it('takes a listing back to its first page when a machine is chosen', async () => {
    const r = await renderSelector({}, '/category/filters?page=3&sort=name');
    await choose(r, 'Komatsu');
    expect(r.path()).toBe('/category/filters?sort=name');
  });

  it('opens the listing named by goTo when a machine is chosen (home)', async () => {
    const r = await renderSelector({ goTo: '/catalog', folded: true }, '/');
    await r.user.click(screen.getByRole('button', { name: 'Choose your machine' }));
    await choose(r, 'Caterpillar', 'D6T Dozer');
    expect(r.path()).toBe('/catalog');
  });

  it('folds the form behind "Choose your machine", which says whether it is open', async () => {
    const r = await renderSelector({ folded: true });
    const toggle = screen.getByRole('button', { name: 'Choose your machine' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await r.user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAttribute('aria-controls', make().closest('form')!.id);
  });

  it('says when the makes could not be loaded', async () => {
    server.use(http.get('/api/fitment/makes', () => HttpResponse.json({ message: 'down' }, { status: 503 })));
    renderApp(<MachineSelector />);
    expect(await within(make()).findByRole('option', { name: 'Makes could not be loaded' })).toBeInTheDocument();
  });

  it("links the chosen model's parts diagrams (#38), and nothing before a model is chosen", async () => {
    const r = await renderSelector();
    await r.user.selectOptions(make(), 'Caterpillar');
    expect(screen.queryByRole('link', { name: 'Parts diagrams for this machine' })).not.toBeInTheDocument();
    await within(model()).findByRole('option', { name: 'D6T Dozer' });
    await r.user.selectOptions(model(), 'D6T Dozer');
    expect(screen.getByRole('link', { name: 'Parts diagrams for this machine' })).toHaveAttribute('href', '/machines/caterpillar/d6t-dozer');
  });
});
