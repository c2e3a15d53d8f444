import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '@forgeline/test-support/net';
import { compileSynonyms, SearchEngine, type SearchDoc } from '../src/search-engine.ts';
import { batches } from './harness.ts';

describe('synonyms (#36)', () => {
  const dirs: Array<{ remove: () => void }> = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) d.remove();
  });
  const doc = (id: string, name: string, brandName = 'Generic', category = 'Ground Engaging Tools'): SearchDoc => ({
    id,
    name,
    partNumber: `PN-${id}`,
    sku: `SKU-${id}`,
    brandName,
    category,
    extra: '',
  });
  const docs = [
    doc('tooth', 'Bucket tooth for 320D'),
    doc('tip', 'Bucket tip heavy duty'),
    doc('hose', 'Hydraulic hose 1/2 inch', 'Parker', 'Hoses'),
    doc('line', 'Hydraulic line assembly', 'Parker', 'Hoses'),
    doc('sealring', 'Seal ring 40 mm', 'Generic', 'Seals'),
    doc('oring', 'O-ring kit 40 mm', 'Generic', 'Seals'),
    doc('other', 'Track roller', 'Generic', 'Undercarriage'),
  ];
  const open = async () => {
    const t = tempDir('forgeline-synonyms-');
    dirs.push(t);
    const index = await SearchEngine.open(t.dir);
    await index.rebuild(batches(docs, 3));
    return index;
  };
  const ids = async (index: SearchEngine, q: string, synonyms = table) => (await index.search(q, { limit: 10, offset: 0, synonyms })).hits.map((h) => h.id).sort();
  const table = compileSynonyms([
    { words: ['tip', 'tooth'], mode: 'both' },
    { words: ['hose', 'line'], mode: 'one-way' },
    { words: ['o-ring', 'oring', 'seal ring'], mode: 'both' },
  ]);

  it('finds the other words of a set, both ways', async () => {
    const index = await open();
    expect(await ids(index, 'bucket tip')).toEqual(['tip', 'tooth']);
    expect(await ids(index, 'tooth')).toEqual(['tip', 'tooth']);
    // Without the table, as before.
    expect(await ids(index, 'tooth', new Map())).toEqual(['tooth']);
    await index.close();
  });

  it('one way: the first finds the rest, not the reverse', async () => {
    const index = await open();
    expect(await ids(index, 'hose')).toEqual(['hose', 'line']);
    expect(await ids(index, 'line')).toEqual(['line']);
    await index.close();
  });

  it('phrases of several words, with separators as typed', async () => {
    const index = await open();
    expect(await ids(index, 'o-ring 40')).toEqual(['oring', 'sealring']);
    expect(await ids(index, 'seal ring')).toEqual(['oring', 'sealring']);
    await index.close();
  });

  it('highlights the synonym where it was found, and keeps the filters', async () => {
    const index = await open();
    const { hits } = await index.search('tip', { limit: 10, offset: 0, synonyms: table });
    expect(hits.find((h) => h.id === 'tooth')?.matches).toContainEqual({ field: 'name', ranges: [[7, 12]] });
    expect(await ids(index, 'hose', table)).toContain('line');
    const parker = (await index.search('tip', { limit: 10, offset: 0, synonyms: table, brand: (b) => b === 'Parker' })).hits;
    expect(parker).toEqual([]);
    await index.close();
  });

  it('compiles sets without loops or duplicates', () => {
    const t = compileSynonyms([
      { words: ['a1', 'b1', 'a1'], mode: 'both' },
      { words: ['a1', 'c1'], mode: 'both' },
      { words: ['!!!', 'x'], mode: 'both' }, // a word of nothing is left out: one member is no set
    ]);
    expect(t.get('a1')?.[0]?.alternatives).toEqual([['b1'], ['c1']]);
    expect(t.has('x')).toBe(false);
  });
});
