import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DemandRowSchema, SearchInsightsSchema, type SearchInsights } from '@forgeline/contracts/search-insights';
import { ProductListResponseSchema } from '@forgeline/contracts/products';
import { startFerretDb } from '@forgeline/test-support/ferretdb';
import { PRODUCTS, id, makeProduct } from './fixtures.ts';
import { SERVICE_TOKEN, startCatalog, storeAdapters, type CatalogUnderTest } from './harness.ts';

/**
 * Issue 36 over HTTP on both stores (SQLite, and MongoDB's adapter on FerretDB) with the embedded search: the events
 * buyers' pages send and the staff's reports, the zero-result queue (aliases, synonyms, not stocked, dismissed), CSV
 * in and out, and bad input.
 */
const TOOTH = makeProduct({ id: id(801), name: 'Bucket Tooth', sku: 'GET-BT-1', partNumber: 'BT-100', category: 'Ground Engaging Tools', brandName: 'ESCO' });
const TIP = makeProduct({ id: id(802), name: 'Bucket Tip', sku: 'GET-TIP-1', partNumber: 'TP-200', category: 'Ground Engaging Tools', brandName: 'ESCO' });
const ALL = [...PRODUCTS, TOOTH, TIP];

const ferret = await startFerretDb();
if ('skip' in ferret) console.warn(`[catalog] search insights over HTTP: skipping the MongoDB adapter on FerretDB: ${ferret.skip}`);
else afterAll(() => ferret.stop());

const adapters = storeAdapters(ferret);

const visitor = () => randomUUID().replaceAll('-', '');

