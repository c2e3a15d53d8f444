import type Database from 'better-sqlite3';
import type { Product } from '@forgeline/contracts/products';
import { productRow } from './product-row.ts';

/*
 * The seed's first load, written the way a bulk load is cheap in SQLite (issue 33). Upserting batch by batch, every
 * part went into twelve secondary indexes (the listing indexes on products, product_codes' and product_fits' own)
 * at random places: once they outgrow the page cache each insert reads and dirties pages all over the file, and
 * the write rate fell from 6,600 to 2,000 parts/s within 200,000 parts. The triggers' json_each was not the cost:
 * with the indexes kept, writing the history rows from here instead took 79 s where the triggers took 86 s; with
 * the indexes dropped and built once after, from a sort (CREATE INDEX), 29 s plus 7 s. Measured 2026-11-27 with
 * `npm run seed -- --products 200000` into an empty DATA_DIR and a profiling copy of this load.
 *
 * Everything happens in one transaction: another connection (the running service) sees the empty catalogue until
 * the commit and then all of it, never a table without its indexes or a write that its triggers missed, and a load
 * that fails or is stopped leaves nothing behind. The price is the WAL: it grows to the size of the database, and
 * the checkpoint after the commit copies it into the file (22 s at 2,000,000 parts, 5.6 GB).
 */

/** The insert triggers that derive product_codes and product_fits rows: the load writes those rows itself. */
const DERIVING_TRIGGERS = ['products_codes_insert', 'products_fits_insert'];
const LOADED_TABLES = ['products', 'product_codes', 'product_fits'];

/**
 * Writes every part of `batches` into an empty catalogue and resolves true; resolves false without reading
 * `batches` when the catalogue has parts already (then the caller upserts). Each SKU and id may come once only
 * (a repeat fails the load, which then writes nothing). A deactivated part whose SKU is loaded is live again, as
 * after an upsert.
 */
export async function loadIntoEmpty(db: Database.Database, batches: AsyncIterable<Product[]>): Promise<boolean> {
  db.exec('BEGIN IMMEDIATE');
  try {
    if (db.prepare('SELECT 1 FROM products LIMIT 1').get() !== undefined) {
      db.exec('ROLLBACK');
      return false;
    }
    // Kept as SQLite stored them, and run again as they are, so the schema afterwards is the schema before.
    const deferred = db
      .prepare<unknown[], { type: 'index' | 'trigger'; name: string; sql: string }>(
        `SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND (
           (type = 'index' AND tbl_name IN (SELECT value FROM json_each(?))) OR (type = 'trigger' AND name IN (SELECT value FROM json_each(?))))
         ORDER BY type, name`,
      )
      .all(JSON.stringify(LOADED_TABLES), JSON.stringify(DERIVING_TRIGGERS));
    for (const d of deferred) db.exec(`DROP ${d.type === 'index' ? 'INDEX' : 'TRIGGER'} "${d.name}"`);

    // The rows the dropped triggers would have written, from the same JSON columns, in the same order.
    const code = db.prepare('INSERT INTO product_codes (code_key, kind, value, product_id) VALUES (?, ?, ?, ?)');
    const fit = db.prepare(
      `INSERT INTO product_fits (make_slug, model_slug, make, model, serial_from, serial_to, product_id, category_slug, brand_slug, name)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    let insert: Database.Statement | undefined;
    for await (const batch of batches) {
      for (const p of batch) {
        const row = productRow(p);
        if (!insert) {
          const columns = Object.keys(row);
          insert = db.prepare(`INSERT INTO products (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
        }
        insert.run(row);
        for (const [kind, key, value] of JSON.parse(row.code_keys) as string[][]) code.run(key, kind, value, row.id);
        for (const f of JSON.parse(row.fit_keys) as (string | null)[][]) fit.run(...f, row.id, row.category_slug, row.brand_slug, row.name);
      }
    }

    for (const d of deferred) db.exec(d.sql);
    db.exec('DELETE FROM retired_products WHERE sku IN (SELECT sku FROM products)');
    db.exec('COMMIT');
    return true;
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}
