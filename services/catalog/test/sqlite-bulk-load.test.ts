import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { Product } from '@forgeline/contracts/products';
import { tempDir } from '@forgeline/test-support/net';
import { SqliteProductRepository } from '../src/adapters/sqlite/sqlite-product-repository.ts';
import { generateProducts } from '../src/seed/generate.ts';

const dirs: Array<() => void> = [];
afterAll(() => {
  for (const remove of dirs) remove();
});

function freshFile(): string {
  const tmp = tempDir('catalog-bulk-');
  dirs.push(tmp.remove);
  return path.join(tmp.dir, 'catalog.sqlite');
}

async function* inBatches(parts: Product[], size: number): AsyncIterable<Product[]> {
  for (let i = 0; i < parts.length; i += size) yield parts.slice(i, i + size);
}

/** Every table's rows (with their rowids, where the table has them) and the schema, as the file holds them. */
function contents(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    const schema = db
      .prepare<[], { type: string; name: string; tbl_name: string; sql: string | null }>(
        'SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name',
      )
      .all();
    const rows: Record<string, unknown[]> = {};
    for (const t of schema.filter((s) => s.type === 'table')) {
      const withoutRowid = /WITHOUT ROWID/i.test(t.sql ?? '');
      rows[t.name] = db.prepare(withoutRowid ? `SELECT * FROM "${t.name}" ORDER BY 1, 2` : `SELECT rowid AS rowid_, * FROM "${t.name}" ORDER BY rowid`).all();
    }
    const integrity = db.pragma('integrity_check', { simple: true });
    return { schema, rows, integrity };
  } finally {
    db.close();
  }
}

describe("SqliteProductRepository.loadIntoEmpty (the seed's bulk load)", () => {
  // Generated parts: superseded numbers, cross-references, fitments with and without serial ranges.
  const parts = [...generateProducts({ count: 3_000, seed: 11 })];

  it('leaves the rows, indexes and triggers that upserting the same parts leaves', async () => {
    const upserted = freshFile();
    const loaded = freshFile();
    const a = SqliteProductRepository.open(upserted);
    const b = SqliteProductRepository.open(loaded);
    try {
      // One part taken off the storefront first: written again, it is live again either way.
      for (const repo of [a, b]) {
        await repo.upsertMany([parts[7]!]);
        await repo.deactivate([parts[7]!.id], []);
      }
      for await (const batch of inBatches(parts, 500)) await a.upsertMany(batch);
      expect(await b.loadIntoEmpty(inBatches(parts, 500))).toBe(true);

      const want = contents(upserted);
      expect(want.rows.product_codes!.length).toBeGreaterThan(500);
      expect(want.rows.product_fits!.length).toBeGreaterThan(parts.length);
      expect(want.rows.retired_products).toEqual([]);
      expect(contents(loaded)).toEqual(want);
      expect(contents(loaded).integrity).toBe('ok');

      // The triggers are back: a later write keeps the history tables exact on the loaded file too.
      const changed = { ...parts[0]!, replaces: ['OLD-4711'], fits: [{ make: 'Komatsu', model: 'PC200-8', serialFrom: 'A100', serialTo: 'A900' }] };
      for (const repo of [a, b]) {
        await repo.upsertMany([changed]);
        await repo.deactivate([parts[1]!.id], []);
      }
      const after = contents(loaded);
      expect(after.rows.product_codes).toEqual(contents(upserted).rows.product_codes);
      expect(after.rows.product_fits).toEqual(contents(upserted).rows.product_fits);
      expect(await b.findAltCodes({ keys: ['OLD4711'], limit: 5 })).toEqual([{ productId: parts[0]!.id, kind: 'superseded', key: 'OLD4711', value: 'OLD-4711' }]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('reads and writes nothing when the catalogue has parts', async () => {
    const repo = SqliteProductRepository.open(freshFile());
    try {
      await repo.upsertMany(parts.slice(0, 2));
      let read = false;
      async function* batches(): AsyncIterable<Product[]> {
        read = true;
        yield parts.slice(2, 4);
      }
      expect(await repo.loadIntoEmpty(batches())).toBe(false);
      expect(read).toBe(false);
      expect(await repo.count()).toBe(2);
    } finally {
      await repo.close();
    }
  });

  it('writes nothing when the load fails part-way, and keeps every index and trigger', async () => {
    const file = freshFile();
    const repo = SqliteProductRepository.open(file);
    try {
      const empty = contents(file);
      // A SKU that comes twice: the load cannot upsert, so it fails as a whole.
      const repeated = { ...parts[3]!, id: 'ffffffff-0000-4000-8000-000000000000' };
      await expect(repo.loadIntoEmpty(inBatches([...parts.slice(0, 600), repeated], 500))).rejects.toThrow(/UNIQUE/);
      expect(contents(file)).toEqual(empty);
      expect(await repo.count()).toBe(0);

      await repo.upsertMany(parts.slice(0, 50));
      expect(contents(file).rows.product_codes!.length + contents(file).rows.product_fits!.length).toBeGreaterThan(50);
    } finally {
      await repo.close();
    }
  });
});
