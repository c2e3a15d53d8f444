import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@forgeline/service-kit/logger';
import { tempDir } from '@forgeline/test-support/net';
import { createSqliteSearchInsights } from '../src/adapters/sqlite/sqlite-search-insights.ts';
import { countEvents, periodOf, SearchEventBuffer, searchQueryKey } from '../src/domain/search-insights.ts';

/** The analytics buffer between the events' route and the store (#36): full, it drops and counts; a failed write is kept. */
describe('search event buffer', () => {
  const dirs: { remove(): void }[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) d.remove();
  });
  const store = () => {
    const t = tempDir('search-buffer-');
    dirs.push(t);
    return createSqliteSearchInsights(path.join(t.dir, 'search-insights.sqlite'));
  };
  const logger = createLogger('catalog', 'silent');
  const search = (query: string, hits = 0) => ({ type: 'search' as const, query, hits, page: 'search' as const });

  it('a full buffer drops what comes and counts it; what it kept is written as counts per day and query', async () => {
    const s = store();
    const buffer = new SearchEventBuffer(s, logger, { maxEvents: 5, flushEveryMs: 60_000, flushAt: 1_000 });
    expect(buffer.add('visitor-aaaaaaaaaaaa', [search('Seal Kit'), search('seal-kit'), search('SEAL KIT', 3)])).toBe(3);
    expect(buffer.add('visitor-bbbbbbbbbbbb', [search('hose'), search('hose'), search('hose'), search('hose')])).toBe(2);
    expect(buffer.dropped).toBe(2);
    await buffer.flush();
    expect(buffer.buffered).toBe(0);
    const { fromDay, toDay } = periodOf(1);
    const [seal] = await s.queries({ fromDay, toDay, limit: 10, kind: 'top' });
    expect(seal).toMatchObject({ query: 'seal kit', searches: 3, zeroResults: 2, hits: 3, visitors: 1, example: 'SEAL KIT' });
    expect((await s.totals(fromDay, toDay)).searches).toBe(5);
    await s.close();
  });

  it('a batch the store cannot take is kept for the next flush, as far as there is room', async () => {
    const s = store();
    const buffer = new SearchEventBuffer(s, logger, { maxEvents: 3, flushEveryMs: 60_000, flushAt: 1_000 });
    buffer.add('visitor-aaaaaaaaaaaa', [search('a1b2'), search('c3d4')]);
    await s.close(); // the store fails from here on
    await buffer.flush();
    expect(buffer.buffered).toBe(2);
    expect(buffer.dropped).toBe(0);
    buffer.add('visitor-aaaaaaaaaaaa', [search('e5f6'), search('g7h8')]);
    expect(buffer.buffered).toBe(3);
    expect(buffer.dropped).toBe(1);
  });

  it('normalises queries as the report counts them, and keeps no query holding an e-mail address', () => {
    expect(searchQueryKey('  1R-0750  Oil FILTER ')).toBe('1r 0750 oil filter');
    expect(searchQueryKey('Ölkühler')).toBe('olkuhler');
    const batch = countEvents([
      { at: new Date('2026-11-28T10:00:00Z'), visitor: 'v-aaaaaaaaaaaaaaaa', event: search('call buyer@example.com') },
      { at: new Date('2026-11-28T10:00:01Z'), visitor: 'v-aaaaaaaaaaaaaaaa', event: { type: 'quote_request' } },
    ]);
    expect(batch.queries).toEqual([]);
    expect(batch.visitors).toEqual([]);
    expect(batch.quoteRequests).toEqual([{ day: '2026-11-28', visitor: 'v-aaaaaaaaaaaaaaaa' }]);
  });
});