describe.each(adapters)('search insights over HTTP: $name', ({ skip, mongoUrl }) => {
  let catalog: CatalogUnderTest;
  beforeAll(async () => {
    if (skip) return;
    catalog = await startCatalog({ products: ALL, mongoUrl: mongoUrl?.() });
  }, 60_000);
  afterAll(async () => {
    await catalog?.stop();
  });

  // Buyers' pages post to the gateway, which hands the catalog what it gathered (gateway/src/search-events.ts).
  const send = (v: string, events: unknown[]) => catalog.call('/internal/search/events', { method: 'POST', token: SERVICE_TOKEN, body: { batches: [{ visitor: v, events }] } });
  const flush = () => (catalog.app.locals.searchInsights as { buffer: { flush(): Promise<void> } }).buffer.flush();
  const insights = async (query = '') => {
    const res = await catalog.call(`/api/admin/search/insights${query}`);
    expect(res.status).toBe(200);
    return SearchInsightsSchema.parse(res.body) as SearchInsights;
  };
  const search = async (q: string) => ProductListResponseSchema.parse((await catalog.call(`/api/products?search=${encodeURIComponent(q)}&limit=10`)).body);

  describe.skipIf(Boolean(skip))('analytics', () => {
    it('counts searches per query, normalised, with visitors, zero results, opens and quote adds, and no personal data', async () => {
      const [a, b] = [visitor(), visitor()];
      expect((await send(a, [{ type: 'search', query: 'Bucket  TOOTH', hits: 1, page: 'search' }, { type: 'open', query: 'bucket tooth', productId: TOOTH.id, page: 'search' }])).status).toBe(202);
      await send(b, [
        { type: 'search', query: 'bucket tooth', hits: 1, page: 'header' },
        { type: 'search', query: 'XJ-9999-Q', hits: 0, page: 'search' },
        { type: 'search', query: 'xj 9999 q', hits: 0, page: 'header' },
        { type: 'search', query: 'mail me at buyer@example.com', hits: 0, page: 'search' },
        { type: 'search', query: 'seal kit', hits: 2, page: 'gallery' },
      ]);
      await send(a, [{ type: 'search', query: 'XJ9999Q', hits: 0, page: 'search' }, { type: 'quote_request' }]);
      await flush();
      const r = await insights();
      const tooth = r.top.find((q) => q.query === 'bucket tooth')!;
      expect(tooth).toMatchObject({ searches: 2, visitors: 2, opens: 1, zeroResults: 0, hits: 1, status: 'open' });
      // Separators and case are one query; the example is the latest as typed.
      const xj = r.zeroResults.find((q) => q.query === 'xj 9999 q')!;
      expect(xj).toMatchObject({ searches: 2, zeroResults: 2, visitors: 1 });
      expect(r.zeroResults.find((q) => q.query === 'xj9999q')).toMatchObject({ visitors: 1 });
      expect(r.unopened.map((q) => q.query)).toContain('seal kit');
      expect(r.unopened.map((q) => q.query)).not.toContain('bucket tooth');
      // A query holding an e-mail address is not kept at all.
      expect(JSON.stringify(r)).not.toContain('example.com');
      expect(r.totals.searches).toBe(6);
      expect(r.perDay.at(-1)).toMatchObject({ searches: 6, zeroResults: 3, visitors: 2 });
      expect(r.dropped).toBe(0);
    });

    it('refuses bad events with a 400 naming the field, and takes nothing of them', async () => {
      const before = (catalog.app.locals.searchInsights as { buffer: { buffered: number } }).buffer.buffered;
      const cases: [unknown, string][] = [
        [{ visitor: 'short', events: [{ type: 'search', query: 'x', hits: 1, page: 'search' }] }, 'visitor'],
        [{ visitor: visitor(), events: [] }, 'events'],
        [{ visitor: visitor(), events: Array.from({ length: 51 }, () => ({ type: 'quote_request' })) }, 'events'],
        [{ visitor: visitor(), events: [{ type: 'search', query: 'x'.repeat(121), hits: 1, page: 'search' }] }, 'events.0.query'],
        [{ visitor: visitor(), events: [{ type: 'search', query: 'x', hits: -1, page: 'search' }] }, 'events.0.hits'],
        [{ visitor: visitor(), events: [{ type: 'search', query: 'x', hits: 1, page: 'elsewhere' }] }, 'events.0.page'],
        [{ visitor: visitor(), events: [{ type: 'hack', query: 'x' }] }, 'events.0.type'],
        [{ visitor: visitor(), events: [{ type: 'search', query: 'x', hits: 1, page: 'search', ip: '1.2.3.4' }] }, 'events.0'],
      ];
      for (const [batch, field] of cases) {
        // A good batch beside the bad one: the whole call is refused, so nothing of it is taken.
        const body = { batches: [{ visitor: visitor(), events: [{ type: 'quote_request' }] }, batch] };
        const res = await catalog.call('/internal/search/events', { method: 'POST', token: SERVICE_TOKEN, body });
        expect(res.status, JSON.stringify(batch).slice(0, 80)).toBe(400);
        expect(JSON.stringify(res.body.details ?? res.body)).toContain(`batches.1.${field}`);
      }
      expect((catalog.app.locals.searchInsights as { buffer: { buffered: number } }).buffer.buffered).toBe(before);
      // Only the gateway may hand events over: without the service token, 401.
      expect((await catalog.call('/internal/search/events', { method: 'POST', body: { batches: [{ visitor: visitor(), events: [{ type: 'quote_request' }] }] } })).status).toBe(401);
      // And the catalog answers no public events route of its own any more.
      expect((await catalog.call('/api/search/events', { method: 'POST', body: { visitor: visitor(), events: [{ type: 'quote_request' }] } })).status).toBe(404);
    });

    it('a visitor cleared on their device is forgotten', async () => {
      const v = visitor();
      await send(v, [{ type: 'search', query: 'forget me part', hits: 0, page: 'search' }]);
      const res = await catalog.call(`/api/search/visitors/${v}`, { method: 'DELETE' });
      expect(res.status).toBe(200);
      expect(res.body.forgotten).toBe(1);
      expect((await insights()).zeroResults.find((q) => q.query === 'forget me part')?.visitors).toBe(0);
      expect((await catalog.call('/api/search/visitors/not-an-id', { method: 'DELETE' })).status).toBe(400);
    });
  });

  describe.skipIf(Boolean(skip))('the zero-result queue', () => {
    afterEach(async () => {
      for (const a of (await catalog.call('/api/admin/search/aliases')).body.aliases) await catalog.call(`/api/admin/search/aliases/${a.id}`, { method: 'DELETE' });
      for (const s of (await catalog.call('/api/admin/search/synonyms')).body.synonyms) await catalog.call(`/api/admin/search/synonyms/${s.id}`, { method: 'DELETE' });
    });

    it('an alias makes its text find the parts at once, and leaves the queue', async () => {
      const v = visitor();
      await send(v, [{ type: 'search', query: 'QQ-ZX-77', hits: 0, page: 'search' }]);
      await flush();
      expect((await insights()).zeroResults.map((q) => q.query)).toContain('qq zx 77');
      expect((await search('QQ-ZX-77')).products).toEqual([]);
      const res = await catalog.call('/api/admin/search/aliases', { method: 'POST', body: { text: 'qq zx 77', productIds: [TOOTH.id], query: 'QQ-ZX-77' } });
      expect(res.status).toBe(201);
      expect(res.body.parts).toEqual([{ id: TOOTH.id, name: TOOTH.name, partNumber: 'BT-100', sku: 'GET-BT-1' }]);
      const found = await search('qq-zx 77');
      expect(found.products[0]?.id).toBe(TOOTH.id);
      expect(found.pagination.totalCount).toBe(1);
      expect((await insights()).zeroResults.map((q) => q.query)).not.toContain('qq zx 77');
      // The same text again replaces it (one alias per text).
      await catalog.call('/api/admin/search/aliases', { method: 'POST', body: { text: 'QQ zx 77', productIds: [TIP.id, TOOTH.id] } });
      const aliases = (await catalog.call('/api/admin/search/aliases')).body.aliases;
      expect(aliases).toHaveLength(1);
      expect((await search('qq zx 77')).products.map((p) => p.id)).toEqual([TIP.id, TOOTH.id]);
    });

    it('a synonym set finds the other words, both ways or one way', async () => {
      expect((await search('tip')).products.map((p) => p.id)).toEqual([TIP.id]);
      const both = await catalog.call('/api/admin/search/synonyms', { method: 'POST', body: { words: ['tip', 'tooth'], query: 'tip' } });
      expect(both.status).toBe(201);
      expect((await search('bucket tip')).products.map((p) => p.id).sort()).toEqual([TOOTH.id, TIP.id].sort());
      expect((await search('tooth')).products.map((p) => p.id).sort()).toEqual([TOOTH.id, TIP.id].sort());
      await catalog.call(`/api/admin/search/synonyms/${both.body.id}`, { method: 'DELETE' });
      expect((await search('tooth')).products.map((p) => p.id)).toEqual([TOOTH.id]);
      await catalog.call('/api/admin/search/synonyms', { method: 'POST', body: { words: ['separator', 'tooth'], mode: 'one-way' } });
      expect((await search('water separator')).products.map((p) => p.id)).toContain(id(2)); // its own word still finds it
      expect((await search('tooth')).products.map((p) => p.id)).toEqual([TOOTH.id]);
    });

    it('not stocked: the search says so with the note; dismissed queries leave the queue; the demand report ranks by visitors', async () => {
      const [a, b, c] = [visitor(), visitor(), visitor()];
      for (const v of [a, b, c]) await send(v, [{ type: 'search', query: 'Hensley ZZ-555', hits: 0, page: 'search' }]);
      await send(a, [{ type: 'quote_request' }]);
      await send(a, [{ type: 'search', query: 'dismiss me 42', hits: 0, page: 'search' }]);
      await flush();
      let res = await catalog.call('/api/admin/search/queries/status', { method: 'PUT', body: { query: 'hensley zz 555', status: 'not_stocked', note: 'We source this on request.' } });
      expect(res.status).toBe(200);
      const found = await search('HENSLEY zz-555');
      expect(found.notice).toEqual({ kind: 'not_stocked', note: 'We source this on request.' });
      const gallery = (await catalog.call(`/api/catalog/products?search=${encodeURIComponent('hensley zz 555')}`)).body;
      expect(gallery.notice?.kind).toBe('not_stocked');
      res = await catalog.call('/api/admin/search/queries/status', { method: 'PUT', body: { query: 'dismiss me 42', status: 'dismissed' } });
      expect(res.status).toBe(200);
      const queue = (await insights()).zeroResults.map((q) => q.query);
      expect(queue).not.toContain('dismiss me 42');
      expect(queue).not.toContain('hensley zz 555');
      const demand = await catalog.call('/api/admin/search/demand?days=30');
      const rows = demand.body.rows.map((r: unknown) => DemandRowSchema.parse(r));
      expect(rows[0]).toMatchObject({ query: 'hensley zz 555', status: 'not_stocked', visitors: 3, quoteRequesters: 1, note: 'We source this on request.' });
      expect(rows.map((r: { query: string }) => r.query)).not.toContain('dismiss me 42');
      const csv = await catalog.call('/api/admin/search/demand.csv?days=30');
      expect(csv.headers.get('content-type')).toContain('text/csv');
      expect(csv.text.split('\n')[0]).toBe('query,example,status,note,visitors,visitors_who_sent_a_quote_request,searches,first_seen,last_seen');
      expect(csv.text).toContain('hensley zz 555,Hensley ZZ-555,not_stocked,We source this on request.,3,1,3');
      // Open again: the notice goes.
      await catalog.call('/api/admin/search/queries/status', { method: 'PUT', body: { query: 'hensley zz 555', status: 'open' } });
      expect((await search('hensley zz 555')).notice).toBeUndefined();
    });

    it('aliases and synonyms go out and come back as CSV: export then import changes nothing', async () => {
      await catalog.call('/api/admin/search/aliases', { method: 'POST', body: { text: 'Our code 17', productIds: [TOOTH.id, TIP.id] } });
      await catalog.call('/api/admin/search/synonyms', { method: 'POST', body: { words: ['hose', 'line'], mode: 'one-way' } });
      const aliasCsv = (await catalog.call('/api/admin/search/aliases.csv')).text;
      expect(aliasCsv).toBe('text,skus\nOur code 17,GET-BT-1 | GET-TIP-1\n');
      const synCsv = (await catalog.call('/api/admin/search/synonyms.csv')).text;
      expect(synCsv).toBe('words,mode\n"hose, line",one-way\n');
      const again = await postCsv('/api/admin/search/aliases.csv', aliasCsv);
      expect(again).toEqual({ added: 0, unchanged: 1, errors: [] });
      expect(await postCsv('/api/admin/search/synonyms.csv', synCsv)).toEqual({ added: 0, unchanged: 1, errors: [] });
      // New rows are added; bad rows are named by line and the rest still go in.
      const mixed = await postCsv('/api/admin/search/synonyms.csv', 'words,mode\n"tip, tooth",both\n"solo",both\n"a, b",sideways\n');
      expect(mixed.added).toBe(1);
      expect(mixed.errors.map((e: { line: number }) => e.line)).toEqual([3, 4]);
      const aliasErrors = await postCsv('/api/admin/search/aliases.csv', `text,skus\nnew code,NOPE-1\n${'x'.repeat(200)},GET-BT-1\nfine code,GET-TIP-1\n`);
      expect(aliasErrors.added).toBe(1);
      expect(aliasErrors.errors).toEqual([
        { line: 2, message: 'no part has the SKU NOPE-1' },
        { line: 3, message: 'text is longer than 120 characters' },
      ]);
      expect((await catalog.call('/api/admin/search/aliases.csv', { method: 'POST', body: 'not,the,columns' })).status).toBe(400);
    });

    async function postCsv(path: string, text: string) {
      const res = await fetch(catalog.url + path, { method: 'POST', headers: { ...(await catalog.adminHeaders()), 'content-type': 'text/csv' }, body: text });
      expect(res.status).toBe(200);
      return (await res.json()) as { added: number; unchanged: number; errors: { line: number; message: string }[] };
    }

    it('refuses bad rules with a clear 4xx and leaves the index whole', async () => {
      const cases: [string, string, unknown, number, string][] = [
        ['POST', '/api/admin/search/aliases', { text: 'x'.repeat(10_000), productIds: [TOOTH.id] }, 400, 'text'],
        ['POST', '/api/admin/search/aliases', { text: 'gone part', productIds: ['no-such-part'] }, 400, 'productIds.0'],
        ['POST', '/api/admin/search/aliases', { text: '!!!', productIds: [TOOTH.id] }, 400, 'text'],
        ['POST', '/api/admin/search/aliases', { text: 'ok', productIds: [] }, 400, 'productIds'],
        ['POST', '/api/admin/search/synonyms', { words: ['tip', 'tip'] }, 400, 'words.1'],
        ['POST', '/api/admin/search/synonyms', { words: ['tip', 'TIP!'] }, 400, 'words.1'],
        ['POST', '/api/admin/search/synonyms', { words: ['tip'] }, 400, 'words'],
        ['POST', '/api/admin/search/synonyms', { words: ['tip', '...'] }, 400, 'words.1'],
        ['POST', '/api/admin/search/synonyms', { words: ['tip', 'tooth'], mode: 'sideways' }, 400, 'mode'],
        ['PUT', '/api/admin/search/queries/status', { query: 'x', status: 'alias' }, 400, 'status'],
        ['PUT', '/api/admin/search/queries/status', { query: 'x', status: 'not_stocked', note: 'n'.repeat(301) }, 400, 'note'],
        ['DELETE', '/api/admin/search/aliases/nope', undefined, 404, 'Alias'],
        ['DELETE', '/api/admin/search/synonyms/nope', undefined, 404, 'Synonym set'],
      ];
      for (const [method, path, body, status, field] of cases) {
        const res = await catalog.call(path, { method, body });
        expect(res.status, `${method} ${path} ${JSON.stringify(body)?.slice(0, 60)}`).toBe(status);
        expect(JSON.stringify(res.body)).toContain(field);
      }
      // A loop of one-way sets (a finds b, b finds a) is one step each way, never followed around.
      await catalog.call('/api/admin/search/synonyms', { method: 'POST', body: { words: ['tip', 'tooth'], mode: 'one-way' } });
      await catalog.call('/api/admin/search/synonyms', { method: 'POST', body: { words: ['tooth', 'tip'], mode: 'one-way' } });
      expect((await search('tip')).products.map((p) => p.id).sort()).toEqual([TOOTH.id, TIP.id].sort());
      // An alias to a part taken off the storefront since: the part is left out, the search still answers.
      expect((await search('fuel water separator')).products.length).toBeGreaterThan(0);
    });
  });
});
