/**
 * Search that learns from its buyers (#36): the events buyers' pages send (answered by the gateway, handed over here in
 * batches), the staff's reports over them, and the queue staff work (aliases, synonyms, not stocked, dismissed), with CSV in and out.
 */
import { randomUUID } from 'node:crypto';
import express, { type Express, type Response } from 'express';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import {
  AliasInputSchema,
  DemandQuerySchema,
  InternalSearchEventsSchema,
  QueryStatusInputSchema,
  SEARCH_RULE_LIMITS,
  SearchInsightsQuerySchema,
  SearchRuleIdParamsSchema,
  SearchVisitorParamsSchema,
  SynonymInputSchema,
  type Alias,
  type DemandRow,
  type QueryStats,
  type QueryStatus,
  type RulesImportResult,
  type SearchInsights,
  type Synonym,
} from '@forgeline/contracts/search-insights';
import { HttpError, notFound, parseInput } from '@forgeline/service-kit/errors';
import { route } from '@forgeline/service-kit/http';
import type { Logger } from '@forgeline/service-kit/logger';
import { tokenize } from '@forgeline/search-engine/text/normalize';
import { periodOf, searchQueryKey, type SearchEventBuffer } from '../domain/search-insights.ts';
import type { SearchRules } from '../domain/search/search-rules.ts';
import type { ProductRepository, QueryPeriodStats, SearchInsightsStore, StoredAlias, StoredSynonym } from '../ports.ts';

export interface SearchInsightsDeps {
  store: SearchInsightsStore;
  buffer: SearchEventBuffer;
  rules: SearchRules;
  repo: ProductRepository;
  logger: Logger;
  retentionDays: number;
  /** A rule changed here: every replica reads the rules again (this one already has). */
  announceRules: () => void;
}

