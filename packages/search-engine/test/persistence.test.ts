import { existsSync, readdirSync, readFileSync, appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '@forgeline/test-support/net';
import { COMPACT_AFTER } from '../src/persistence/compaction.ts';
import { SearchEngine, type SearchDoc } from '../src/search-engine.ts';
import { batches, fixtureDocs, generateDocs } from './harness.ts';

describe('embedded search index persistence', () => {
  const dirs: Array<{ remove: () => void }> = [];
  const fresh = () => {
    const t = tempDir('forgeline-search-');
    dirs.push(t);
    return t.dir;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) d.remove();
  });
  /** A fresh index of `count` generated parts: the first 1,000 in its base (snapshot), the rest changed on top (journal). */
  const indexWithChanges = async (count: number) => {
    const dir = fresh();
    const index = await SearchEngine.open(dir);
    const generated = [...generateDocs(count)];
    await index.rebuild(batches(generated.slice(0, 1000), 500));
    await index.upsert(generated.slice(1000));
    return { dir, index, generated };
  };
  /** The pid of this process's child running the index's full merge, once it runs. */
  const mergeProcess = async (): Promise<number> => {
    for (let i = 0; i < 200; i++) {
      for (const pid of readdirSync('/proc').filter((f) => /^\d+$/.test(f))) {
        try {
          const ppid = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
          if (ppid === process.pid && readFileSync(`/proc/${pid}/environ`, 'utf8').includes('FORGELINE_CHILD_ROLE=search-index-merge')) return Number(pid);
        } catch {
          // gone meanwhile
        }
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('no merge process started');
  };
  const top = async (index: SearchEngine, q: string) => (await index.search(q, { limit: 5, offset: 0 })).hits.map((h) => h.id);

  it('starts empty in an empty folder', async () => {
    const index = await SearchEngine.open(fresh());
    expect(await index.size()).toBe(0);
    expect(await index.search('filter', { limit: 10, offset: 0 })).toEqual({ hits: [], total: 0 });
  });

  it('reopens a rebuilt index from its snapshot, with nothing left half-written', async () => {
    const dir = fresh();
    const a = await SearchEngine.open(dir);
    await a.rebuild(batches(fixtureDocs(), 4));
    const before = await a.search('hydralic filtr', { limit: 10, offset: 0 });
    await a.close();
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
    const b = await SearchEngine.open(dir);
    expect(await b.size()).toBe(fixtureDocs().length);
    expect(await b.search('hydralic filtr', { limit: 10, offset: 0 })).toEqual(before);
    expect(await top(b, '1r0750')).toEqual(['p-cat-0750']);
  });

  it('replays upserts and removals made after the snapshot', async () => {
    const dir = fresh();
    const a = await SearchEngine.open(dir);
    await a.rebuild(batches(fixtureDocs()));
    const [first] = fixtureDocs();
    await a.upsert([{ ...first!, name: 'Caterpillar 1R-0750 Fuel Water Separator' }]);
    await a.upsert([{ ...first!, id: 'p-added', name: 'Liebherr 5608701 Idler', partNumber: '5608701', sku: 'LIE-5608701', brandName: 'Liebherr' }]);
    await a.remove(['p-jd-oil']);
    await a.close();

    const b = await SearchEngine.open(dir);
    expect(await b.size()).toBe(fixtureDocs().length);
    expect(await top(b, 'separator')).toEqual(['p-cat-0750']);
    expect(await top(b, '5608701')).toEqual(['p-added']);
    expect(await top(b, 'RE504836')).toEqual([]);
  });

  it('takes a bulk import batch by batch: each batch searchable at once, O(log n) segments, no full rebuild on the way', async () => {
    const index = await SearchEngine.open(fresh());
    const base = fixtureDocs();
    await index.rebuild(batches(base));
    const [first] = base;
    // 120 batches of 50 products (6,000 changes, past the point where a full merge is due once writes pause).
    for (let b = 0; b < 120; b++) {
      const batch = Array.from({ length: 50 }, (_, i) => ({
        ...first!,
        id: `bulk-${b}-${i}`,
        sku: `BULK-${b}-${i}`,
        partNumber: `BK${b}X${i}`,
        name: `Bulk Seal Kit ${b} ${i}`,
      }));
      await index.upsert(batch);
      expect((await top(index, `BK${b}X${b % 50}`))[0]).toBe(`bulk-${b}-${b % 50}`);
      const stats = index.stats();
      expect(stats.delta).toBe((b + 1) * 50); // no full merge while the writes go on
      expect(stats.deltaSegments).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(b + 2)));
    }
    // A changed product is found under its new name only, whichever segment held the old one.
    await index.upsert([{ ...first!, id: 'bulk-3-7', sku: 'BULK-3-7', partNumber: 'BK3X7', name: 'Renamed Final Drive' }]);
    expect((await top(index, 'renamed final drive'))[0]).toBe('bulk-3-7');
    expect((await index.search('bulk seal kit 3 7', { limit: 50, offset: 0 })).hits.map((h) => h.id)).not.toContain('bulk-3-7');
    expect(await index.size()).toBe(base.length + 6000);
    await index.close();
  });

  it('holds the full merge off while a bulk write runs, and makes it due once the write is released', async () => {
    const generated = [...generateDocs(COMPACT_AFTER + 1000)];
    // Without a hold: once the delta is large, a merge waits for the writes to pause.
    const free = await SearchEngine.open(fresh());
    await free.rebuild(batches(generated.slice(0, 1000), 500));
    await free.upsert(generated.slice(1000));
    expect(free.stats()).toMatchObject({ delta: COMPACT_AFTER, mergeWaiting: true });
    await free.close();
    // Held (an import running): the same writes leave no merge waiting, whatever the time between them.
    const held = await SearchEngine.open(fresh());
    await held.rebuild(batches(generated.slice(0, 1000), 500));
    const release = held.holdMerges();
    for (let from = 1000; from < generated.length; from += 1000) await held.upsert(generated.slice(from, from + 1000));
    expect(held.stats()).toMatchObject({ delta: COMPACT_AFTER, mergeWaiting: false, mergeRuns: 0 });
    release();
    expect(held.stats().mergeWaiting).toBe(true);
    release(); // a second call does nothing (the hold count would otherwise go below zero and never hold again)
    const again = held.holdMerges();
    expect(held.stats().mergeWaiting).toBe(false);
    again();
    await held.close();
  });

  it('merges a held index anyway once its delta is too large to keep in memory, and holds again after', async () => {
    const generated = [...generateDocs(COMPACT_AFTER + 3000)];
    const index = await SearchEngine.open(fresh(), { heldMergeAfter: COMPACT_AFTER + 1000 });
    await index.rebuild(batches(generated.slice(0, 1000), 500));
    const release = index.holdMerges();
    await index.upsert(generated.slice(1000, COMPACT_AFTER + 1000)); // delta COMPACT_AFTER: held, as above
    expect(index.stats()).toMatchObject({ delta: COMPACT_AFTER, mergeWaiting: false, mergeRuns: 0 });
    await index.upsert(generated.slice(COMPACT_AFTER + 1000, COMPACT_AFTER + 2000)); // past the cap: merged at once
    for (let i = 0; i < 400 && index.stats().mergeRuns === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(index.stats()).toMatchObject({ documents: COMPACT_AFTER + 2000, delta: 0, mergeRuns: 1, mergeWaiting: false });
    await index.upsert(generated.slice(COMPACT_AFTER + 2000)); // a small delta again: held
    expect(index.stats()).toMatchObject({ delta: 1000, mergeWaiting: false, mergeRuns: 1 });
    expect((await top(index, generated.at(-1)!.partNumber))[0]).toBe(generated.at(-1)!.id);
    release();
    await index.close();
  });

  it('builds large batches and their merges in the builder thread and the full merge in a process, answering as an index built in one go', async () => {
    const dir = fresh();
    const index = await SearchEngine.open(dir);
    const generated = [...generateDocs(4000)];
    // What the index should hold, in the order it holds it: a changed product moves to the end.
    const expected = new Map<string, SearchDoc>();
    const put = (ps: SearchDoc[]) => {
      for (const p of ps) {
        expected.delete(p.id);
        expected.set(p.id, p);
      }
    };
    const base = generated.slice(0, 1000);
    await index.rebuild(batches(base, 250));
    put(base);
    // Batches of 400 (built in the builder thread); every third renames 100 earlier products; some are removed.
    for (let b = 0; b < 7; b++) {
      const batch = generated.slice(1000 + b * 400, 1400 + b * 400);
      if (b % 3 === 2) batch.push(...generated.slice(b * 100, b * 100 + 100).map((p) => ({ ...p, name: `Rebuilt ${p.name}` })));
      await index.upsert(batch);
      put(batch);
    }
    const removed = generated.slice(2000, 2050).map((p) => p.id);
    await index.remove(removed);
    for (const id of removed) expected.delete(id);
    expect(index.stats().deltaSegments).toBeLessThanOrEqual(3);
    const threadJobs = index.stats().builderThreadJobs;
    expect(threadJobs).toBeGreaterThan(7); // every batch, and the larger merges

    const reference = await SearchEngine.open(fresh());
    await reference.rebuild(batches([...expected.values()], 500));
    const sample = [...expected.values()].filter((_, i) => i % 350 === 0);
    const queries = ['rebuilt', 'filter', 'hydraulic pump', 'seal kit', ...sample.flatMap((p) => [p.partNumber, p.sku, p.name])];
    const answers = async (ix: SearchEngine) =>
      Promise.all(queries.map(async (q) => (await ix.search(q, { limit: 20, offset: 0 })).hits.map((h) => h.id)));
    const want = await answers(reference);
    for (const [i, ids] of (await answers(index)).entries()) expect(new Set(ids), queries[i]).toEqual(new Set(want[i]));
    // 3,000 changed documents: most of them sealed into columns (a chunk per 1,024), the newest as objects; the
    // journal alone brings the same index back.
    expect(index.stats().delta).toBe(3000);
    const replayed = await SearchEngine.open(dir);
    expect(replayed.stats()).toMatchObject({ documents: expected.size, delta: 3000 });
    for (const [i, ids] of (await answers(replayed)).entries()) expect(new Set(ids), queries[i]).toEqual(new Set(want[i]));
    await replayed.close();

    // The full merge runs in a process of its own; writes made meanwhile go on and are kept on top of its result.
    const merging = index.compact();
    const late = { ...generated[0]!, name: 'Latecomer Swing Bearing', partNumber: 'LATE-4242', sku: 'LATE-4242' };
    await index.upsert([late]);
    await index.remove([generated[1]!.id]);
    expect(await top(index, 'LATE-4242')).toEqual([late.id]);
    await merging;
    expect(index.stats()).toMatchObject({ documents: expected.size - 1, delta: 1, mergeRuns: 1, builderThreadJobs: threadJobs });
    expect(await top(index, 'LATE-4242')).toEqual([late.id]);
    expect(await top(index, generated[1]!.partNumber)).not.toContain(generated[1]!.id);
    await index.upsert([generated[0]!]);
    await index.upsert([generated[1]!]);
    expect(await answers(index)).toEqual(want);
    await index.close();
    // The merge process wrote the snapshot; the journal keeps only what came after it.
    expect(readdirSync(dir).sort()).toEqual(['search-index.bin', 'search-journal.ndjson']);
    const reopened = await SearchEngine.open(dir);
    expect(reopened.stats()).toMatchObject({ documents: expected.size, delta: 3 });
    expect(await answers(reopened)).toEqual(want);
    expect(await top(reopened, removed[0]!)).toEqual([]);
    await Promise.all([reopened.close(), reference.close()]);
  });

  it('a merge that fails changes nothing: the index answers from its segments and the files stay as they were', async () => {
    const { dir, index, generated } = await indexWithChanges(1500);
    // The merge process reads the snapshot from disk: a file it cannot read makes it fail.
    const snapshot = path.join(dir, 'search-index.bin');
    const good = readFileSync(snapshot);
    writeFileSync(snapshot, 'not a snapshot');
    const journal = readFileSync(path.join(dir, 'search-journal.ndjson'));
    await expect(index.compact()).rejects.toThrow(/merge process stopped \(exit 1\)/);
    expect(index.stats()).toMatchObject({ documents: 1500, delta: 500, mergeRuns: 0 });
    expect(await top(index, generated[1200]!.partNumber)).toContain(generated[1200]!.id);
    expect(readFileSync(path.join(dir, 'search-journal.ndjson')).equals(journal)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['search-index.bin', 'search-journal.ndjson']);
    // Once it can, the next merge goes through.
    writeFileSync(snapshot, good);
    await index.compact();
    expect(index.stats()).toMatchObject({ documents: 1500, delta: 0, mergeRuns: 1 });
    expect(await top(index, generated[1200]!.partNumber)).toContain(generated[1200]!.id);
    await index.close();
  });

  it('a merge stopped half-way (the catalog closing) leaves the index whole and nothing behind', async () => {
    const { dir, index, generated } = await indexWithChanges(3000);
    const merging = index.compact().then(() => null, (err: Error) => err);
    const child = await mergeProcess();
    await index.close(); // stops the merge process
    expect((await merging)?.message).toMatch(/merge process stopped \(SIGKILL\)/);
    expect(existsSync(`/proc/${child}`)).toBe(false);
    const reopened = await SearchEngine.open(dir);
    expect(readdirSync(dir).sort()).toEqual(['search-index.bin', 'search-journal.ndjson']);
    expect(reopened.stats()).toMatchObject({ documents: 3000, delta: 2000 });
    expect(await top(reopened, generated[2500]!.partNumber)).toContain(generated[2500]!.id);
    await reopened.close();
  });

  it('ignores a journal line torn by a crash', async () => {
    const dir = fresh();
    const a = await SearchEngine.open(dir);
    await a.rebuild(batches(fixtureDocs()));
    await a.remove(['p-jd-oil']);
    await a.close();
    appendFileSync(path.join(dir, 'search-journal.ndjson'), '{"u":[{"id":"p-half');
    const b = await SearchEngine.open(dir);
    expect(await b.size()).toBe(fixtureDocs().length - 1);
    expect(await top(b, '1R0750')).toEqual(['p-cat-0750']);
    // The torn line is cut off, so the next change starts a line of its own and is there after the next start.
    expect(readFileSync(path.join(dir, 'search-journal.ndjson'), 'utf8').endsWith('}\n')).toBe(true);
    await b.upsert([{ ...fixtureDocs()[0]!, id: 'p-after-crash', partNumber: '7Y-4242', sku: 'CAT-7Y-4242', name: 'Track Roller 7Y-4242' }]);
    await b.close();
    const c = await SearchEngine.open(dir);
    expect(await top(c, '7Y-4242')).toEqual(['p-after-crash']);
    await c.close();
  });

  it('a rebuild replaces everything and starts a new journal', async () => {
    const dir = fresh();
    const a = await SearchEngine.open(dir);
    await a.rebuild(batches(fixtureDocs()));
    await a.upsert([{ ...fixtureDocs()[0]!, id: 'p-temp', partNumber: '9X-9999', sku: 'CAT-9X-9999', name: 'Temp 9X-9999' }]);
    await a.rebuild(batches(fixtureDocs().slice(0, 3)));
    expect(await a.size()).toBe(3);
    expect(await top(a, '9X-9999')).toEqual([]);
    await a.close();
    expect(existsSync(path.join(dir, 'search-index.bin'))).toBe(true);
    const b = await SearchEngine.open(dir);
    expect(await b.size()).toBe(3);
  });
});
