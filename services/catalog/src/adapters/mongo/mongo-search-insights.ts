import mongoose from 'mongoose';
import type { QueryStatus } from '@forgeline/contracts/search-insights';
import type { QueryDayCounts, QueryPeriodStats, SearchInsightsStore, StoredAlias, StoredSynonym } from '../../ports.ts';

type DayDoc = QueryDayCounts & { _id: string };
interface GroupDoc {
  _id: string;
  searches: number;
  zeroResults: number;
  opens: number;
  quoteAdds: number;
  firstAt: string;
  lastAt: string;
}

/**
 * Search analytics and the staff's search rules on MongoDB (MONGO_URL): the same counts per day and query as the
 * SQLite store, in collections of their own (`search_*`), read by the period's indexes and summed here.
 */
export class MongoSearchInsights implements SearchInsightsStore {
  private constructor(private readonly conn: mongoose.Connection) {}

  static async connect(url: string): Promise<MongoSearchInsights> {
    const conn = mongoose.createConnection(url, { serverSelectionTimeoutMS: 10_000, autoIndex: false });
    await conn.asPromise();
    const store = new MongoSearchInsights(conn);
    await Promise.all([
      store.days.createIndex({ day: 1, query: 1 }),
      store.days.createIndex({ query: 1, day: 1 }),
      store.visitors.createIndex({ query: 1, day: 1 }),
      store.visitors.createIndex({ day: 1 }),
      store.visitors.createIndex({ visitor: 1 }),
      store.quoteRequests.createIndex({ visitor: 1, day: 1 }),
      store.quoteRequests.createIndex({ day: 1 }),
      store.aliases.createIndex({ key: 1 }, { unique: true }),
    ]);
    return store;
  }

  private get days() {
    return this.conn.collection<DayDoc>('search_query_days');
  }
  private get visitors() {
    return this.conn.collection<{ _id: string; day: string; query: string; visitor: string }>('search_visitors');
  }
  private get quoteRequests() {
    return this.conn.collection<{ _id: string; day: string; visitor: string }>('search_quote_requests');
  }
  private get statusColl() {
    return this.conn.collection<{ _id: string; status: QueryStatus; note?: string; updatedAt: string }>('search_query_status');
  }
  private get aliases() {
    return this.conn.collection<{ _id: string; key: string; text: string; productIds: string[]; createdAt: string }>('search_aliases');
  }
  private get synonyms() {
    return this.conn.collection<{ _id: string; words: string[]; mode: StoredSynonym['mode']; createdAt: string }>('search_synonyms');
  }
  private get meta() {
    return this.conn.collection<{ _id: string; version: number }>('search_rules_meta');
  }

  private async bump(): Promise<void> {
    await this.meta.updateOne({ _id: 'version' }, { $inc: { version: 1 } }, { upsert: true });
  }

  async record(batch: Parameters<SearchInsightsStore['record']>[0]): Promise<void> {
    if (batch.queries.length) {
      await this.days.bulkWrite(
        batch.queries.map((q) => ({
          updateOne: {
            filter: { _id: `${q.day}|${q.query}` },
            update: {
              $setOnInsert: { day: q.day, query: q.query, ...(q.searches > 0 ? {} : { example: '' }), ...(q.hits >= 0 ? {} : { hits: -1 }) },
              $inc: { searches: q.searches, zeroResults: q.zeroResults, opens: q.opens, quoteAdds: q.quoteAdds },
              $min: { firstAt: q.firstAt },
              $max: { lastAt: q.lastAt },
              ...(q.searches > 0 || q.hits >= 0 ? { $set: { ...(q.searches > 0 ? { example: q.example } : {}), ...(q.hits >= 0 ? { hits: q.hits } : {}) } } : {}),
            },
            upsert: true,
          },
        })),
        { ordered: false },
      );
    }
    if (batch.visitors.length) {
      await this.visitors.bulkWrite(
        batch.visitors.map((v) => ({ updateOne: { filter: { _id: `${v.query}|${v.day}|${v.visitor}` }, update: { $setOnInsert: v }, upsert: true } })),
        { ordered: false },
      );
    }
    if (batch.quoteRequests.length) {
      await this.quoteRequests.bulkWrite(
        batch.quoteRequests.map((r) => ({ updateOne: { filter: { _id: `${r.visitor}|${r.day}` }, update: { $setOnInsert: r }, upsert: true } })),
        { ordered: false },
      );
    }
  }

