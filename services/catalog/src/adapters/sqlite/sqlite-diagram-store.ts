import Database from 'better-sqlite3';
import type { Assembly, AssemblyHistoryEntry } from '@forgeline/contracts/parts-diagrams';
import type { DiagramModel, DiagramStore } from '../../ports.ts';

interface AssemblyRow {
  id: string;
  make: string;
  model: string;
  make_slug: string;
  model_slug: string;
  slug: string;
  name: string;
  diagram: string | null;
  callouts: string;
  version: number;
  updated_at: string;
  updated_by: string;
}

const toAssembly = (r: AssemblyRow): Assembly => ({
  id: r.id,
  make: r.make,
  model: r.model,
  makeSlug: r.make_slug,
  modelSlug: r.model_slug,
  slug: r.slug,
  name: r.name,
  diagram: r.diagram ? (JSON.parse(r.diagram) as Assembly['diagram']) : null,
  callouts: JSON.parse(r.callouts) as Assembly['callouts'],
  version: r.version,
  updatedAt: r.updated_at,
  updatedBy: r.updated_by,
});

const toRow = (a: Assembly): AssemblyRow => ({
  id: a.id,
  make: a.make,
  model: a.model,
  make_slug: a.makeSlug,
  model_slug: a.modelSlug,
  slug: a.slug,
  name: a.name,
  diagram: a.diagram ? JSON.stringify(a.diagram) : null,
  callouts: JSON.stringify(a.callouts),
  version: a.version,
  updated_at: a.updatedAt,
  updated_by: a.updatedBy,
});

/**
 * Parts diagrams on SQLite: a file of their own beside catalog.sqlite (`parts-diagrams.sqlite`), so staff's edits never
 * wait behind a catalogue import's writes. An assembly is one row (its callouts as JSON: always read and written
 * whole); `assembly_parts` is the where-used index, rewritten with the row.
 */
