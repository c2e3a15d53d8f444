import { AssemblyPageSchema, type AssemblyPage as AssemblyPageData } from '@forgeline/contracts/parts-diagrams';
import { fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { server } from '../../../../test/msw-server.ts';
import { renderApp } from '../../../../test/render.tsx';
import type { QuoteListProductLike } from '../../../lib/quote-list-access.ts';
import { setMachine } from '../../../lib/use-machine.ts';
import AssemblyPage, { type AssemblyQuoteList } from './assembly-page.tsx';

const ids = { roller: '00000000-0000-4000-8000-000000000001', seal: '00000000-0000-4000-8000-000000000002', sealHd: '00000000-0000-4000-8000-000000000003', bolt: '00000000-0000-4000-8000-000000000004' };
const part = (id: string, name: string, partNumber: string) => ({
  id,
  name,
  sku: `CAT-${partNumber}`,
  partNumber,
  brandName: 'Caterpillar',
  slug: name.toLowerCase().replace(/\s+/g, '-'),
  inStock: true,
  availability: 'In Stock',
  imageUrl: '',
  images: [],
  replacedBy: null,
  crossReferences: [{ brand: 'Berco', partNumber: `B-${partNumber}` }],
});

/** A track roller frame: the seal changed at S/N RJS05000 (callout 2 has a line for each run), the bolt is drawn twice. */
const assembly: AssemblyPageData = AssemblyPageSchema.parse({
  id: 'a1',
  make: 'Caterpillar',
  model: 'D6T Dozer',
  makeSlug: 'caterpillar',
  modelSlug: 'd6t-dozer',
  slug: 'track-roller-frame',
  name: 'Track roller frame',
  diagram: { url: '/media/generated/diagrams/caterpillar/d6t-dozer/track-roller-frame-4.svg', width: 1200, height: 800 },
  lines: [
    { number: '1', positions: [{ x: 10, y: 20 }], partId: ids.roller, quantity: 2, part: part(ids.roller, 'Track Roller', '6Y-1234') },
    { number: '2', positions: [{ x: 30, y: 40 }], partId: ids.seal, quantity: 1, serialTo: 'RJS04999', part: part(ids.seal, 'Idler Seal', '1M-0001') },
    { number: '2', positions: [{ x: 30, y: 40 }], partId: ids.sealHd, quantity: 1, serialFrom: 'RJS05000', part: part(ids.sealHd, 'Idler Seal HD', '1M-0002') },
    { number: '3', positions: [{ x: 50, y: 60 }, { x: 70, y: 60 }], partId: ids.bolt, quantity: 4, part: part(ids.bolt, 'Frame Bolt', '8T-4000') },
  ],
  version: 3,
  updatedAt: '2026-11-01T10:00:00.000Z',
  siblings: [
    { slug: 'track-roller-frame', name: 'Track roller frame' },
    { slug: 'final-drive', name: 'Final drive' },
  ],
});

/** The quote list as the app hands it over, kept in memory: what was added, in order. */
function memoryQuoteList() {
  const added: { id: string; quantity: number }[] = [];
  const quoteList: AssemblyQuoteList = {
    addProduct: (p: QuoteListProductLike, quantity: number) => {
      added.push({ id: p.id, quantity });
      return { ok: true, added: true };
    },
    productOfSummary: (p) => ({ id: p.id, name: p.name, sku: p.sku, partNumber: p.partNumber, brandName: p.brandName, slug: p.slug ?? null, image: '' }),
  };
  return { quoteList, added };
}

async function renderAssembly(route = '/machines/caterpillar/d6t-dozer/track-roller-frame') {
  const list = memoryQuoteList();
  const r = renderApp(
    <Routes>
      <Route path="/machines/:make/:model/:assembly" element={<AssemblyPage quoteList={list.quoteList} />} />
    </Routes>,
    { route },
  );
  await screen.findByRole('heading', { level: 1, name: 'Track roller frame' });
  return { ...r, ...list };
}

const table = () => screen.getByRole('table');
const rows = (number: string) => within(table()).getAllByRole('row').filter((r) => r.getAttribute('data-callout') === number);
const hotspot = (name: RegExp) => screen.getByRole('button', { name });
const checkbox = (name: RegExp) => screen.getByRole('checkbox', { name });

beforeEach(() => {
  setMachine(null);
  server.use(http.get('/api/machines/caterpillar/d6t-dozer/assemblies/track-roller-frame', () => HttpResponse.json(assembly)));
});

describe('AssemblyPage', () => {
  it('draws one numbered button per callout and place, named for its parts, and lists every line in the table', async () => {
    await renderAssembly();
    expect(hotspot(/^Callout 1: Track Roller$/)).toHaveTextContent('1');
    expect(hotspot(/^Callout 2: Idler Seal \/ Idler Seal HD$/)).toHaveStyle({ left: '30%', top: '40%' });
    expect(screen.getAllByRole('button', { name: /^Callout 3: Frame Bolt$/ })).toHaveLength(2);
    expect(within(table()).getAllByRole('row')).toHaveLength(5); // the header and four lines
    expect(within(table()).getByRole('link', { name: 'Track Roller' })).toHaveAttribute('href', `/products/${ids.roller}/track-roller`);
    // The form the table is in works without JavaScript: GET /quote?add=<id>~<qty> for every ticked line.
    const form = table().closest('form')!;
    expect(form).toHaveAttribute('action', '/quote');
    expect(form).toHaveAttribute('method', 'get');
    expect(checkbox(/^Add callout 3, Frame Bolt, quantity 4$/)).toHaveAttribute('value', `${ids.bolt}~4`);
    expect(checkbox(/^Add callout 3, Frame Bolt, quantity 4$/)).toHaveAttribute('name', 'add');
  });

  it("highlights a hotspot's rows while it is hovered or focused, and a row's hotspots while it is", async () => {
    const r = await renderAssembly();
    await r.user.hover(hotspot(/^Callout 2:/));
    expect(rows('2').map((row) => row.hasAttribute('data-active'))).toEqual([true, true]);
    expect(rows('1')[0]).not.toHaveAttribute('data-active');
    await r.user.unhover(hotspot(/^Callout 2:/));
    expect(rows('2')[0]).not.toHaveAttribute('data-active');

    // Focus inside a row (its checkbox) lights both places the bolt is drawn.
    fireEvent.focus(checkbox(/^Add callout 3,/));
    expect(screen.getAllByRole('button', { name: /^Callout 3:/ }).map((b) => b.hasAttribute('data-active'))).toEqual([true, true]);
    expect(hotspot(/^Callout 1:/)).not.toHaveAttribute('data-active');
    fireEvent.blur(checkbox(/^Add callout 3,/));
    expect(screen.getAllByRole('button', { name: /^Callout 3:/ })[0]).not.toHaveAttribute('data-active');

    await r.user.hover(rows('1')[0]!);
    expect(hotspot(/^Callout 1:/)).toHaveAttribute('data-active');
  });

  it("dims the lines not for the buyer's serial, leaves them unticked and out of Add all, which adds each part once", async () => {
    setMachine({ make: 'Caterpillar', model: 'D6T Dozer', serial: 'RJS05100' });
    const r = await renderAssembly();
    const [old, current] = rows('2');
    expect(old).toHaveAttribute('data-fits', 'false');
    expect(within(old!).getByText('Not for S/N RJS05100')).toBeInTheDocument();
    expect(current).toHaveAttribute('data-fits', 'true');
    expect(checkbox(/^Add callout 2, Idler Seal, quantity 1$/)).not.toBeChecked();
    expect(checkbox(/^Add callout 2, Idler Seal HD, quantity 1$/)).toBeChecked();
    expect(screen.getByText(/1 line is not for S\/N/)).toBeInTheDocument();
    // The hotspot of callout 2 still has a line for the unit; its name says nothing about a serial.
    expect(hotspot(/^Callout 2: Idler Seal \/ Idler Seal HD$/)).toBeInTheDocument();

    await r.user.click(screen.getByRole('button', { name: 'Add all to quote list' }));
    expect(r.added).toEqual([
      { id: ids.roller, quantity: 2 },
      { id: ids.sealHd, quantity: 1 },
      { id: ids.bolt, quantity: 4 },
    ]);
  });

  it('adds the ticked lines when the form is sent, a dimmed line too once the buyer ticks it', async () => {
    setMachine({ make: 'Caterpillar', model: 'D6T Dozer', serial: 'RJS05100' });
    const r = await renderAssembly();
    await r.user.click(checkbox(/^Add callout 1,/));
    await r.user.click(checkbox(/^Add callout 2, Idler Seal, quantity 1$/));
    await r.user.click(screen.getByRole('button', { name: 'Add selected to quote list' }));
    expect(r.added).toEqual([
      { id: ids.seal, quantity: 1 },
      { id: ids.sealHd, quantity: 1 },
      { id: ids.bolt, quantity: 4 },
    ]);
    expect(r.path()).toBe('/machines/caterpillar/d6t-dozer/track-roller-frame');
  });

  it("opens a callout's parts from its hotspot, and adds one with the callout's quantity", async () => {
    const r = await renderAssembly();
    await r.user.click(hotspot(/^Callout 1:/));
    const dialog = await screen.findByRole('dialog', { name: 'Callout 1' });
    expect(within(dialog).getByRole('heading', { name: 'Track Roller' })).toBeInTheDocument();
    expect(within(dialog).getByText('6Y-1234')).toBeInTheDocument();
    expect(within(dialog).getByText('CAT-6Y-1234')).toBeInTheDocument();
    expect(within(dialog).getByText('In Stock')).toBeInTheDocument();
    expect(within(dialog).getByText('B-6Y-1234')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: /Part page/ })).toHaveAttribute('href', `/products/${ids.roller}/track-roller`);
    await r.user.click(within(dialog).getByRole('button', { name: /Add to quote list × 2/ }));
    expect(r.added).toEqual([{ id: ids.roller, quantity: 2 }]);
  });

  it("opens a row's callout with the keyboard from its details button", async () => {
    const r = await renderAssembly();
    screen.getByRole('button', { name: 'Details of callout 3: Frame Bolt' }).focus();
    await r.user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Callout 3' })).toBeInTheDocument();
    await r.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Details of callout 3: Frame Bolt' })).toHaveFocus();
  });

  it("checks the lines against a serial typed on the page, and keeps it as the visit's machine", async () => {
    const r = await renderAssembly();
    expect(checkbox(/^Add callout 2, Idler Seal, quantity 1$/)).toBeChecked();
    await r.user.type(screen.getByRole('textbox', { name: /serial number/ }), 'RJS01000');
    await r.user.click(screen.getByRole('button', { name: 'Check fit' }));
    expect(checkbox(/^Add callout 2, Idler Seal HD, quantity 1$/)).not.toBeChecked();
    expect(checkbox(/^Add callout 2, Idler Seal, quantity 1$/)).toBeChecked();
    expect(JSON.parse(sessionStorage.getItem('forgeline.machine')!)).toEqual({ make: 'Caterpillar', model: 'D6T Dozer', serial: 'RJS01000' });
  });

  it('renders the page for ?serial= (the serial form without JavaScript) and says when the assembly does not exist', async () => {
    await renderAssembly('/machines/caterpillar/d6t-dozer/track-roller-frame?serial=RJS01000');
    expect(checkbox(/^Add callout 2, Idler Seal HD, quantity 1$/)).not.toBeChecked();

    server.use(http.get('/api/machines/caterpillar/d6t-dozer/assemblies/nothing', () => HttpResponse.json({ message: 'Assembly "nothing" not found' }, { status: 404 })));
    renderApp(
      <Routes>
        <Route path="/machines/:make/:model/:assembly" element={<AssemblyPage quoteList={memoryQuoteList().quoteList} />} />
      </Routes>,
      { route: '/machines/caterpillar/d6t-dozer/nothing' },
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Assembly Not Found' })).toBeInTheDocument();
  });
});
