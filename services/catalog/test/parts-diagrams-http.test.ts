import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProductDetailSchema, ProductListResponseSchema } from '@forgeline/contracts/products';
import { AssemblyPageSchema, AssemblySchema, DiagramImportReportSchema, MachinePageSchema, type Assembly } from '@forgeline/contracts/parts-diagrams';
import { startFerretDb } from '@forgeline/test-support/ferretdb';
import { PRODUCTS, id, makeProduct } from './fixtures.ts';
import { SERVICE_TOKEN, startCatalog, storeAdapters, type CatalogUnderTest } from './harness.ts';

/**
 * Issue 38 over HTTP on both stores (SQLite, and MongoDB's adapter on FerretDB): a machine's assemblies, the staff's
 * editor (create, change with the version read, history, delete), the buyer's pages, where a part is used, the CSV
 * round trip (export then import changes nothing) and bad input.
 */
const FIT = [{ make: 'Caterpillar', model: '320D Excavator' }];
const SEAL = makeProduct({ id: id(901), name: 'Idler Seal', sku: 'CAT-IS-1', partNumber: '1R-0716', category: 'Undercarriage', brandName: 'Caterpillar', fits: FIT });
const IDLER = makeProduct({ id: id(902), name: 'Front Idler', sku: 'CAT-FI-1', partNumber: '6Y-5230', category: 'Undercarriage', brandName: 'Caterpillar', fits: FIT });
const BOLT = makeProduct({ id: id(903), name: 'Track Bolt', sku: 'CAT-TB-1', partNumber: '1S-1859', category: 'Undercarriage', brandName: 'Caterpillar', fits: FIT });
// Two brands number a part alike: the file must name it by SKU.
const TWIN_A = makeProduct({ id: id(904), name: 'Shim A', sku: 'A-SHIM', partNumber: 'SH-100', category: 'Undercarriage', brandName: 'Berco' });
const TWIN_B = makeProduct({ id: id(905), name: 'Shim B', sku: 'B-SHIM', partNumber: 'SH-100', category: 'Undercarriage', brandName: 'ITM' });
const ALL = [...PRODUCTS, SEAL, IDLER, BOLT, TWIN_A, TWIN_B];

const ferret = await startFerretDb();
if ('skip' in ferret) console.warn(`[catalog] parts diagrams over HTTP: skipping the MongoDB adapter on FerretDB: ${ferret.skip}`);
else afterAll(() => ferret.stop());