  async forgetVisitor(visitor: string): Promise<number> {
    const [a, b] = await Promise.all([this.visitors.deleteMany({ visitor }), this.quoteRequests.deleteMany({ visitor })]);
    return a.deletedCount + b.deletedCount;
  }

  async prune(beforeDay: string): Promise<number> {
    const results = await Promise.all([
      this.days.deleteMany({ day: { $lt: beforeDay } }),
      this.visitors.deleteMany({ day: { $lt: beforeDay } }),
      this.quoteRequests.deleteMany({ day: { $lt: beforeDay } }),
    ]);
    return results.reduce((n, r) => n + r.deletedCount, 0);
  }

  /**
   * The period's rows, summed here: FerretDB's pipelines lack $min/$max in $group (and miscounted a second $sum), and
   * a staff report over a month is a few hundred thousand small rows at most.
   */
  private async periodRows(fromDay: string, toDay: string, extra: Record<string, unknown> = {}): Promise<DayDoc[]> {
    return this.days.find({ day: { $gte: fromDay, $lte: toDay }, ...extra }).toArray();
  }

  private async distinctVisitors(match: Record<string, unknown>, by: 'day' | 'query'): Promise<Map<string, number>> {
    const seen = new Map<string, Set<string>>();
    for (const v of await this.visitors.find(match).toArray()) {
      const k = v[by];
      let set = seen.get(k);
      if (!set) seen.set(k, (set = new Set()));
      set.add(v.visitor);
    }
    return new Map([...seen].map(([k, set]) => [k, set.size]));
  }

