import { tempDir } from '@forgeline/test-support/net';
import { fitCoversMachine } from '@forgeline/contracts/machine-fit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStores, type Stores } from '../stores.ts';
import { seedCatalogue } from './seed-catalogue.ts';
import { DEMO_DIAGRAM_MAX_CALLOUTS, DEMO_DIAGRAM_MIN_CALLOUTS, GeneratedDiagramParamsSchema, renderDemoDiagram } from './demo-diagrams.ts';

/** The demo catalogue's parts books (#38): alive on `npm start`, made of parts that really fit each machine. */
describe('the demo parts diagrams', () => {
  const tmp = tempDir('forgeline-demo-diagrams-');
  let stores: Stores;
  beforeAll(async () => {
    stores = await openStores({ DATA_DIR: tmp.dir, MONGO_URL: undefined, MEILI_URL: undefined, MEILI_MASTER_KEY: undefined, MEILI_INDEX: 'products' });
  });
  afterAll(async () => {
    await stores?.close();
    tmp.remove();
  });

  it('gives a good share of the machine models assemblies of 8-40 callouts, each a part that fits the model, with its serial range', async () => {
    const result = await seedCatalogue({ repo: stores.repo, search: stores.search, diagrams: stores.diagrams, count: 6_000, batchSize: 1_000 });
    const models = await stores.diagrams.models();
    const fitted = (await stores.repo.listMachineMakes()).length;
    expect(result.assemblies).toBe(await stores.diagrams.count());
    expect(models.length).toBeGreaterThan(fitted); // makes are fewer than models: every make has several
    let ranged = 0;
    for await (const batch of stores.diagrams.scan(100)) {
      for (const a of batch) {
        const numbers = new Set(a.callouts.map((c) => c.number));
        expect(numbers.size).toBeGreaterThanOrEqual(DEMO_DIAGRAM_MIN_CALLOUTS);
        expect(numbers.size).toBeLessThanOrEqual(DEMO_DIAGRAM_MAX_CALLOUTS);
        expect(a.diagram?.url).toMatch(/^\/media\/generated\/diagrams\//);
        const parts = new Map((await stores.repo.getSummaries(a.callouts.map((c) => c.partId))).map((p) => [p.id, p]));
        for (const c of a.callouts) {
          const part = await stores.repo.getById(c.partId);
          expect(part, `${a.name} callout ${c.number}`).not.toBeNull();
          expect(parts.has(c.partId)).toBe(true);
          const fit = part!.fits!.find((f) => fitCoversMachine(f, { make: a.make, model: a.model }))!;
          expect(fit).toBeDefined();
          expect([c.serialFrom, c.serialTo]).toEqual([fit.serialFrom, fit.serialTo]);
          if (c.serialFrom || c.serialTo) ranged++;
          for (const p of c.positions) {
            expect(p.x).toBeGreaterThanOrEqual(0);
            expect(p.x).toBeLessThanOrEqual(100);
            expect(p.y).toBeGreaterThanOrEqual(0);
            expect(p.y).toBeLessThanOrEqual(100);
          }
        }
      }
    }
    expect(ranged).toBeGreaterThan(0);
    // Where-used reads the same index: the first line's part is found in its assembly.
    const [first] = (await stores.diagrams.list({ limit: 1 }));
    const used = await stores.diagrams.whereUsed(first!.callouts[0]!.partId, 50);
    expect(used.items.map((a) => a.id)).toContain(first!.id);
  });

  it('draws each demo assembly as an SVG with its title escaped, the same every time', () => {
    const params = GeneratedDiagramParamsSchema.parse({ make: 'caterpillar', model: '320d-excavator', file: 'track-roller-frame-24' });
    const svg = renderDemoDiagram(params);
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 1200 800"/);
    expect(svg).toContain('Track roller frame');
    expect(svg).toContain('Caterpillar 320D Excavator');
    expect(svg.match(/<circle cx="[\d.]+" cy="[\d.]+" r="17"\/>/g)).toHaveLength(24);
    expect(renderDemoDiagram(params)).toBe(svg);
    expect(svg).not.toMatch(/<script|on\w+=/i);
    expect(GeneratedDiagramParamsSchema.safeParse({ make: 'x', model: 'y', file: '<b>-3' }).success).toBe(false);
  });
});