const csvHeaders = (res: Response, name: string) =>
  res.set({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}"`, 'Cache-Control': 'no-store' });

/** A CSV body (text/csv) of at most SEARCH_RULE_LIMITS.csvBytes. */
const csvBody = express.text({ type: ['text/csv', 'text/plain', 'application/csv'], limit: SEARCH_RULE_LIMITS.csvBytes });

/** The words of a synonym set, each normalised as queries are; a set must hold two different ones. */
function synonymWords(words: string[]): string[] {
  const out: string[] = [];
  for (const [i, w] of words.entries()) {
    const key = tokenize(w).join(' ');
    if (!key) throw new HttpError(400, `Word ${i + 1} of the set has no letters or digits`, [{ path: `words.${i}`, message: 'has no letters or digits' }]);
    if (out.includes(key)) throw new HttpError(400, `"${w}" is in the set twice`, [{ path: `words.${i}`, message: 'repeats another word of the set' }]);
    out.push(key);
  }
  return out;
}

export function registerSearchInsightsRoutes(app: Express, deps: SearchInsightsDeps): void {
  const { store, buffer, rules, repo, logger } = deps;

  /** After a rule changed: this replica's rules now, the others' through the channel. */
  async function rulesChanged(): Promise<void> {
    await rules.refresh();
    deps.announceRules();
  }

  async function withStatus(rows: QueryPeriodStats[]): Promise<QueryStats[]> {
    const statuses = await store.statuses();
    const aliased = new Set((await store.listAliases()).map((a) => a.key));
    return rows.map((r) => {
      const s = statuses.get(r.query);
      return { ...r, status: s?.status ?? (aliased.has(r.query) ? 'alias' : 'open'), ...(s?.note ? { note: s.note } : {}) };
    });
  }

  // ---------------------------------------------------------------- buyers' pages

  // The gateway answers buyers' pages itself and hands over what it gathered every few seconds (gateway/src/search-events.ts).
  app.post(
    '/internal/search/events',
    route(async (req, res) => {
      const { batches } = parseInput(InternalSearchEventsSchema, req.body, 'body');
      let accepted = 0;
      for (const b of batches) accepted += buffer.add(b.visitor, b.events);
      const given = batches.reduce((n, b) => n + b.events.length, 0);
      res.status(202).json({ accepted, dropped: given - accepted });
    }),
  );

  app.delete(
    '/api/search/visitors/:visitor',
    route(async (req, res) => {
      const { visitor } = parseInput(SearchVisitorParamsSchema, req.params, 'params');
      await buffer.flush();
      const forgotten = await store.forgetVisitor(visitor);
      res.json({ forgotten });
    }),
  );

  // ---------------------------------------------------------------- staff: reports

  app.get(
    '/api/admin/search/insights',
    route(async (req, res) => {
      const q = parseInput(SearchInsightsQuerySchema, req.query, 'query');
      const { fromDay, toDay } = periodOf(q.days);
      const statuses = await store.statuses();
      // The queue: zero-result queries staff have not settled yet.
      const settled = [...statuses].filter(([, s]) => s.status !== 'open').map(([query]) => query);
      const aliased = (await store.listAliases()).map((a) => a.key);
      const [perDay, totals, top, zero, unopened] = await Promise.all([
        store.perDay(fromDay, toDay),
        store.totals(fromDay, toDay),
        store.queries({ fromDay, toDay, limit: q.limit, kind: 'top' }),
        store.queries({ fromDay, toDay, limit: q.limit, kind: 'zero', exclude: [...settled, ...aliased] }),
        store.queries({ fromDay, toDay, limit: q.limit, kind: 'unopened' }),
      ]);
      const body: SearchInsights = {
        days: q.days,
        from: fromDay,
        to: toDay,
        retentionDays: deps.retentionDays,
        perDay,
        totals,
        top: await withStatus(top),
        zeroResults: await withStatus(zero),
        unopened: await withStatus(unopened),
        dropped: buffer.dropped,
      };
      res.set('Cache-Control', 'no-store').json(body);
    }),
  );

  /** Not-stocked and zero-result queries by how many visitors asked, and how many of them sent a quote request anyway. */
  async function demand(days: number, limit: number): Promise<DemandRow[]> {
    const { fromDay, toDay } = periodOf(days);
    const statuses = await store.statuses();
    const zero = await store.queries({ fromDay, toDay, limit, kind: 'zero' });
    const notStocked = [...statuses].filter(([, s]) => s.status === 'not_stocked').map(([query]) => query);
    const seen = new Set(zero.map((z) => z.query));
    const extra = notStocked.filter((qk) => !seen.has(qk));
    const extraStats = extra.length ? (await store.queries({ fromDay, toDay, limit: 100_000, kind: 'top' })).filter((r) => extra.includes(r.query)) : [];
    const rows = [...zero, ...extraStats].filter((r) => statuses.get(r.query)?.status !== 'dismissed');
    const counts = await store.demand({ fromDay, toDay, queries: rows.map((r) => r.query) });
    return rows
      .map((r) => {
        const s = statuses.get(r.query);
        const c = counts.get(r.query) ?? { visitors: r.visitors, quoteRequesters: 0 };
        return {
          query: r.query,
          example: r.example,
          status: (s?.status ?? 'open') as QueryStatus,
          ...(s?.note ? { note: s.note } : {}),
          visitors: c.visitors,
          quoteRequesters: c.quoteRequesters,
          searches: r.searches,
          firstSeen: r.firstSeen,
          lastSeen: r.lastSeen,
        };
      })
      .sort((a, b) => b.visitors - a.visitors || b.quoteRequesters - a.quoteRequesters || b.searches - a.searches || a.query.localeCompare(b.query))
      .slice(0, limit);
  }

  app.get(
    '/api/admin/search/demand',
    route(async (req, res) => {
      const q = parseInput(DemandQuerySchema, req.query, 'query');
      res.set('Cache-Control', 'no-store').json({ days: q.days, rows: await demand(q.days, q.limit) });
    }),
  );
  app.get(
    '/api/admin/search/demand.csv',
    route(async (req, res) => {
      const q = parseInput(DemandQuerySchema, req.query, 'query');
      const rows = await demand(q.days, q.limit);
      csvHeaders(res, `search-demand-${q.days}d.csv`).send(
        stringify([
          ['query', 'example', 'status', 'note', 'visitors', 'visitors_who_sent_a_quote_request', 'searches', 'first_seen', 'last_seen'],
          ...rows.map((r) => [r.query, r.example, r.status, r.note ?? '', r.visitors, r.quoteRequesters, r.searches, r.firstSeen, r.lastSeen]),
        ]),
      );
    }),
  );

  // ---------------------------------------------------------------- staff: the queue

  app.put(
    '/api/admin/search/queries/status',
    route(async (req, res) => {
      const input = parseInput(QueryStatusInputSchema, req.body, 'body');
      const query = searchQueryKey(input.query);
      if (!query) throw new HttpError(400, 'The query has no letters or digits', [{ path: 'query', message: 'has no letters or digits' }]);
      await store.setStatus(query, input.status, input.status === 'not_stocked' ? input.note || undefined : undefined);
      await rulesChanged();
      req.log.info({ query, status: input.status }, 'search query status set');
      res.json({ query, status: input.status, ...(input.status === 'not_stocked' && input.note ? { note: input.note } : {}) });
    }),
  );

  // ---------------------------------------------------------------- staff: aliases

  async function aliasOut(a: StoredAlias): Promise<Alias> {
    const parts = await repo.getSummaries(a.productIds);
    return { ...a, parts: parts.map((p) => ({ id: p.id, name: p.name, partNumber: p.partNumber ?? '', sku: p.sku })) };
  }

  /** Adds (or replaces) the alias of a text; every part must be on the storefront. */
  async function putAlias(text: string, productIds: string[], fieldOf: (i: number) => string): Promise<StoredAlias> {
    const key = searchQueryKey(text);
    if (!key) throw new HttpError(400, 'The alias has no letters or digits', [{ path: 'text', message: 'has no letters or digits' }]);
    const ids = [...new Set(productIds)];
    const found = new Set((await repo.getSummaries(ids)).map((p) => p.id));
    const missing = ids.findIndex((id) => !found.has(id));
    if (missing >= 0) throw new HttpError(400, `Part ${ids[missing]} is not on the storefront`, [{ path: fieldOf(missing), message: 'is not a part on the storefront' }]);
    const existing = (await store.listAliases()).find((a) => a.key === key);
    if (!existing && (await store.listAliases()).length >= SEARCH_RULE_LIMITS.aliases) {
      throw new HttpError(409, `There are ${SEARCH_RULE_LIMITS.aliases} aliases already; remove some first`);
    }
    const alias: StoredAlias = { id: existing?.id ?? randomUUID(), text: text.trim(), key, productIds: ids, createdAt: existing?.createdAt ?? new Date().toISOString() };
    await store.putAlias(alias);
    return alias;
  }

  app.get(
    '/api/admin/search/aliases',
    route(async (_req, res) => {
      res.json({ aliases: await Promise.all((await store.listAliases()).map(aliasOut)) });
    }),
  );
  app.post(
    '/api/admin/search/aliases',
    route(async (req, res) => {
      const input = parseInput(AliasInputSchema, req.body, 'body');
      const alias = await putAlias(input.text, input.productIds, (i) => `productIds.${i}`);
      if (input.query) {
        const query = searchQueryKey(input.query);
        if (query && query !== alias.key) await store.setStatus(query, 'alias');
      }
      await rulesChanged();
      req.log.info({ alias: alias.key, parts: alias.productIds.length }, 'search alias saved');
      res.status(201).json(await aliasOut(alias));
    }),
  );
  app.delete(
    '/api/admin/search/aliases/:id',
    route(async (req, res) => {
      const { id } = parseInput(SearchRuleIdParamsSchema, req.params, 'params');
      const gone = await store.removeAlias(id);
      if (!gone) throw notFound('Alias');
      await rulesChanged();
      req.log.info({ alias: gone.key }, 'search alias removed');
      res.json({ removed: gone.id });
    }),
  );
  app.get(
    '/api/admin/search/aliases.csv',
    route(async (_req, res) => {
      const aliases = await store.listAliases();
      const rows: string[][] = [];
      for (const a of aliases) {
        const parts = await repo.getSummaries(a.productIds);
        rows.push([a.text, parts.map((p) => p.sku).join(' | ')]);
      }
      csvHeaders(res, 'search-aliases.csv').send(stringify([['text', 'skus'], ...rows]));
    }),
  );
  app.post(
    '/api/admin/search/aliases.csv',
    csvBody,
    route(async (req, res) => {
      const records = readCsv(req.body, ['text', 'skus']);
      const result: RulesImportResult = { added: 0, unchanged: 0, errors: [] };
      const before = new Map((await store.listAliases()).map((a) => [a.key, a.productIds.join(',')]));
      for (const { line, row } of records) {
        try {
          const text = row.text?.trim() ?? '';
          if (!text) throw new HttpError(400, 'text is empty');
          if (text.length > SEARCH_RULE_LIMITS.aliasText) throw new HttpError(400, `text is longer than ${SEARCH_RULE_LIMITS.aliasText} characters`);
          const skus = (row.skus ?? '').split('|').map((s) => s.trim()).filter(Boolean);
          if (skus.length === 0) throw new HttpError(400, 'skus is empty');
          if (skus.length > SEARCH_RULE_LIMITS.aliasParts) throw new HttpError(400, `more than ${SEARCH_RULE_LIMITS.aliasParts} parts`);
          const ids: string[] = [];
          for (const sku of skus) {
            const part = await repo.getBySku(sku);
            if (!part) throw new HttpError(400, `no part has the SKU ${sku}`);
            ids.push(part.id);
          }
          const key = searchQueryKey(text);
          if (before.get(key) === [...new Set(ids)].join(',')) {
            result.unchanged++;
            continue;
          }
          await putAlias(text, ids, () => 'skus');
          result.added++;
        } catch (err) {
          result.errors.push({ line, message: err instanceof Error ? err.message : String(err) });
        }
      }
      if (result.added) await rulesChanged();
      req.log.info({ ...result, errors: result.errors.length }, 'search aliases imported');
      res.json(result);
    }),
  );

  // ---------------------------------------------------------------- staff: synonyms

  async function addSynonym(words: string[], mode: StoredSynonym['mode']): Promise<{ synonym: StoredSynonym; added: boolean }> {
    const keys = synonymWords(words);
    const all = await store.listSynonyms();
    const same = all.find((s) => s.mode === mode && synonymWords(s.words).join('|') === keys.join('|'));
    if (same) return { synonym: same, added: false };
    if (all.length >= SEARCH_RULE_LIMITS.synonyms) throw new HttpError(409, `There are ${SEARCH_RULE_LIMITS.synonyms} synonym sets already; remove some first`);
    const synonym: StoredSynonym = { id: randomUUID(), words: words.map((w) => w.trim()), mode, createdAt: new Date().toISOString() };
    await store.addSynonym(synonym);
    return { synonym, added: true };
  }

  app.get(
    '/api/admin/search/synonyms',
    route(async (_req, res) => {
      const synonyms: Synonym[] = await store.listSynonyms();
      res.json({ synonyms });
    }),
  );
  app.post(
    '/api/admin/search/synonyms',
    route(async (req, res) => {
      const input = parseInput(SynonymInputSchema, req.body, 'body');
      const { synonym, added } = await addSynonym(input.words, input.mode);
      if (input.query) {
        const query = searchQueryKey(input.query);
        if (query) await store.setStatus(query, 'synonym');
      }
      await rulesChanged();
      req.log.info({ words: synonym.words, mode: synonym.mode, added }, 'search synonyms saved');
      res.status(added ? 201 : 200).json(synonym);
    }),
  );
  app.delete(
    '/api/admin/search/synonyms/:id',
    route(async (req, res) => {
      const { id } = parseInput(SearchRuleIdParamsSchema, req.params, 'params');
      const gone = await store.removeSynonym(id);
      if (!gone) throw notFound('Synonym set');
      await rulesChanged();
      req.log.info({ words: gone.words }, 'search synonyms removed');
      res.json({ removed: gone.id });
    }),
  );
  app.get(
    '/api/admin/search/synonyms.csv',
    route(async (_req, res) => {
      const rows = (await store.listSynonyms()).map((s) => [s.words.join(', '), s.mode]);
      csvHeaders(res, 'search-synonyms.csv').send(stringify([['words', 'mode'], ...rows]));
    }),
  );
  app.post(
    '/api/admin/search/synonyms.csv',
    csvBody,
    route(async (req, res) => {
      const records = readCsv(req.body, ['words', 'mode']);
      const result: RulesImportResult = { added: 0, unchanged: 0, errors: [] };
      for (const { line, row } of records) {
        try {
          const words = (row.words ?? '').split(',').map((w) => w.trim()).filter(Boolean);
          const mode = (row.mode?.trim() || 'both') as StoredSynonym['mode'];
          if (mode !== 'both' && mode !== 'one-way') throw new HttpError(400, 'mode must be both or one-way');
          if (words.length < 2) throw new HttpError(400, 'a set needs at least two words');
          if (words.length > SEARCH_RULE_LIMITS.synonymWords) throw new HttpError(400, `a set has at most ${SEARCH_RULE_LIMITS.synonymWords} words`);
          const long = words.find((w) => w.length > SEARCH_RULE_LIMITS.synonymWord);
          if (long) throw new HttpError(400, `"${long.slice(0, 30)}…" is longer than ${SEARCH_RULE_LIMITS.synonymWord} characters`);
          const { added } = await addSynonym(words, mode);
          if (added) result.added++;
          else result.unchanged++;
        } catch (err) {
          result.errors.push({ line, message: err instanceof Error ? err.message : String(err) });
        }
      }
      if (result.added) await rulesChanged();
      req.log.info({ ...result, errors: result.errors.length }, 'search synonyms imported');
      res.json(result);
    }),
  );
}

/** The rows of a CSV body with these columns (a header row naming them first), numbered by their line in the file. */
function readCsv(body: unknown, columns: string[]): { line: number; row: Record<string, string> }[] {
  if (typeof body !== 'string' || body.trim() === '') {
    throw new HttpError(400, `Send the CSV as the request body (Content-Type: text/csv) with the columns ${columns.join(', ')}`, [{ path: 'body', message: 'is empty or not CSV' }]);
  }
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(body.replace(/^\uFEFF/, ''), { relax_column_count: true, skip_empty_lines: true, info: true, delimiter: [',', ';'] }) as never;
  } catch (err) {
    throw new HttpError(400, `The CSV cannot be read: ${err instanceof Error ? err.message : String(err)}`, [{ path: 'body', message: 'is not valid CSV' }]);
  }
  const [header, ...rest] = records;
  const names = header?.record.map((c) => c.trim().toLowerCase()) ?? [];
  const missing = columns.filter((c) => !names.includes(c));
  if (missing.length) throw new HttpError(400, `The CSV's first row must name the columns ${columns.join(', ')} (missing: ${missing.join(', ')})`, [{ path: 'body', message: `misses the column ${missing[0]}` }]);
  if (rest.length > 20_000) throw new HttpError(400, 'The CSV has more than 20,000 rows', [{ path: 'body', message: 'has too many rows' }]);
  return rest.map(({ record, info }) => ({ line: info.lines, row: Object.fromEntries(names.map((n, i) => [n, record[i] ?? ''])) }));
}