export function createSqliteDiagramStore(file: string): DiagramStore {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.exec(`
    CREATE TABLE IF NOT EXISTS assemblies (
      id TEXT PRIMARY KEY, make TEXT NOT NULL, model TEXT NOT NULL, make_slug TEXT NOT NULL, model_slug TEXT NOT NULL,
      slug TEXT NOT NULL, name TEXT NOT NULL, diagram TEXT, callouts TEXT NOT NULL, version INTEGER NOT NULL,
      updated_at TEXT NOT NULL, updated_by TEXT NOT NULL);
    CREATE UNIQUE INDEX IF NOT EXISTS assemblies_page ON assemblies(make_slug, model_slug, slug);
    CREATE INDEX IF NOT EXISTS assemblies_by_name ON assemblies(make_slug, model_slug, name);
    CREATE TABLE IF NOT EXISTS assembly_parts (product_id TEXT NOT NULL, assembly_id TEXT NOT NULL, PRIMARY KEY (product_id, assembly_id)) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS assembly_parts_assembly ON assembly_parts(assembly_id);
    CREATE TABLE IF NOT EXISTS assembly_history (
      assembly_id TEXT NOT NULL, version INTEGER NOT NULL, at TEXT NOT NULL, actor TEXT NOT NULL, action TEXT NOT NULL,
      summary TEXT NOT NULL, PRIMARY KEY (assembly_id, version)) WITHOUT ROWID;
  `);

  const ORDER = 'ORDER BY make_slug, model_slug, name, id';
  const s = {
    get: db.prepare<[string], AssemblyRow>('SELECT * FROM assemblies WHERE id = ?'),
    bySlug: db.prepare<[string, string, string], AssemblyRow>('SELECT * FROM assemblies WHERE make_slug = ? AND model_slug = ? AND slug = ?'),
    forModel: db.prepare<[string, string], AssemblyRow>('SELECT * FROM assemblies WHERE make_slug = ? AND model_slug = ? ORDER BY name, id'),
    version: db.prepare<[string], number>('SELECT version FROM assemblies WHERE id = ?').pluck(),
    upsert: db.prepare(`INSERT INTO assemblies (id, make, model, make_slug, model_slug, slug, name, diagram, callouts, version, updated_at, updated_by)
      VALUES (@id, @make, @model, @make_slug, @model_slug, @slug, @name, @diagram, @callouts, @version, @updated_at, @updated_by)
      ON CONFLICT (id) DO UPDATE SET make = excluded.make, model = excluded.model, make_slug = excluded.make_slug,
        model_slug = excluded.model_slug, slug = excluded.slug, name = excluded.name, diagram = excluded.diagram,
        callouts = excluded.callouts, version = excluded.version, updated_at = excluded.updated_at, updated_by = excluded.updated_by`),
    delete: db.prepare<[string]>('DELETE FROM assemblies WHERE id = ?'),
    dropParts: db.prepare<[string]>('DELETE FROM assembly_parts WHERE assembly_id = ?'),
    addPart: db.prepare<[string, string]>('INSERT OR IGNORE INTO assembly_parts (product_id, assembly_id) VALUES (?, ?)'),
    addHistory: db.prepare(`INSERT OR REPLACE INTO assembly_history (assembly_id, version, at, actor, action, summary)
      VALUES (@assemblyId, @version, @at, @actor, @action, @summary)`),
    history: db.prepare<[string, number], AssemblyHistoryEntry>(
      'SELECT version, at, actor, action, summary FROM assembly_history WHERE assembly_id = ? ORDER BY version DESC LIMIT ?',
    ),
    usedIn: db.prepare<[string, number], AssemblyRow>(
      `SELECT a.* FROM assembly_parts p JOIN assemblies a ON a.id = p.assembly_id WHERE p.product_id = ? ORDER BY a.make_slug, a.model_slug, a.name, a.id LIMIT ?`,
    ),
    usedInCount: db.prepare<[string], number>('SELECT COUNT(*) FROM assembly_parts WHERE product_id = ?').pluck(),
    usedAnywhere: db.prepare<[string], number>('SELECT 1 FROM assembly_parts WHERE product_id = ? LIMIT 1').pluck(),
    models: db.prepare<[], DiagramModel>(
      `SELECT MIN(make) AS make, MIN(model) AS model, make_slug AS makeSlug, model_slug AS modelSlug, COUNT(*) AS assemblies
       FROM assemblies GROUP BY make_slug, model_slug ORDER BY make_slug, model_slug`,
    ),
    count: db.prepare<[], number>('SELECT COUNT(*) FROM assemblies').pluck(),
    after: db.prepare<{ make: string; model: string; name: string; id: string; limit: number }, AssemblyRow>(
      `SELECT * FROM assemblies WHERE (make_slug, model_slug, name, id) > (@make, @model, @name, @id) ${ORDER} LIMIT @limit`,
    ),
  };

  const writeIndex = (a: Assembly) => {
    s.dropParts.run(a.id);
    for (const c of a.callouts) s.addPart.run(c.partId, a.id);
  };
  const save = db.transaction((changes: Parameters<DiagramStore['save']>[0]) => {
    const conflicts = changes.filter((c) => (s.version.get(c.assembly.id) ?? null) !== c.expected).map((c) => c.assembly.id);
    if (conflicts.length) return { conflicts };
    for (const { assembly, entry } of changes) {
      s.upsert.run(toRow(assembly));
      writeIndex(assembly);
      s.addHistory.run({ assemblyId: assembly.id, ...entry });
    }
    return { conflicts: [] };
  });
  const remove = db.transaction((id: string, entry: AssemblyHistoryEntry) => {
    const row = s.get.get(id);
    if (!row) return null;
    s.delete.run(id);
    s.dropParts.run(id);
    s.addHistory.run({ assemblyId: id, ...entry });
    return toAssembly(row);
  });

  return {
    async get(id) {
      const row = s.get.get(id);
      return row ? toAssembly(row) : null;
    },
    async getBySlug(makeSlug, modelSlug, slug) {
      const row = s.bySlug.get(makeSlug, modelSlug, slug);
      return row ? toAssembly(row) : null;
    },
    async listForModel(makeSlug, modelSlug) {
      return s.forModel.all(makeSlug, modelSlug).map(toAssembly);
    },
    async list({ makeSlug, modelSlug, search, limit }) {
      const where: string[] = [];
      const params: Record<string, string | number> = { limit };
      if (makeSlug) {
        where.push('make_slug = @makeSlug');
        params.makeSlug = makeSlug;
      }
      if (modelSlug) {
        where.push('model_slug = @modelSlug');
        params.modelSlug = modelSlug;
      }
      if (search) {
        // A word of the name, the make or the model, as typed ("final drive", "320d").
        where.push("(name || ' ' || make || ' ' || model) LIKE @search ESCAPE '\\'");
        params.search = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      }
      const sql = `SELECT * FROM assemblies ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ${ORDER} LIMIT @limit`;
      return db.prepare<Record<string, string | number>, AssemblyRow>(sql).all(params).map(toAssembly);
    },
    async save(changes) {
      return save(changes);
    },
    async remove(id, entry) {
      return remove(id, entry);
    },
    async history(id, limit) {
      return s.history.all(id, limit);
    },
    async whereUsed(productId, limit) {
      // Most parts are in no assembly: a look at the index answers those (a product page asks on every read).
      if (!s.usedAnywhere.get(productId)) return { items: [], total: 0 };
      const rows = s.usedIn.all(productId, limit);
      // Counted only when the page is full: most parts are in no assembly or a few.
      return { items: rows.map(toAssembly), total: rows.length < limit ? rows.length : (s.usedInCount.get(productId) ?? 0) };
    },
    async models() {
      return s.models.all();
    },
    async *scan(batchSize) {
      let from = { make: '', model: '', name: '', id: '' };
      for (;;) {
        const rows = s.after.all({ ...from, limit: batchSize });
        if (!rows.length) return;
        yield rows.map(toAssembly);
        const last = rows[rows.length - 1]!;
        from = { make: last.make_slug, model: last.model_slug, name: last.name, id: last.id };
        if (rows.length < batchSize) return;
      }
    },
    async count() {
      return s.count.get() ?? 0;
    },
    async close() {
      db.close();
    },
  };
}
