import Database from 'better-sqlite3';
import type { QueryStatus } from '@forgeline/contracts/search-insights';
import type { QueryPeriodStats, SearchEventBatch, SearchInsightsStore, StoredAlias, StoredSynonym } from '../../ports.ts';

interface StatsRow {
  query: string;
  example: string;
  searches: number;
  zero_results: number;
  hits: number;
  visitors: number;
  opens: number;
  quote_adds: number;
  first_at: string;
  last_at: string;
}

const toStats = (r: StatsRow): QueryPeriodStats => ({
  query: r.query,
  example: r.example,
  searches: r.searches,
  zeroResults: r.zero_results,
  hits: Math.max(0, r.hits),
  visitors: r.visitors,
  opens: r.opens,
  quoteAdds: r.quote_adds,
  firstSeen: r.first_at,
  lastSeen: r.last_at,
});

/**
 * Search analytics and the staff's search rules on SQLite: a file of their own beside catalog.sqlite
 * (`search-insights.sqlite`), so the buffered counts never queue behind a catalogue import's writes. Counts are kept
 * per day and query (one row however often it is searched that day), distinct visitors per day and query.
 */
export function createSqliteSearchInsights(file: string): SearchInsightsStore {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.exec(`
    CREATE TABLE IF NOT EXISTS search_query_days (
      day TEXT NOT NULL, query TEXT NOT NULL, example TEXT NOT NULL, searches INTEGER NOT NULL, zero_results INTEGER NOT NULL,
      hits INTEGER NOT NULL, opens INTEGER NOT NULL, quote_adds INTEGER NOT NULL, first_at TEXT NOT NULL, last_at TEXT NOT NULL,
      PRIMARY KEY (day, query)) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS search_query_days_query ON search_query_days(query, day);
    CREATE TABLE IF NOT EXISTS search_visitors (day TEXT NOT NULL, query TEXT NOT NULL, visitor TEXT NOT NULL, PRIMARY KEY (query, day, visitor)) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS search_visitors_day ON search_visitors(day, visitor);
    CREATE INDEX IF NOT EXISTS search_visitors_visitor ON search_visitors(visitor);
    CREATE TABLE IF NOT EXISTS search_quote_requests (visitor TEXT NOT NULL, day TEXT NOT NULL, PRIMARY KEY (visitor, day)) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS search_quote_requests_day ON search_quote_requests(day);
    CREATE TABLE IF NOT EXISTS search_query_status (query TEXT PRIMARY KEY, status TEXT NOT NULL, note TEXT, updated_at TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS search_aliases (id TEXT PRIMARY KEY, key TEXT NOT NULL UNIQUE, text TEXT NOT NULL, product_ids TEXT NOT NULL, created_at TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS search_synonyms (id TEXT PRIMARY KEY, words TEXT NOT NULL, mode TEXT NOT NULL, created_at TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS search_rules_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
    INSERT OR IGNORE INTO search_rules_version (id, version) VALUES (1, 0);
  `);

  const s = {
    addQuery: db.prepare(`INSERT INTO search_query_days (day, query, example, searches, zero_results, hits, opens, quote_adds, first_at, last_at)
      VALUES (@day, @query, @example, @searches, @zeroResults, @hits, @opens, @quoteAdds, @firstAt, @lastAt)
      ON CONFLICT (day, query) DO UPDATE SET
        example = CASE WHEN excluded.searches > 0 THEN excluded.example ELSE example END,
        searches = searches + excluded.searches, zero_results = zero_results + excluded.zero_results,
        hits = CASE WHEN excluded.hits >= 0 THEN excluded.hits ELSE hits END,
        opens = opens + excluded.opens, quote_adds = quote_adds + excluded.quote_adds,
        first_at = min(first_at, excluded.first_at), last_at = max(last_at, excluded.last_at)`),
    addVisitor: db.prepare('INSERT OR IGNORE INTO search_visitors (day, query, visitor) VALUES (@day, @query, @visitor)'),
    addQuoteRequest: db.prepare('INSERT OR IGNORE INTO search_quote_requests (visitor, day) VALUES (@visitor, @day)'),
    bump: db.prepare('UPDATE search_rules_version SET version = version + 1 WHERE id = 1'),
  };
  const record = db.transaction((b: SearchEventBatch) => {
    for (const q of b.queries) s.addQuery.run(q);
    for (const v of b.visitors) s.addVisitor.run(v);
    for (const r of b.quoteRequests) s.addQuoteRequest.run(r);
  });

  /** One row per query over the period; `having` picks the kind of list. */
  const periodQueries = (having: string, order: string, exclude: string[]) =>
    db.prepare<{ from: string; to: string; limit: number; exclude: string }, StatsRow>(`
      SELECT d.query,
        (SELECT example FROM search_query_days e WHERE e.query = d.query AND e.day BETWEEN @from AND @to AND e.searches > 0 ORDER BY e.last_at DESC LIMIT 1) AS example,
        SUM(d.searches) AS searches, SUM(d.zero_results) AS zero_results,
        (SELECT hits FROM search_query_days h WHERE h.query = d.query AND h.day BETWEEN @from AND @to AND h.hits >= 0 ORDER BY h.last_at DESC LIMIT 1) AS hits,
        (SELECT COUNT(DISTINCT visitor) FROM search_visitors v WHERE v.query = d.query AND v.day BETWEEN @from AND @to) AS visitors,
        SUM(d.opens) AS opens, SUM(d.quote_adds) AS quote_adds, MIN(d.first_at) AS first_at, MAX(d.last_at) AS last_at
      FROM search_query_days d
      WHERE d.day BETWEEN @from AND @to${exclude.length ? ' AND d.query NOT IN (SELECT value FROM json_each(@exclude))' : ''}
      GROUP BY d.query HAVING ${having}
      ORDER BY ${order}, d.query LIMIT @limit`);

  return {
    async record(batch) {
      record(batch);
    },
    async forgetVisitor(visitor) {
      return db.transaction(() => {
        const a = db.prepare('DELETE FROM search_visitors WHERE visitor = ?').run(visitor).changes;
        const b = db.prepare('DELETE FROM search_quote_requests WHERE visitor = ?').run(visitor).changes;
        return a + b;
      })();
    },
    async prune(beforeDay) {
      return db.transaction(() => {
        let n = 0;
        for (const table of ['search_query_days', 'search_visitors', 'search_quote_requests']) n += db.prepare(`DELETE FROM ${table} WHERE day < ?`).run(beforeDay).changes;
        return n;
      })();
    },
    async perDay(from, to) {
      return db
        .prepare<[string, string], { day: string; searches: number; zero_results: number; visitors: number }>(`
          SELECT d.day, SUM(d.searches) AS searches, SUM(d.zero_results) AS zero_results,
            (SELECT COUNT(DISTINCT visitor) FROM search_visitors v WHERE v.day = d.day) AS visitors
          FROM search_query_days d WHERE d.day BETWEEN ? AND ? GROUP BY d.day ORDER BY d.day`)
        .all(from, to)
        .map((r) => ({ day: r.day, searches: r.searches, zeroResults: r.zero_results, visitors: r.visitors }));
    },
    async totals(from, to) {
      const t = db.prepare<[string, string], { searches: number | null; zero: number | null; queries: number }>(
        'SELECT SUM(searches) AS searches, SUM(zero_results) AS zero, COUNT(DISTINCT query) AS queries FROM search_query_days WHERE day BETWEEN ? AND ? AND searches > 0',
      ).get(from, to)!;
      const v = db.prepare<[string, string], { n: number }>('SELECT COUNT(DISTINCT visitor) AS n FROM search_visitors WHERE day BETWEEN ? AND ?').get(from, to)!;
      return { searches: t.searches ?? 0, zeroResults: t.zero ?? 0, visitors: v.n, queries: t.queries };
    },
    async queries(q) {
      const exclude = q.exclude ?? [];
      const [having, order] =
        q.kind === 'top'
          ? ['SUM(d.searches) > 0', 'SUM(d.searches) DESC']
          : q.kind === 'zero'
            ? ['SUM(d.zero_results) > 0', 'SUM(d.zero_results) DESC']
            : ['SUM(d.searches) > SUM(d.zero_results) AND SUM(d.opens) = 0 AND SUM(d.quote_adds) = 0', 'SUM(d.searches) DESC'];
      return periodQueries(having, order, exclude)
        .all({ from: q.fromDay, to: q.toDay, limit: q.limit, exclude: JSON.stringify(exclude) })
        .map(toStats);
    },
    async demand(q) {
      const out = new Map<string, { visitors: number; quoteRequesters: number }>();
      if (q.queries.length === 0) return out;
      const rows = db
        .prepare<{ from: string; to: string; queries: string }, { query: string; visitors: number; requesters: number }>(`
          SELECT v.query, COUNT(DISTINCT v.visitor) AS visitors,
            COUNT(DISTINCT CASE WHEN EXISTS (SELECT 1 FROM search_quote_requests r WHERE r.visitor = v.visitor AND r.day >= v.day) THEN v.visitor END) AS requesters
          FROM search_visitors v
          WHERE v.query IN (SELECT value FROM json_each(@queries)) AND v.day BETWEEN @from AND @to
          GROUP BY v.query`)
        .all({ from: q.fromDay, to: q.toDay, queries: JSON.stringify(q.queries) });
      for (const r of rows) out.set(r.query, { visitors: r.visitors, quoteRequesters: r.requesters });
      return out;
    },
    async statuses() {
      const rows = db.prepare<[], { query: string; status: QueryStatus; note: string | null }>('SELECT query, status, note FROM search_query_status').all();
      return new Map(rows.map((r) => [r.query, { status: r.status, ...(r.note ? { note: r.note } : {}) }]));
    },
    async setStatus(query, status, note) {
      db.transaction(() => {
        if (status === 'open') db.prepare('DELETE FROM search_query_status WHERE query = ?').run(query);
        else {
          db.prepare(`INSERT INTO search_query_status (query, status, note, updated_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (query) DO UPDATE SET status = excluded.status, note = excluded.note, updated_at = excluded.updated_at`).run(query, status, note ?? null, new Date().toISOString());
        }
        s.bump.run();
      })();
    },
    async listAliases() {
      return db
        .prepare<[], { id: string; key: string; text: string; product_ids: string; created_at: string }>('SELECT * FROM search_aliases ORDER BY key')
        .all()
        .map((r) => ({ id: r.id, key: r.key, text: r.text, productIds: JSON.parse(r.product_ids) as string[], createdAt: r.created_at }));
    },
    async putAlias(a: StoredAlias) {
      db.transaction(() => {
        db.prepare(`INSERT INTO search_aliases (id, key, text, product_ids, created_at) VALUES (?, ?, ?, ?, ?)
          ON CONFLICT (key) DO UPDATE SET text = excluded.text, product_ids = excluded.product_ids`).run(a.id, a.key, a.text, JSON.stringify(a.productIds), a.createdAt);
        s.bump.run();
      })();
    },
    async removeAlias(id) {
      return db.transaction(() => {
        const row = db.prepare<[string], { id: string; key: string; text: string; product_ids: string; created_at: string }>('SELECT * FROM search_aliases WHERE id = ?').get(id);
        if (!row) return null;
        db.prepare('DELETE FROM search_aliases WHERE id = ?').run(id);
        s.bump.run();
        return { id: row.id, key: row.key, text: row.text, productIds: JSON.parse(row.product_ids) as string[], createdAt: row.created_at };
      })();
    },
    async listSynonyms() {
      return db
        .prepare<[], { id: string; words: string; mode: StoredSynonym['mode']; created_at: string }>('SELECT * FROM search_synonyms ORDER BY created_at, id')
        .all()
        .map((r) => ({ id: r.id, words: JSON.parse(r.words) as string[], mode: r.mode, createdAt: r.created_at }));
    },
    async addSynonym(syn) {
      db.transaction(() => {
        db.prepare('INSERT INTO search_synonyms (id, words, mode, created_at) VALUES (?, ?, ?, ?)').run(syn.id, JSON.stringify(syn.words), syn.mode, syn.createdAt);
        s.bump.run();
      })();
    },
    async removeSynonym(id) {
      return db.transaction(() => {
        const row = db.prepare<[string], { id: string; words: string; mode: StoredSynonym['mode']; created_at: string }>('SELECT * FROM search_synonyms WHERE id = ?').get(id);
        if (!row) return null;
        db.prepare('DELETE FROM search_synonyms WHERE id = ?').run(id);
        s.bump.run();
        return { id: row.id, words: JSON.parse(row.words) as string[], mode: row.mode, createdAt: row.created_at };
      })();
    },
    async rulesVersion() {
      return String(db.prepare<[], { version: number }>('SELECT version FROM search_rules_version WHERE id = 1').get()!.version);
    },
    async close() {
      db.close();
    },
  };
}