describe.each(storeAdapters(ferret))('parts diagrams over HTTP: $name', ({ skip, mongoUrl }) => {
  let catalog: CatalogUnderTest;
  beforeAll(async () => {
    if (skip) return;
    catalog = await startCatalog({ products: ALL, mongoUrl: mongoUrl?.() });
  }, 60_000);
  afterAll(async () => {
    await catalog?.stop();
  });

  const create = async (name: string, make = 'Caterpillar', model = '320D Excavator') => {
    const res = await catalog.call('/api/admin/assemblies', { method: 'POST', body: { make, model, name } });
    expect(res.status, res.text).toBe(201);
    return AssemblySchema.parse(res.body);
  };
  const put = (a: Pick<Assembly, 'id' | 'version' | 'name'>, callouts: unknown[]) =>
    catalog.call(`/api/admin/assemblies/${a.id}`, { method: 'PUT', body: { version: a.version, name: a.name, callouts } });
  const upload = async (csv: string, query = '') => {
    const form = new FormData();
    form.append('file', new Blob([csv]), 'diagrams.csv');
    const res = await fetch(`${catalog.url}/api/admin/assemblies/import${query}`, { method: 'POST', body: form, headers: await catalog.adminHeaders() });
    return { status: res.status, body: (await res.json()) as unknown };
  };

  describe.skipIf(Boolean(skip))('the editor and the buyer', () => {
    let frame: Assembly;

    it('creates an assembly for a machine model, refuses the same name twice, and lists it on the machine page', async () => {
      frame = await create('Track roller frame');
      expect(frame).toMatchObject({ makeSlug: 'caterpillar', modelSlug: '320d-excavator', slug: 'track-roller-frame', version: 1, diagram: null, callouts: [] });
      const again = await catalog.call('/api/admin/assemblies', { method: 'POST', body: { make: 'caterpillar', model: '320d excavator', name: 'TRACK ROLLER FRAME' } });
      expect(again.status).toBe(409);
      const machine = MachinePageSchema.parse((await catalog.call('/api/machines/Caterpillar/320D%20Excavator')).body);
      expect(machine).toMatchObject({ make: 'Caterpillar', model: '320D Excavator', productCount: 3 });
      expect(machine.assemblies.map((a) => a.slug)).toContain('track-roller-frame');
    });

    it('saves callouts with positions, quantities and serial ranges, in callout order, as a new version with its history', async () => {
      const res = await put(frame, [
        { number: '12', positions: [{ x: 80, y: 20 }], partId: BOLT.id, quantity: 8 },
        { number: '3', positions: [{ x: 10.123, y: 40 }, { x: 30, y: 45 }], partId: SEAL.id, quantity: 2, serialTo: 'rjs01999', note: 'use with 1R-0717 from S/N RJS02000' },
        { number: '3', positions: [], partId: IDLER.id, quantity: 1, serialFrom: 'RJS02000' },
      ]);
      expect(res.status, res.text).toBe(200);
      frame = AssemblySchema.parse(res.body);
      expect(frame.version).toBe(2);
      expect(frame.callouts.map((c) => c.number)).toEqual(['3', '3', '12']);
      expect(frame.callouts[0]).toMatchObject({ partId: SEAL.id, serialTo: 'RJS01999', positions: [{ x: 10.12, y: 40 }, { x: 30, y: 45 }] });
      const history = (await catalog.call(`/api/admin/assemblies/${frame.id}/history`)).body as { entries: { version: number; action: string; summary: string; actor: string }[] };
      expect(history.entries.map((e) => [e.version, e.action])).toEqual([
        [2, 'edit'],
        [1, 'create'],
      ]);
      expect(history.entries[0]!.summary).toContain('3 added');
      expect(history.entries[0]!.actor).toBe('ops@example.com');
    });

    it('refuses a change made from an old version, so no one overwrites another', async () => {
      const stale = await put({ ...frame, version: 1 }, []);
      expect(stale.status).toBe(409);
      expect(stale.text).toMatch(/someone else changed/i);
      const stored = (await catalog.call(`/api/admin/assemblies/${frame.id}`)).body as { assembly: Assembly };
      expect(stored.assembly.callouts).toHaveLength(3);
    });

    it('refuses bad callouts with a 400 naming the field, and keeps the assembly as it was', async () => {
      const cases: [unknown[], string][] = [
        [[{ number: '1', partId: id(999_999), quantity: 1 }], 'callouts.0.partId'],
        [[{ number: '1', partId: SEAL.id, positions: [{ x: 101, y: 5 }] }], 'callouts.0.positions.0.x'],
        [[{ number: '1', partId: SEAL.id, positions: [{ x: 5, y: -1 }] }], 'callouts.0.positions.0.y'],
        [[{ number: 'twelve', partId: SEAL.id }], 'callouts.0.number'],
        [[{ number: '1', partId: SEAL.id, quantity: 0 }], 'callouts.0.quantity'],
        [[{ number: '1', partId: SEAL.id, serialFrom: '<script>' }], 'callouts.0.serialFrom'],
        [[{ number: '1', partId: SEAL.id, extra: true }], 'callouts.0'],
        [Array.from({ length: 301 }, (_, i) => ({ number: String(i % 999), partId: SEAL.id })), 'callouts'],
      ];
      for (const [callouts, path] of cases) {
        const res = await put(frame, callouts);
        expect(res.status, `${path}: ${res.text}`).toBe(400);
        expect((res.body as { issues?: { path: string }[] }).issues?.map((i) => i.path) ?? [], res.text).toContain(path);
      }
      expect((await catalog.call('/api/admin/assemblies/not-an-id!')).status).toBe(400);
      expect((await catalog.call('/api/admin/assemblies/00000000-0000-4000-8000-000000000000')).status).toBe(404);
      const stored = (await catalog.call(`/api/admin/assemblies/${frame.id}`)).body as { assembly: Assembly };
      expect(stored.assembly.version).toBe(frame.version);
    });

    it("shows the buyer the assembly page: each line with its part as it stands, and the model's other assemblies", async () => {
      await create('Final drive');
      const res = await catalog.call('/api/machines/caterpillar/320d-excavator/assemblies/track-roller-frame');
      expect(res.status, res.text).toBe(200);
      const page = AssemblyPageSchema.parse(res.body);
      expect(page.lines.map((l) => [l.number, l.part?.sku, l.quantity])).toEqual([
        ['3', SEAL.sku, 2],
        ['3', IDLER.sku, 1],
        ['12', BOLT.sku, 8],
      ]);
      expect(page.siblings.map((s) => s.slug)).toEqual(['final-drive', 'track-roller-frame']);
      expect((await catalog.call('/api/machines/caterpillar/320d-excavator/assemblies/no-such-thing')).status).toBe(404);
      expect((await catalog.call('/api/machines/caterpillar/no-such-model')).status).toBe(404);
    });

    it("lists where a part is used on its product page, with its callout and quantity", async () => {
      const detail = ProductDetailSchema.parse((await catalog.call(`/api/products/${SEAL.id}`)).body);
      expect(detail.whereUsed).toEqual({
        total: 1,
        assemblies: [
          { make: 'Caterpillar', model: '320D Excavator', makeSlug: 'caterpillar', modelSlug: '320d-excavator', assemblySlug: 'track-roller-frame', assemblyName: 'Track roller frame', callouts: ['3'], quantity: 2 },
        ],
      });
      const unused = ProductDetailSchema.parse((await catalog.call(`/api/products/${PRODUCTS[0]!.id}`)).body);
      expect(unused.whereUsed).toEqual({ total: 0, assemblies: [] });
    });

    it('takes a drawing from the media worker (service token only) as a new version', async () => {
      const diagram = { url: '/media/diagrams/abc/drawing-2400.webp', width: 2400, height: 1600, variants: [{ width: 800, url: '/media/diagrams/abc/drawing-800.webp' }] };
      expect((await catalog.call(`/internal/assemblies/${frame.id}/diagram`, { method: 'PUT', body: diagram })).status).toBe(401);
      const res = await catalog.call(`/internal/assemblies/${frame.id}/diagram`, { method: 'PUT', body: diagram, token: SERVICE_TOKEN });
      expect(res.status, res.text).toBe(200);
      frame = AssemblySchema.parse(res.body);
      expect(frame.diagram).toEqual(diagram);
      const bad = await catalog.call(`/internal/assemblies/${frame.id}/diagram`, { method: 'PUT', body: { ...diagram, width: -1 }, token: SERVICE_TOKEN });
      expect(bad.status).toBe(400);
    });

    it('exports the tables as CSV, and importing the export again changes nothing', async () => {
      const res = await fetch(`${catalog.url}/api/admin/assemblies/export.csv`, { headers: await catalog.adminHeaders() });
      expect(res.status).toBe(200);
      const csv = (await res.text()).replace(/^\uFEFF/, '');
      const lines = csv.trim().split('\n');
      expect(lines[0]).toBe('make,model,assembly,callout,part_number,sku,quantity,x,y,serial_from,serial_to,note');
      // Callout 3's seal is drawn twice: two rows. The idler is drawn nowhere yet: one row, x and y blank.
      expect(lines.filter((l) => l.includes(SEAL.sku))).toHaveLength(2);
      expect(lines.find((l) => l.includes(IDLER.sku))).toContain(',,,RJS02000,');
      const before = (await catalog.call(`/api/admin/assemblies/${frame.id}`)).body as { assembly: Assembly };
      const report = DiagramImportReportSchema.parse((await upload(csv)).body);
      // Final drive has no lines yet, so no rows: the file names one assembly, unchanged.
      expect(report).toMatchObject({ created: 0, updated: 0, unchanged: 1, errorCount: 0 });
      const after = (await catalog.call(`/api/admin/assemblies/${frame.id}`)).body as { assembly: Assembly };
      expect(after.assembly).toEqual(before.assembly);
    });

    it('imports a file: new assemblies, changed tables, parts by number or SKU, and every bad row reported by row and column', async () => {
      const csv = [
        'Make,Model,Assembly,Callout,Part Number,SKU,Qty,X,Y,Serial From,Serial To,Note,Colour',
        `Caterpillar,320D Excavator,Swing drive,1,${SEAL.partNumber},,2,10,10,,,,red`,
        `Caterpillar,320D Excavator,Swing drive,1,${SEAL.partNumber},,2,20,10,,,,red`, // a second place of the same line
        `Caterpillar,320D Excavator,Swing drive,2,,${TWIN_B.sku},1,50,50,,,,`,
        'Caterpillar,320D Excavator,Cab,1,NO-SUCH-PART,,1,10,10,,,,', // row 5: unknown part
        `Caterpillar,320D Excavator,Cab,2,${TWIN_A.partNumber},,1,10,10,,,,`, // row 6: two parts have this number
        `Caterpillar,320D Excavator,Cab,3,${BOLT.partNumber},,1,140,10,,,,`, // row 7: off the drawing
        `Caterpillar,320D Excavator,Cab,4,${BOLT.partNumber},,1.5,10,,,,,`, // row 8: quantity, y missing
      ].join('\n');
      const dry = DiagramImportReportSchema.parse((await upload(csv, '?dryRun=true')).body);
      expect(dry).toMatchObject({ dryRun: true, created: 1, updated: 0, unknownColumns: ['Colour'] });
      expect((await catalog.call('/api/machines/caterpillar/320d-excavator/assemblies/swing-drive')).status).toBe(404);
      const report = DiagramImportReportSchema.parse((await upload(csv)).body);
      expect(report).toMatchObject({ dryRun: false, rows: 7, created: 1, updated: 0 });
      expect(report.errors.map((e) => [e.row, e.column])).toEqual([
        [5, 'part_number'],
        [6, 'part_number'],
        [7, 'x'],
        [8, 'y'],
        [8, 'quantity'],
      ]);
      expect(report.errors[1]!.message).toMatch(/SKU/);
      const swing = AssemblyPageSchema.parse((await catalog.call('/api/machines/caterpillar/320d-excavator/assemblies/swing-drive')).body);
      expect(swing.lines.map((l) => [l.number, l.part?.sku, l.positions.length])).toEqual([
        ['1', SEAL.sku, 2],
        ['2', TWIN_B.sku, 1],
      ]);
      // The assembly with bad rows was not written at all (half a table would drop lines).
      expect((await catalog.call('/api/machines/caterpillar/320d-excavator/assemblies/cab')).status).toBe(404);
    });

    it('refuses a file that is not a diagrams file with a 400 naming the file', async () => {
      const noColumns = await upload('sku,name\nA,B\n');
      expect(noColumns.status).toBe(400);
      expect(JSON.stringify(noColumns.body)).toMatch(/assembly/);
      const binary = await upload(Buffer.from([0, 1, 2, 3, 255, 254]).toString('latin1'));
      expect(binary.status).toBe(400);
    });

    it('deletes an assembly, keeping its history', async () => {
      const drive = (await catalog.call('/api/machines/caterpillar/320d-excavator')).body as { assemblies: { id: string; slug: string }[] };
      const id = drive.assemblies.find((a) => a.slug === 'final-drive')!.id;
      expect((await catalog.call(`/api/admin/assemblies/${id}`, { method: 'DELETE' })).status).toBe(204);
      expect((await catalog.call(`/api/admin/assemblies/${id}`)).status).toBe(404);
      const history = (await catalog.call(`/api/admin/assemblies/${id}/history`)).body as { entries: { action: string }[] };
      expect(history.entries.map((e) => e.action)).toEqual(['delete', 'create']);
    });

    it('opens the assemblies a search for a machine and a word of its parts book names', async () => {
      const search = async (q: string) => ProductListResponseSchema.parse((await catalog.call(`/api/products?search=${encodeURIComponent(q)}&limit=10`)).body);
      // By the parts found: the idler seal is callout 3 of the track roller frame (and 1 of the imported swing drive).
      const seal = await search('320D idler seal');
      expect(seal.products.map((p) => p.id)).toContain(SEAL.id);
      expect(seal.assemblies).toContainEqual({ assemblySlug: 'track-roller-frame', assemblyName: 'Track roller frame', callouts: ['3'], make: 'Caterpillar', model: '320D Excavator', makeSlug: 'caterpillar', modelSlug: '320d-excavator' });
      // By the assembly's name.
      expect((await search('320d swing')).assemblies?.map((a) => a.assemblySlug)).toEqual(['swing-drive']);
      // No machine named, or nothing but the machine: no assemblies.
      expect((await search('idler seal')).assemblies).toBeUndefined();
      expect((await search('320D')).assemblies).toBeUndefined();
    });

    it('lists the parts books in the sitemap source', async () => {
      const res = await catalog.call('/internal/sitemap/assemblies', { token: SERVICE_TOKEN });
      expect(res.status).toBe(200);
      expect(res.body.paths).toEqual(
        expect.arrayContaining(['/machines/caterpillar/320d-excavator', '/machines/caterpillar/320d-excavator/track-roller-frame', '/machines/caterpillar/320d-excavator/swing-drive']),
      );
    });
  });
});
