import { MediaJobStatusSchema } from '@forgeline/contracts/media';
import {
  AssemblyCreateSchema,
  AssemblyHistoryEntrySchema,
  AssemblySchema,
  AssemblyUpdateSchema,
  DiagramImportReportSchema,
  type Assembly,
  type AssemblyHistoryEntry,
} from '@forgeline/contracts/parts-diagrams';
import { AdminProductRowSchema, type AdminProductRow } from '@forgeline/contracts/products';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_EMAIL, fitmentMakes, fitmentModels, signedIn } from '../../../../test/fixtures.ts';
import { server } from '../../../../test/msw-server.ts';
import { renderApp } from '../../../../test/render.tsx';
import DiagramsTab from './diagrams-tab.tsx';

/**
 * The catalog's parts-diagram calls (#38) and the media upload as the Diagrams tab meets them, in memory: bodies
 * parsed with the contracts, the version checked as the catalog checks it (409), unknown parts refused (400 naming
 * callouts.N.partId), the drawing's job answered as the media status call answers it.
 */
const ALL_PARTS: AdminProductRow[] = [
  { id: 'p-seal', name: 'Idler Seal', sku: 'CAT-IS-1', partNumber: '1R-0716', category: 'Undercarriage', brandName: 'Caterpillar', imageUrl: '', images: [] },
  { id: 'p-bolt', name: 'Track Bolt', sku: 'CAT-TB-1', partNumber: '1S-1859', category: 'Undercarriage', brandName: 'Caterpillar', imageUrl: '', images: [] },
  { id: 'p-shim', name: 'Shim', sku: 'BER-SH-1', partNumber: '1S-1860', category: 'Undercarriage', brandName: 'Berco', imageUrl: '', images: [] },
].map((p) => AdminProductRowSchema.parse(p));
/** The parts on the storefront (a test may take one off). */
let onSale: AdminProductRow[];

const DIAGRAM = { url: '/media/diagrams/aaaaaaaaaaaaaaaaaaaa-2400.webp', width: 2400, height: 1600, variants: [{ width: 1200, url: '/media/diagrams/aaaaaaaaaaaaaaaaaaaa-1200.webp' }] };

let assemblies: Map<string, Assembly>;
let history: Map<string, AssemblyHistoryEntry[]>;
let puts: { id: string; body: unknown }[];
let uploads: { id: string; name: string }[];
let imports: { dryRun: string | null; name: string }[];

function assembly(over: Partial<Assembly> & Pick<Assembly, 'id' | 'name'>): Assembly {
  return AssemblySchema.parse({
    make: 'Caterpillar',
    model: '320D Excavator',
    makeSlug: 'caterpillar',
    modelSlug: '320d-excavator',
    slug: over.name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    diagram: DIAGRAM,
    callouts: [],
    version: 1,
    updatedAt: '2026-11-20T10:00:00.000Z',
    updatedBy: ADMIN_EMAIL,
    ...over,
  });
}
const record = (a: Assembly, action: AssemblyHistoryEntry['action'], summary: string) =>
  history.set(a.id, [AssemblyHistoryEntrySchema.parse({ version: a.version, at: a.updatedAt, actor: a.updatedBy, action, summary }), ...(history.get(a.id) ?? [])]);
const withParts = (a: Assembly) => ({ assembly: a, parts: onSale.filter((p) => a.callouts.some((c) => c.partId === p.id)).map(({ id, name, sku, partNumber, brandName }) => ({ id, name, sku, partNumber, brandName: brandName! })) });