  async perDay(fromDay: string, toDay: string) {
    const per = new Map<string, { searches: number; zeroResults: number }>();
    for (const d of await this.periodRows(fromDay, toDay)) {
      const e = per.get(d.day) ?? { searches: 0, zeroResults: 0 };
      e.searches += d.searches;
      e.zeroResults += d.zeroResults;
      per.set(d.day, e);
    }
    const visitors = await this.distinctVisitors({ day: { $gte: fromDay, $lte: toDay } }, 'day');
    return [...per]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([day, e]) => ({ day, ...e, visitors: visitors.get(day) ?? 0 }));
  }

  async totals(fromDay: string, toDay: string) {
    let searches = 0;
    let zeroResults = 0;
    const queries = new Set<string>();
    for (const d of await this.periodRows(fromDay, toDay, { searches: { $gt: 0 } })) {
      searches += d.searches;
      zeroResults += d.zeroResults;
      queries.add(d.query);
    }
    const visitors = (await this.visitors.distinct('visitor', { day: { $gte: fromDay, $lte: toDay } })).length;
    return { searches, zeroResults, visitors, queries: queries.size };
  }

  async queries(q: Parameters<SearchInsightsStore['queries']>[0]): Promise<QueryPeriodStats[]> {
    const exclude = new Set(q.exclude ?? []);
    const groups = new Map<string, GroupDoc & { example: string; hits: number; exampleAt: string }>();
    for (const d of await this.periodRows(q.fromDay, q.toDay)) {
      if (exclude.has(d.query)) continue;
      let g = groups.get(d.query);
      if (!g) groups.set(d.query, (g = { _id: d.query, searches: 0, zeroResults: 0, opens: 0, quoteAdds: 0, firstAt: d.firstAt, lastAt: d.lastAt, example: '', hits: 0, exampleAt: '' }));
      g.searches += d.searches;
      g.zeroResults += d.zeroResults;
      g.opens += d.opens;
      g.quoteAdds += d.quoteAdds;
      if (d.firstAt < g.firstAt) g.firstAt = d.firstAt;
      if (d.lastAt > g.lastAt) g.lastAt = d.lastAt;
      if (d.searches > 0 && d.lastAt > g.exampleAt) {
        g.exampleAt = d.lastAt;
        g.example = d.example;
        g.hits = Math.max(0, d.hits);
      }
    }
    const keep = (g: GroupDoc) =>
      q.kind === 'top' ? g.searches > 0 : q.kind === 'zero' ? g.zeroResults > 0 : g.searches > g.zeroResults && g.opens === 0 && g.quoteAdds === 0;
    const picked = [...groups.values()]
      .filter(keep)
      .sort((a, b) => (q.kind === 'zero' ? b.zeroResults - a.zeroResults : b.searches - a.searches) || (a._id < b._id ? -1 : 1))
      .slice(0, q.limit);
    if (picked.length === 0) return [];
    const visitors = await this.distinctVisitors({ day: { $gte: q.fromDay, $lte: q.toDay }, query: { $in: picked.map((g) => g._id) } }, 'query');
    return picked.map((g) => ({
      query: g._id,
      example: g.example,
      searches: g.searches,
      zeroResults: g.zeroResults,
      hits: g.hits,
      visitors: visitors.get(g._id) ?? 0,
      opens: g.opens,
      quoteAdds: g.quoteAdds,
      firstSeen: g.firstAt,
      lastSeen: g.lastAt,
    }));
  }

  async demand(q: Parameters<SearchInsightsStore['demand']>[0]) {
    const out = new Map<string, { visitors: number; quoteRequesters: number }>();
    if (q.queries.length === 0) return out;
    const rows = await this.visitors.find({ query: { $in: q.queries }, day: { $gte: q.fromDay, $lte: q.toDay } }).toArray();
    const requests = await this.quoteRequests.find({ visitor: { $in: [...new Set(rows.map((r) => r.visitor))] } }).toArray();
    const lastRequest = new Map<string, string>();
    for (const r of requests) if ((lastRequest.get(r.visitor) ?? '') < r.day) lastRequest.set(r.visitor, r.day);
    const per = new Map<string, { visitors: Set<string>; requesters: Set<string> }>();
    for (const r of rows) {
      let e = per.get(r.query);
      if (!e) per.set(r.query, (e = { visitors: new Set(), requesters: new Set() }));
      e.visitors.add(r.visitor);
      if ((lastRequest.get(r.visitor) ?? '') >= r.day) e.requesters.add(r.visitor);
    }
    for (const [query, e] of per) out.set(query, { visitors: e.visitors.size, quoteRequesters: e.requesters.size });
    return out;
  }

  async statuses() {
    const rows = await this.statusColl.find({}).toArray();
    return new Map(rows.map((r) => [r._id, { status: r.status, ...(r.note ? { note: r.note } : {}) }]));
  }

  async setStatus(query: string, status: QueryStatus, note?: string): Promise<void> {
    if (status === 'open') await this.statusColl.deleteOne({ _id: query });
    else await this.statusColl.replaceOne({ _id: query }, { status, ...(note ? { note } : {}), updatedAt: new Date().toISOString() }, { upsert: true });
    await this.bump();
  }

  async listAliases(): Promise<StoredAlias[]> {
    return (await this.aliases.find({}).sort({ key: 1 }).toArray()).map((a) => ({ id: a._id, key: a.key, text: a.text, productIds: a.productIds, createdAt: a.createdAt }));
  }

  async putAlias(a: StoredAlias): Promise<void> {
    await this.aliases.deleteMany({ key: a.key, _id: { $ne: a.id } });
    await this.aliases.replaceOne({ _id: a.id }, { key: a.key, text: a.text, productIds: a.productIds, createdAt: a.createdAt }, { upsert: true });
    await this.bump();
  }

  async removeAlias(id: string): Promise<StoredAlias | null> {
    const a = await this.aliases.findOneAndDelete({ _id: id });
    if (!a) return null;
    await this.bump();
    return { id: a._id, key: a.key, text: a.text, productIds: a.productIds, createdAt: a.createdAt };
  }

  async listSynonyms(): Promise<StoredSynonym[]> {
    return (await this.synonyms.find({}).sort({ createdAt: 1, _id: 1 }).toArray()).map((s) => ({ id: s._id, words: s.words, mode: s.mode, createdAt: s.createdAt }));
  }

  async addSynonym(s: StoredSynonym): Promise<void> {
    await this.synonyms.insertOne({ _id: s.id, words: s.words, mode: s.mode, createdAt: s.createdAt });
    await this.bump();
  }

  async removeSynonym(id: string): Promise<StoredSynonym | null> {
    const s = await this.synonyms.findOneAndDelete({ _id: id });
    if (!s) return null;
    await this.bump();
    return { id: s._id, words: s.words, mode: s.mode, createdAt: s.createdAt };
  }

  async rulesVersion(): Promise<string> {
    return String((await this.meta.findOne({ _id: 'version' }))?.version ?? 0);
  }

  async close(): Promise<void> {
    await this.conn.close();
  }
}
