import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '@forgeline/test-support/net';
import { SearchEngine, type SearchDoc } from '../src/search-engine.ts';
import { findInfixCodes } from '../src/segments/code-infix.ts';
import { batches, fixtureDocs, generateDocs } from './harness.ts';

/** Any part of a part number: the middle or the end of a code, as a buyer reads it off a worn tag. */
describe('a piece of a part number', () => {
  const dirs: Array<{ remove: () => void }> = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) d.remove();
  });
  const doc = (id: string, partNumber: string, sku = `SKU-${id}`): SearchDoc => ({
    id,
    name: `Seal kit ${id}`,
    partNumber,
    sku,
    brandName: 'Generic',
    category: 'Seal Kits',
    extra: '',
  });
  /** A base large enough for the gram index (not the small vocabularies' scan), and changes on top in delta segments. */
  let lastDir = '';
  const open = async (delta: SearchDoc[] = []) => {
    const t = tempDir('forgeline-infix-');
    dirs.push(t);
    lastDir = t.dir;
    const index = await SearchEngine.open(t.dir);
    await index.rebuild(batches([...fixtureDocs(), doc('p-prefix', '0716-55'), doc('p-xkky', 'XKKY-34502'), doc('p-letters', 'QWERTY-12'), ...generateDocs(12_000)], 2000));
    if (delta.length) await index.upsert(delta);
    return index;
  };
  const ids = async (index: SearchEngine, q: string, limit = 5) => (await index.search(q, { limit, offset: 0 })).hits.map((h) => h.id);

  it('finds the end or the middle of a number, separators ignored, below the numbers that start with it', async () => {
    const index = await open();
    expect(await ids(index, '4502')).toContain('p-xkky');
    expect(await ids(index, '4836')).toContain('p-jd-oil'); // RE504836
    expect(await ids(index, '2603')).toContain('p-bosch-unicode'); // R902603723
    // "0716" starts 0716-55 (a prefix) and ends 1R-0716 (a piece): the start ranks first.
    const top = await ids(index, '0716');
    expect(top.indexOf('p-prefix')).toBeGreaterThanOrEqual(0);
    expect(top.indexOf('p-prefix')).toBeLessThan(top.indexOf('p-cat-0716'));
    // The piece typed with its separator, or in two words.
    expect(await ids(index, 'R-0716')).toContain('p-cat-0716');
    expect(await ids(index, '211 1231')).toContain('p-kom-1231');
    await index.close();
  });

  it('keeps the piece index in the snapshot: a reopened index answers from it as it was', async () => {
    const index = await open();
    const before = await ids(index, '4502');
    await index.close();
    const reopened = await SearchEngine.open(lastDir);
    expect(reopened.stats().infixBytes).toBeGreaterThan(6_000_000);
    expect(await ids(reopened, '4502')).toEqual(before);
    expect(before).toContain('p-xkky');
    await reopened.close();
  });

  it('highlights the piece inside the number', async () => {
    const index = await open();
    const { hits } = await index.search('0716', { limit: 5, offset: 0 });
    const hit = hits.find((h) => h.id === 'p-cat-0716')!;
    expect(hit.matches.find((m) => m.field === 'partNumber')?.ranges).toEqual([[3, 7]]); // 1R-[0716]
    const dashed = (await index.search('11-12', { limit: 5, offset: 0 })).hits.find((h) => h.id === 'p-kom-1231');
    expect(dashed?.matches.find((m) => m.field === 'partNumber')?.ranges).toEqual([[5, 10]]); // 600-2[11-12]31
    await index.close();
  });

  it('finds pieces of numbers changed since the base, and not of numbers taken out', async () => {
    const index = await open([doc('p-new', 'ZZQ-98765-X')]);
    expect(await ids(index, '8765')).toContain('p-new');
    await index.remove(['p-xkky']);
    expect(await ids(index, '34502')).not.toContain('p-xkky');
    await index.close();
  });

  it('needs four characters with a digit: shorter pieces and plain words are not looked for inside numbers', async () => {
    const index = await open();
    expect(await ids(index, '716')).not.toContain('p-cat-0716');
    expect(await ids(index, 'kky')).not.toContain('p-xkky');
    expect(await ids(index, 'wert')).not.toContain('p-letters'); // letters only: a word, not a piece of a number
    expect(await ids(index, 'erty12')).toContain('p-letters');
    await index.close();
  });

  it('caps how many numbers a piece reaches, and the gram index agrees with reading every code', async () => {
    const index = await open();
    const { base } = (index as unknown as { segs: { base: { codes: Parameters<typeof findInfixCodes>[0] } } }).segs;
    expect(base.codes.size).toBeGreaterThan(20_000); // the gram index, not the scan
    const scan = (piece: string) => {
      const out: number[] = [];
      for (let t = 0; t < base.codes.size; t++) if (base.codes.terms.get(t).includes(piece)) out.push(t);
      return out;
    };
    for (const piece of ['0716', '4502', '1231', '00300']) {
      const found = findInfixCodes(base.codes, piece, 100_000);
      expect(found.length).toBeGreaterThan(0);
      // Every code found holds the piece; every whole number holding it is found (words of a number are not codes).
      for (const t of found) expect(base.codes.terms.get(t)).toContain(piece);
      expect(found.length).toBeLessThanOrEqual(scan(piece).length);
    }
    expect(findInfixCodes(base.codes, '0000', 3)).toHaveLength(3);
    await index.close();
  });
});