beforeEach(() => {
  onSale = [...ALL_PARTS];
  const frame = assembly({
    id: 'frame-1',
    name: 'Track roller frame',
    callouts: [
      { number: '1', positions: [{ x: 10, y: 20 }], partId: 'p-seal', quantity: 2 },
      { number: '2', positions: [{ x: 40, y: 50 }, { x: 60, y: 50 }], partId: 'p-bolt', quantity: 8, serialFrom: 'RJS00001' },
    ],
  });
  const idler = assembly({ id: 'idler-1', name: 'Front idler', diagram: null, model: '330D Excavator', modelSlug: '330d-excavator' });
  assemblies = new Map([frame, idler].map((a) => [a.id, a]));
  history = new Map();
  record(frame, 'create', 'created');
  puts = [];
  uploads = [];
  imports = [];
  server.use(
    signedIn(),
    http.get('/api/fitment/makes', () => HttpResponse.json(fitmentMakes(['Caterpillar', 'Komatsu']))),
    http.get('/api/fitment/models', ({ request }) => HttpResponse.json(fitmentModels(new URL(request.url).searchParams.get('make')!, ['320D Excavator', '330D Excavator']))),
    http.get('/api/admin/assemblies', ({ request }) => {
      const q = new URL(request.url).searchParams;
      const rows = [...assemblies.values()]
        .filter((a) => (!q.get('model') || a.model === q.get('model')) && (!q.get('search') || a.name.toLowerCase().includes(q.get('search')!.toLowerCase())))
        .map(({ callouts, ...a }) => ({ ...a, calloutCount: new Set(callouts.map((c) => c.number)).size, lineCount: callouts.length }));
      return HttpResponse.json({ assemblies: rows });
    }),
    http.post('/api/admin/assemblies', async ({ request }) => {
      const body = AssemblyCreateSchema.parse(await request.json());
      if ([...assemblies.values()].some((a) => a.model === body.model && a.name.toLowerCase() === body.name.toLowerCase())) {
        return HttpResponse.json({ message: `${body.make} ${body.model} has an assembly "${body.name}" already`, issues: [{ path: 'name', message: 'is taken' }] }, { status: 409 });
      }
      const a = assembly({ id: 'new-1', ...body, diagram: null });
      assemblies.set(a.id, a);
      record(a, 'create', 'created');
      return HttpResponse.json(a, { status: 201 });
    }),
    http.get('/api/admin/assemblies/:id', ({ params }) => {
      const a = assemblies.get(params.id as string);
      return a ? HttpResponse.json(withParts(a)) : HttpResponse.json({ message: `Assembly ${params.id as string} not found` }, { status: 404 });
    }),
    http.put('/api/admin/assemblies/:id', async ({ params, request }) => {
      const a = assemblies.get(params.id as string)!;
      const body = AssemblyUpdateSchema.parse(await request.json());
      puts.push({ id: a.id, body });
      if (body.version !== a.version) return HttpResponse.json({ message: 'Someone else changed this assembly since you opened it' }, { status: 409 });
      const issues = body.callouts.flatMap((c, i) => (onSale.some((p) => p.id === c.partId) ? [] : [{ path: `callouts.${i}.partId`, message: `is no part on the storefront (${c.partId})` }]));
      if (issues.length) return HttpResponse.json({ message: 'Invalid body', issues }, { status: 400 });
      const next = assembly({ ...a, name: body.name, callouts: [...body.callouts].sort((x, y) => Number.parseInt(x.number) - Number.parseInt(y.number)), version: a.version + 1 });
      assemblies.set(a.id, next);
      record(next, 'edit', 'lines changed');
      return HttpResponse.json(next);
    }),
    http.delete('/api/admin/assemblies/:id', ({ params }) => {
      assemblies.delete(params.id as string);
      return new HttpResponse(null, { status: 204 });
    }),
    http.get('/api/admin/assemblies/:id/history', ({ params }) => HttpResponse.json({ entries: history.get(params.id as string) ?? [] })),
    http.get('/api/admin/search-products-by-code', ({ request }) => {
      const q = new URL(request.url).searchParams.get('q')!.toLowerCase();
      return HttpResponse.json({ success: true, products: onSale.filter((p) => p.partNumber.toLowerCase().startsWith(q)) });
    }),
    http.get('/api/admin/products', ({ request }) => {
      const q = (new URL(request.url).searchParams.get('search') ?? '').toLowerCase();
      return HttpResponse.json(onSale.filter((p) => p.name.toLowerCase().includes(q)));
    }),
    // The media service: the drawing is taken (202), and its job is done when asked: the assembly then has it.
    http.post('/api/admin/diagrams/:id', async ({ params, request }) => {
      const file = (await request.formData()).get('file') as File;
      uploads.push({ id: params.id as string, name: file.name });
      return HttpResponse.json({ success: true, message: 'processing started', jobId: `dgm-${uploads.length}`, assemblyId: params.id }, { status: 202 });
    }),
    http.get('/api/admin/media-jobs/:id', ({ params }) => {
      const last = uploads.at(-1)!;
      const a = assemblies.get(last.id)!;
      if (a.diagram?.url !== DIAGRAM.url.replace('aaaa', 'bbbb')) {
        const next = assembly({ ...a, diagram: { ...DIAGRAM, url: DIAGRAM.url.replace('aaaa', 'bbbb') }, version: a.version + 1, updatedBy: 'media' });
        assemblies.set(a.id, next);
        record(next, 'diagram', 'new drawing (2400 × 1600)');
      }
      return HttpResponse.json(
        MediaJobStatusSchema.parse({
          id: params.id,
          kind: 'diagram',
          state: 'completed',
          progress: 100,
          createdAt: '2026-11-20T10:00:00.000Z',
          skus: { total: 1, waiting: 0, active: 0, completed: 1, failed: 0 },
          images: { total: 1, processed: 1, unchanged: 0, failed: 0 },
          failures: [],
          skipped: [],
        }),
      );
    }),
    http.post('/api/admin/assemblies/import', async ({ request }) => {
      const file = (await request.formData()).get('file') as File;
      imports.push({ dryRun: new URL(request.url).searchParams.get('dryRun'), name: file.name });
      return HttpResponse.json(
        DiagramImportReportSchema.parse({
          dryRun: true,
          rows: 3,
          created: 1,
          updated: 0,
          unchanged: 0,
          errorCount: 1,
          errors: [{ row: 3, column: 'part_number', message: 'no part numbered "XX-1" in the catalogue' }],
          unknownColumns: ['colour'],
        }),
      );
    }),
  );
  // jsdom lays nothing out: the drawing is given a size, so a click has a place on it.
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    return this.dataset.testid === 'diagram-surface' ? DOMRect.fromRect({ x: 0, y: 0, width: 1000, height: 500 }) : DOMRect.fromRect({ x: 0, y: 0, width: 0, height: 0 });
  });
});
afterEach(() => vi.restoreAllMocks());

