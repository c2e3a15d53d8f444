/**
 * Product search on Meilisearch (chosen when MEILI_URL is set).
 *
 * Meilisearch splits "1R-0750" into "1r" + "0750" and has no infix search, so each document also
 * carries `codes`: its part number and SKU normalised ("1r0750", "cat1r0750"). A query is answered
 * in one multi-search round trip: (1) the normalised query as an exact `codes` filter, which ranks a
 * part-number match first whatever the separators; (2) the query as typed, typo tolerant on words
 * (1 typo from 5 characters, 2 from 9), typo free on the raw part number and SKU, prefix on the last
 * word. Settings are applied at start.
 *
 * Any part of a number ("4502" of XKKY-34502): Meilisearch has no infix search, so each document also carries
 * `codePieces`, the proper suffixes (4+ characters) of its normalised codes; the query's last word matches them by
 * prefix, so a piece from the middle is found too. Searched last and typo free, so whole numbers and their starts
 * rank first (the attribute rule).
 */
import { Meilisearch, type MatchesPosition, type Settings } from 'meilisearch';
import type { Product, SearchMatch } from '@forgeline/contracts/products';
import { slugify } from '@forgeline/contracts/slug';
import { highlightCode, highlightCodePiece, mergeRanges, type Range } from '@forgeline/search-engine/text/highlight';
import { MAX_QUERY_CHARS, normalizeCode, parseQuery, tokenize } from '@forgeline/search-engine/text/normalize';
import { codeSuffixes } from '@forgeline/search-engine/text/part-numbers';
import type { SearchHit, SearchIndex, SearchOptions, SearchSynonyms } from '../../ports.ts';

export interface MeiliDoc {
  id: string;
  name: string;
  partNumber: string;
  sku: string;
  brandName: string;
  category: string;
  extra: string[];
  codes: string[];
  /** proper suffixes of `codes`, 4+ characters: any part of a number by prefix */
  codePieces: string[];
  brandSlug: string;
  categorySlug: string;
  /** `make` and `make|model` slugs of the machines the part fits (the machine filter). */
  fitKeys: string[];
}

export function toMeiliDoc(p: Product): MeiliDoc {
  const brandName = p.brandName || p.brand || '';
  return {
    id: p.id,
    name: p.name ?? '',
    partNumber: p.partNumber ?? '',
    sku: p.sku ?? '',
    brandName,
    category: p.category ?? '',
    extra: [p.make, ...(p.tags ?? [])].filter(Boolean),
    codes: [...new Set([normalizeCode(p.partNumber ?? ''), normalizeCode(p.sku ?? '')].filter(Boolean))],
    codePieces: [...new Set([normalizeCode(p.partNumber ?? ''), normalizeCode(p.sku ?? '')].flatMap((c) => codeSuffixes(c)))],
    brandSlug: slugify(brandName),
    categorySlug: slugify(p.category ?? ''),
    fitKeys: [...new Set((p.fits ?? []).flatMap((f) => [slugify(f.make), `${slugify(f.make)}|${slugify(f.model)}`]))],
  };
}

/** Largest total a query reports exactly (Meilisearch counts up to maxTotalHits). */
const MAX_TOTAL_HITS = 1_000_000;

export const MEILI_SETTINGS: Settings = {
  searchableAttributes: ['codes', 'partNumber', 'sku', 'name', 'brandName', 'category', 'extra', 'codePieces'],
  filterableAttributes: ['brandSlug', 'categorySlug', 'codes', 'fitKeys'],
  displayedAttributes: ['id', 'name', 'partNumber', 'sku', 'brandName', 'category', 'codes'],
  typoTolerance: {
    enabled: true,
    minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 },
    // Raw numbers are matched exactly; `codes` keeps typos so "1R0705" still finds 1R-0750.
    disableOnAttributes: ['partNumber', 'sku', 'codePieces'],
  },
  // Part numbers are written with these between their groups: split on them (Meilisearch's
  // defaults do for most; listed so the behaviour does not depend on the version).
  separatorTokens: ['-', '_', '/', '.', '#'],
  pagination: { maxTotalHits: MAX_TOTAL_HITS },
};

const BATCH = 5000;
const TASK_TIMEOUT_MS = 120_000;

/**
 * Staff's synonym sets as Meilisearch's `synonyms` setting: each word (or phrase) to the words it also finds; a
 * two-way set lists every member under every other, a one-way set only its first.
 */
export function meiliSynonyms(s: SearchSynonyms | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const set of s?.sets ?? []) {
    const words = [...new Set(set.words.map((w) => tokenize(w).join(' ')).filter(Boolean))];
    const from = set.mode === 'one-way' ? words.slice(0, 1) : words;
    for (const w of from) out[w] = [...new Set([...(out[w] ?? []), ...words.filter((o) => o !== w)])];
  }
  return out;
}

export class MeiliSearchIndex implements SearchIndex {
  /** The version of the synonym sets last applied to the index's settings (none applied yet by this process: 'unknown'). */
  private synonymsVersion = 'unknown';
  private applyingSynonyms: Promise<void> | null = null;