async function openFrame() {
  const r = renderApp(<DiagramsTab />, { admin: true });
  const table = await screen.findByRole('table', { name: 'Assemblies' });
  await r.user.click(within(table).getByRole('button', { name: 'Track roller frame' }));
  await screen.findByRole('heading', { level: 2, name: 'Track roller frame' });
  return r;
}
const hotspots = () => screen.queryAllByRole('button', { name: /^Callout / });
const surface = () => screen.getByTestId('diagram-surface');

describe('DiagramsTab: the list', () => {
  it('lists the assemblies with their machine, lines and drawing, and narrows them by model and name', async () => {
    const { user } = renderApp(<DiagramsTab />, { admin: true });
    const table = await screen.findByRole('table', { name: 'Assemblies' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').slice(0, 4).map((c) => c.textContent?.trim()))).toEqual([
      ['Track roller frame', 'Caterpillar 320D Excavator', '2', 'Yes'],
      ['Front idler', 'Caterpillar 330D Excavator', '0', 'None'],
    ]);
    await user.selectOptions(screen.getByLabelText('Make'), 'Caterpillar');
    await user.selectOptions(await screen.findByLabelText('Model'), await screen.findByRole('option', { name: '330D Excavator' }));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Assemblies' })).getAllByRole('row')).toHaveLength(2));
    await user.type(screen.getByLabelText('Name contains'), 'nothing like it');
    expect(await screen.findByText(/No assembly matches/)).toBeInTheDocument();
  });

  it('creates an assembly for a make and model (offered from the fitment data) and opens it; a taken name is said at the name', async () => {
    const { user } = renderApp(<DiagramsTab />, { admin: true });
    await user.click(await screen.findByRole('button', { name: 'New assembly' }));
    await user.click(screen.getByRole('button', { name: 'Create and open' }));
    expect(screen.getByLabelText('Machine make')).toHaveAccessibleDescription('is required');
    await user.type(screen.getByLabelText('Machine make'), 'Caterpillar');
    await waitFor(() => expect(document.querySelectorAll('datalist option[value="320D Excavator"]')).toHaveLength(1));
    await user.type(screen.getByLabelText('Machine model'), '320D Excavator');
    await user.type(screen.getByLabelText(/^Assembly name/), 'track roller frame');
    await user.click(screen.getByRole('button', { name: 'Create and open' }));
    expect(await screen.findByText('Caterpillar 320D Excavator has an assembly "track roller frame" already')).toBeInTheDocument();
    await user.clear(screen.getByLabelText(/^Assembly name/));
    await user.type(screen.getByLabelText(/^Assembly name/), 'Final drive');
    await user.click(screen.getByRole('button', { name: 'Create and open' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Final drive' })).toBeInTheDocument();
    expect(screen.getByText(/No drawing yet/)).toBeInTheDocument();
  });

  it('imports a diagrams file as a dry run and shows its report, row errors and unread columns', async () => {
    const { user } = renderApp(<DiagramsTab />, { admin: true });
    await user.upload(await screen.findByLabelText(/^Diagrams file/), new File(['make,model\n'], 'diagrams.csv', { type: 'text/csv' }));
    expect(screen.getByLabelText(/^Dry run/)).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Start dry run' }));
    const report = await screen.findByTestId('diagram-import-report');
    expect(imports).toEqual([{ dryRun: 'true', name: 'diagrams.csv' }]);
    expect(within(report).getByText('Nothing was changed: this is what the import will do.')).toBeInTheDocument();
    const rows = within(within(report).getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([['3', 'part_number', 'no part numbered "XX-1" in the catalogue']]);
    expect(within(report).getByText('Columns not read (not diagram columns): colour')).toBeInTheDocument();
  });
});

describe('DiagramsTab: the editor', () => {
  it('shows the drawing with a hotspot for each place, and the lines with their parts', async () => {
    await openFrame();
    expect(hotspots().map((b) => b.getAttribute('aria-label'))).toEqual([
      'Callout 1, at 10 % across, 20 % down',
      'Callout 2, place 1 of 2, at 40 % across, 50 % down',
      'Callout 2, place 2 of 2, at 60 % across, 50 % down',
    ]);
    expect(screen.getByRole('combobox', { name: 'Part, line 1' })).toHaveValue('1R-0716 · Idler Seal');
    expect(screen.getByLabelText('Serial from, line 2')).toHaveValue('RJS00001');
    expect(screen.getByRole('link', { name: /Preview as the buyer sees it/ })).toHaveAttribute('href', '/machines/caterpillar/320d-excavator/track-roller-frame');
    expect(screen.getByRole('link', { name: /Preview as the buyer sees it/ })).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  });

  it('places the next free number where the drawing is clicked, or another place for the chosen callout', async () => {
    const { user } = await openFrame();
    await user.pointer({ keys: '[MouseLeft]', target: surface(), coords: { clientX: 250, clientY: 100 } });
    expect(screen.getByRole('button', { name: 'Callout 3, at 25 % across, 20 % down' })).toHaveFocus();
    expect(screen.getByLabelText('Callout number, line 3')).toHaveValue('3');
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /^Callout 1,/ }));
    await user.click(screen.getByLabelText('adds a place for callout 1'));
    await user.pointer({ keys: '[MouseLeft]', target: surface(), coords: { clientX: 900, clientY: 450 } });
    expect(screen.getByRole('button', { name: 'Callout 1, place 2 of 2, at 90 % across, 90 % down' })).toHaveFocus();
    expect(screen.getByLabelText('2 places on the drawing, line 1')).toBeInTheDocument();
  });

  it('moves a hotspot with the arrow keys (Shift: bigger steps), removes the place with Delete, and places from the table with the keyboard', async () => {
    const { user } = await openFrame();
    screen.getByRole('button', { name: /^Callout 1,/ }).focus();
    await user.keyboard('{ArrowRight}{ArrowRight}{Shift>}{ArrowDown}{/Shift}');
    expect(screen.getByRole('button', { name: /^Callout 1,/ })).toHaveAccessibleName('Callout 1, at 11 % across, 25 % down');
    await user.keyboard('{Delete}');
    expect(screen.queryByRole('button', { name: /^Callout 1,/ })).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Drawing of Track roller frame' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Place callout 1 on the drawing' }));
    expect(screen.getByRole('button', { name: 'Callout 1, at 50 % across, 50 % down' })).toHaveFocus();
  });

  it('links a new line to a part found by its number, and saves the table with the version it was read at', async () => {
    const { user } = await openFrame();
    await user.click(screen.getByRole('button', { name: 'Add a line' }));
    expect(screen.getByLabelText('Callout number, line 3')).toHaveFocus();
    const part = screen.getByRole('combobox', { name: 'Part, line 3' });
    await user.type(part, '1S-18');
    const options = await within(await screen.findByRole('listbox', { name: 'Parts matching "1S-18"' })).findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Track Bolt1S-1859 · Caterpillar · SKU CAT-TB-1', 'Shim1S-1860 · Berco · SKU BER-SH-1']);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(part).toHaveValue('1S-1860 · Shim');
    expect(screen.getByText('Berco · SKU BER-SH-1')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Quantity, line 3'));
    await user.type(screen.getByLabelText('Quantity, line 3'), '4');
    await user.type(screen.getByLabelText('Serial to, line 3'), 'rjs-01999');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Saved: version 2')).toBeInTheDocument();
    expect(puts).toEqual([
      {
        id: 'frame-1',
        body: {
          version: 1,
          name: 'Track roller frame',
          callouts: [
            { number: '1', positions: [{ x: 10, y: 20 }], partId: 'p-seal', quantity: 2 },
            { number: '2', positions: [{ x: 40, y: 50 }, { x: 60, y: 50 }], partId: 'p-bolt', quantity: 8, serialFrom: 'RJS00001' },
            { number: '3', positions: [], partId: 'p-shim', quantity: 4, serialTo: 'RJS01999' },
          ],
        },
      },
    ]);
    expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();
    expect(await screen.findByText('lines changed')).toBeInTheDocument();
  });

  it('marks the fields a save is refused for: by the contract before sending, and by the catalog (400) after', async () => {
    const { user } = await openFrame();
    await user.click(screen.getByRole('button', { name: 'Add a line' }));
    await user.clear(screen.getByLabelText('Quantity, line 3'));
    await user.type(screen.getByLabelText('Quantity, line 3'), '0');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Not saved: 2 fields need a look (marked below).');
    expect(screen.getByRole('combobox', { name: 'Part, line 3' })).toHaveAccessibleDescription('is required: the part this callout is');
    // The first field marked takes the focus (and so comes into view).
    expect(screen.getByRole('combobox', { name: 'Part, line 3' })).toHaveFocus();
    expect(screen.getByLabelText('Quantity, line 3')).toHaveAccessibleDescription('must be at least 1');
    expect(puts).toEqual([]);

    // The seal was taken off the storefront since the editor read it: the catalog's 400 names that line's part.
    await user.click(screen.getByRole('button', { name: 'Remove line 3 (callout 3)' }));
    await user.type(screen.getByLabelText('Note, line 2'), 'checked');
    onSale.splice(0, 1);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('is no part on the storefront (p-seal)')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Part, line 1' })).toHaveAccessibleDescription('is no part on the storefront (p-seal)');
  });

  it('says when someone else changed the assembly meanwhile (409), and reloads it on request', async () => {
    const { user } = await openFrame();
    const theirs = assembly({ ...assemblies.get('frame-1')!, version: 2, callouts: [{ number: '1', positions: [], partId: 'p-seal', quantity: 5 }] });
    assemblies.set('frame-1', theirs);
    await user.type(screen.getByLabelText('Note, line 1'), 'mine');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Someone else changed this assembly since you opened it.');
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
    await user.click(within(alert).getByRole('button', { name: 'Reload the assembly' }));
    await waitFor(() => expect(screen.getByLabelText('Quantity, line 1')).toHaveValue('5'));
    expect(screen.queryByLabelText('Note, line 2')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText(/Excavator · version 2,/)).toBeInTheDocument();
  });

  it('uploads a drawing, follows its job, and shows the new drawing while keeping unsaved edits', async () => {
    const { user } = await openFrame();
    await user.type(screen.getByLabelText('Note, line 1'), 'kept');
    const input = screen.getByLabelText(/^Drawing file/);
    await user.upload(input, new File([new Uint8Array(26 * 1024 * 1024)], 'huge.png', { type: 'image/png' }));
    await user.click(screen.getByRole('button', { name: 'Upload drawing' }));
    expect(screen.getByRole('alert')).toHaveTextContent('"huge.png" is 26 MB; a drawing may be at most 25 MB');
    expect(uploads).toEqual([]);

    await user.upload(input, new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'frame.svg', { type: 'image/svg+xml' }));
    await user.click(screen.getByRole('button', { name: 'Upload drawing' }));
    await waitFor(() => expect(screen.getByRole('region', { name: 'Drawing of Track roller frame' }).querySelector('img')).toHaveAttribute('src', '/media/diagrams/bbbbaaaaaaaaaaaaaaaa-2400.webp'));
    expect(uploads).toEqual([{ id: 'frame-1', name: 'frame.svg' }]);
    // Only the drawing changed meanwhile: the edit stays, and saves on top of the drawing's version.
    expect(screen.getByLabelText('Note, line 1')).toHaveValue('kept');
    expect(screen.getByText(/Excavator · version 2,/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Saved: version 3')).toBeInTheDocument();
    expect(puts.map((p) => (p.body as { version: number }).version)).toEqual([2]);
  });

  it('asks before leaving unsaved changes, and deletes only once confirmed', async () => {
    const { user } = await openFrame();
    await user.type(screen.getByLabelText('Note, line 1'), 'unsaved');
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    await user.click(screen.getByRole('button', { name: 'All assemblies' }));
    expect(confirm).toHaveBeenCalledWith('You have unsaved changes to "Track roller frame". Leave without saving them?');
    expect(screen.getByRole('heading', { level: 2, name: 'Track roller frame' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Delete "Track roller frame"?');
    await user.click(within(dialog).getByRole('button', { name: 'Delete assembly' }));
    expect(await screen.findByRole('heading', { name: 'Parts diagrams' })).toBeInTheDocument();
    expect(assemblies.has('frame-1')).toBe(false);
    expect(await screen.findByText('"Track roller frame" deleted')).toBeInTheDocument();
  });
});