  private constructor(
    private readonly client: Meilisearch,
    private readonly indexName: string,
  ) {}

  /** Connects, creates the index if needed and applies the settings (waits until they are live). */
  static async connect(opts: { url: string; apiKey?: string; indexName: string }): Promise<MeiliSearchIndex> {
    const client = new Meilisearch({ host: opts.url, apiKey: opts.apiKey });
    const existing = await client.getIndexes({ limit: 1000 });
    if (!existing.results.some((i) => i.uid === opts.indexName)) {
      await client.createIndex(opts.indexName, { primaryKey: 'id' }).waitTask({ timeout: TASK_TIMEOUT_MS });
    }
    await client.index(opts.indexName).updateSettings(MEILI_SETTINGS).waitTask({ timeout: TASK_TIMEOUT_MS });
    return new MeiliSearchIndex(client, opts.indexName);
  }

  private get index() {
    return this.client.index<MeiliDoc>(this.indexName);
  }

  /** Hits among a set of ids the filter cannot express: a wider window, narrowed here (totals are of that window). */
  private async searchWithin(query: string, opts: SearchOptions, ids: Set<string>): Promise<{ hits: SearchHit[]; total: number }> {
    const { onlyIds: _drop, ...rest } = opts;
    const wide = await this.search(query, { ...rest, offset: 0, limit: Math.min(1000, (opts.offset + opts.limit) * 4) });
    const kept = wide.hits.filter((h) => ids.has(h.id));
    return { hits: kept.slice(opts.offset, opts.offset + opts.limit), total: kept.length };
  }

  /** The staff's synonym sets into the index's settings, once per version (searches wait for the first apply only). */
  private async applySynonyms(s: SearchSynonyms | undefined): Promise<void> {
    const version = s?.version ?? 'none';
    if (version === this.synonymsVersion) return;
    this.applyingSynonyms ??= this.index
      .updateSynonyms(meiliSynonyms(s))
      .waitTask({ timeout: TASK_TIMEOUT_MS })
      .then(() => {
        this.synonymsVersion = version;
      })
      .finally(() => {
        this.applyingSynonyms = null;
      });
    await this.applyingSynonyms;
  }

  async search(query: string, opts: SearchOptions): Promise<{ hits: SearchHit[]; total: number }> {
    await this.applySynonyms(opts.synonyms);
    const text = query.slice(0, MAX_QUERY_CHARS).trim();
    const { tokens, code } = parseQuery(text);
    if (tokens.length === 0) return { hits: [], total: 0 };
    const filters: string[] = [];
    if (opts.brandSlug) filters.push(`brandSlug = ${quote(opts.brandSlug)}`);
    if (opts.categorySlug) filters.push(`categorySlug = ${quote(opts.categorySlug)}`);
    if (opts.fleet) {
      // Any of the fleet's machines: an OR of the per-machine filters. Serials as for one machine, below.
      filters.push(`(${[...new Set(opts.fleet.map((m) => `fitKeys = ${quote(`${m.makeSlug}|${m.modelSlug}`)}`))].join(' OR ')})`);
      if (opts.fleet.some((m) => m.serial) && opts.onlyIds) {
        return this.searchWithin(query, { ...opts, fleet: opts.fleet.map(({ serial: _s, ...m }) => m) }, opts.onlyIds);
      }
    } else if (opts.machine) {
      const key = opts.machine.modelSlug ? `${opts.machine.makeSlug}|${opts.machine.modelSlug}` : opts.machine.makeSlug;
      filters.push(`fitKeys = ${quote(key)}`);
      // A serial narrows further by each fit's range, which Meilisearch cannot compare: the store's id set decides.
      if (opts.machine.serial && opts.onlyIds) return this.searchWithin(query, { ...opts, machine: { ...opts.machine, serial: undefined } }, opts.onlyIds);
    } else if (opts.onlyIds) {
      return this.searchWithin(query, opts, opts.onlyIds);
    }
    // Page mode gives exact totals (up to maxTotalHits). Offsets that are not a multiple of the limit
    // (no caller sends them, but the port allows it) fetch from the start and slice.
    const aligned = opts.offset % opts.limit === 0;
    const hitsPerPage = aligned ? opts.limit : opts.offset + opts.limit;
    const page = aligned ? opts.offset / opts.limit + 1 : 1;
    const skip = aligned ? 0 : opts.offset;
    const [exact, full] = await this.client
      .multiSearch({
        queries: [
          {
            indexUid: this.indexName,
            q: '',
            filter: [...filters, `codes = ${quote(code)}`],
            limit: 20,
            attributesToRetrieve: ['id', 'partNumber', 'sku', 'codes'],
          },
          {
            indexUid: this.indexName,
            // Meilisearch parses quotes and a leading minus as operators: give it words only.
            q: tokens.join(' '),
            filter: filters.length ? filters : undefined,
            hitsPerPage,
            page,
            matchingStrategy: 'last',
            showMatchesPosition: true,
            attributesToRetrieve: ['id', 'name', 'partNumber', 'sku', 'brandName', 'category', 'codes'],
          },
        ],
      })
      .then((r) => r.results);
    const seen = new Set<string>();
    const merged: SearchHit[] = [];
    const firstPage = opts.offset === 0 || !aligned;
    for (const h of (exact?.hits ?? []) as MeiliHit[]) {
      seen.add(h.id);
      if (!firstPage) continue; // exact part-number matches lead the first page only
      const ranges: SearchMatch[] = [];
      if (normalizeCode(h.partNumber) === code) ranges.push({ field: 'partNumber', ranges: highlightCode(h.partNumber) });
      if (normalizeCode(h.sku) === code) ranges.push({ field: 'sku', ranges: highlightCode(h.sku) });
      merged.push({ id: h.id, matches: ranges.filter((m) => m.ranges.length) });
    }
    for (const h of (full?.hits ?? []) as MeiliHit[]) {
      if (seen.has(h.id)) continue;
      merged.push({ id: h.id, matches: matchesFromMeili(h, tokens.at(-1)) });
    }
    const fullTotal = (full as { totalHits?: number } | undefined)?.totalHits ?? 0;
    const exactTotal = exact?.hits.length ?? 0;
    // Exact part-number matches are nearly always full-text matches too; when the full-text
    // result is small enough to see whole, count the ones it missed.
    const exactOnly = (exact?.hits ?? []).filter((h) => !(full?.hits ?? []).some((f) => f.id === h.id)).length;
    const total = Math.max(fullTotal, exactTotal, fullTotal + (fullTotal <= hitsPerPage ? exactOnly : 0));
    return { hits: merged.slice(skip, skip + opts.limit), total };
  }

  async upsert(products: Product[]): Promise<void> {
    if (products.length === 0) return;
    await this.index.addDocuments(products.map(toMeiliDoc), { primaryKey: 'id' }).waitTask({ timeout: TASK_TIMEOUT_MS });
  }

  async remove(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.index.deleteDocuments(ids).waitTask({ timeout: TASK_TIMEOUT_MS });
  }

  async rebuild(source: AsyncIterable<Product[]>): Promise<void> {
    await this.index.deleteAllDocuments().waitTask({ timeout: TASK_TIMEOUT_MS });
    let pending: Product[] = [];
    for await (const batch of source) {
      pending.push(...batch);
      while (pending.length >= BATCH) {
        await this.upsert(pending.slice(0, BATCH));
        pending = pending.slice(BATCH);
      }
    }
    await this.upsert(pending);
  }

  async size(): Promise<number> {
    return (await this.index.getStats()).numberOfDocuments;
  }

  async ready(): Promise<boolean> {
    return this.client.isHealthy();
  }

  async close(): Promise<void> {}
}

type MeiliHit = MeiliDoc & { _matchesPosition?: MatchesPosition<MeiliDoc> };

/** Filter values are quoted strings; quotes and backslashes inside are escaped. */
function quote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

const HIGHLIGHTED = ['name', 'partNumber', 'sku', 'brandName', 'category'] as const;

/**
 * Meilisearch's match positions (UTF-8 byte offsets) as [start, end) ranges in UTF-16 units; `piece`, the query's last
 * word, is highlighted inside a part number or SKU that a code piece matched.
 */
export function matchesFromMeili(hit: MeiliHit, piece?: string): SearchMatch[] {
  const pos = hit._matchesPosition ?? {};
  const out: SearchMatch[] = [];
  for (const field of HIGHLIGHTED) {
    const text = hit[field];
    const list = pos[field];
    const ranges: Range[] = [];
    if (text && list) for (const m of list) ranges.push(byteRangeToChars(text, m.start, m.start + m.length));
    // A match on the normalised codes highlights the whole part number or SKU.
    if ((field === 'partNumber' || field === 'sku') && pos.codes && text) {
      const code = normalizeCode(text);
      if (pos.codes.some((m) => m.indices?.some((i) => hit.codes[i] === code) ?? hit.codes.includes(code))) {
        ranges.push(...highlightCode(text));
      }
    }
    if ((field === 'partNumber' || field === 'sku') && pos.codePieces && text && piece) {
      const at = normalizeCode(text).indexOf(piece);
      if (at > 0) ranges.push(...highlightCodePiece(text, at, at + piece.length));
    }
    if (ranges.length) out.push({ field, ranges: mergeRanges(ranges) });
  }
  return out;
}

function byteRangeToChars(text: string, startByte: number, endByte: number): Range {
  if (/^[\x00-\x7f]*$/.test(text)) return [Math.min(startByte, text.length), Math.min(endByte, text.length)];
  let bytes = 0;
  let start = text.length;
  let end = text.length;
  for (let i = 0; i <= text.length; i++) {
    if (bytes >= startByte && start === text.length) start = i;
    if (bytes >= endByte) {
      end = i;
      break;
    }
    if (i === text.length) break;
    const cp = text.codePointAt(i)!;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (cp >= 0x10000) i++;
  }
  return [start, end];
}
