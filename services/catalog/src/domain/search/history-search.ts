import type { AltCodeMatch, ProductSummary } from '@forgeline/contracts/products';
import { slugify } from '@forgeline/contracts/slug';
import type { AltCodeHit, Page, ProductRepository } from '../../ports.ts';
import { codeKey } from '../products.ts';
import { hasDigit } from '@forgeline/search-engine/text/normalize';
import { oneEditVariants } from '@forgeline/search-engine/text/part-numbers';
import { INFIX_MIN_LENGTH } from '@forgeline/search-engine/segments/code-infix';

/**
 * The search's knowledge of a part's history, the same on both search engines: a query that is an older part number
 * or another maker's number finds the current part first. The engines index a part's own numbers and words; the
 * older numbers and cross-references live in the store, looked up by normalised key (separators and case do not
 * matter), by prefix as the buyer types, and one typo away as part numbers are. A superseded number follows its
 * chain (A replaced by B, B by C) to the part sold today.
 */

const MAX_CHAIN = 6;
const MAX_ALT_HITS = 40;
/** How many engine hits are read ahead of the page to place the history hits among them. */
const MAX_MERGE_WINDOW = 600;

type Tier = 0 | 1 | 2 | 3; // exact, prefix, one typo away, a piece inside (4+ characters)

export interface HistoryHit {
  productId: string;
  match: AltCodeMatch;
  tier: Tier;
  /** The older number's key this hit matched. */
  key: string;
}

/** The keys a query may be an older or other number under: the whole query, and each word or pair of words with a digit. */
export function candidateKeys(query: string): string[] {
  const words = query.trim().split(/\s+/).filter(Boolean);
  const out = new Set<string>();
  const add = (s: string) => {
    const k = codeKey(s);
    if (k.length >= 3 && hasDigit(k)) out.add(k);
  };
  add(query);
  words.forEach((w, i) => {
    add(w);
    if (i + 1 < words.length) add(`${w}${words[i + 1]}`);
  });
  // "Fleetguard LF9080", "cat 1R-0716": the number after a maker's name.
  if (words.length > 1) add(words.slice(1).join(''));
  return [...out];
}

/** Parts a query finds through their history, best first, each once. */
export async function findHistoryHits(repo: ProductRepository, query: string): Promise<HistoryHit[]> {
  const keys = candidateKeys(query);
  if (keys.length === 0) return [];
  const whole = keys[0]!;
  const typos = whole.length >= 5 ? oneEditVariants(whole.toLowerCase()).map((v) => v.toUpperCase()) : [];
  const piece = whole.length >= INFIX_MIN_LENGTH ? whole : undefined;
  // Pieces inside older numbers are asked apart, so that however many there are they never crowd out a whole number.
  const [own, inside] = await Promise.all([
    repo.findAltCodes({ keys: [...keys, ...typos], prefix: piece, limit: MAX_ALT_HITS * 4 }),
    piece ? repo.findAltCodes({ keys: [], infix: piece, limit: MAX_ALT_HITS }) : [],
  ]);
  const found = [...own, ...inside];
  if (found.length === 0) return [];
  const exact = new Set(keys);
  const variants = new Set(typos);
  const tierOf = (h: AltCodeHit): Tier => (exact.has(h.key) ? 0 : h.key.startsWith(whole) ? 1 : variants.has(h.key) ? 2 : 3);

  const best = new Map<string, HistoryHit>();
  const consider = (productId: string, match: AltCodeMatch, tier: Tier, key: string) => {
    const cur = best.get(productId);
    if (!cur || tier < cur.tier) best.set(productId, { productId, match, tier, key });
  };
  for (const h of found) consider(h.productId, { kind: h.kind, value: h.value }, tierOf(h), h.key);

  // Follow each superseded number to the part sold today: it takes the match, and goes before the older parts.
  const resolved: HistoryHit[] = [];
  for (const hit of [...best.values()].filter((h) => h.match.kind === 'superseded')) {
    let current = hit.productId;
    const seen = new Set([current]);
    for (let depth = 0; depth < MAX_CHAIN; depth++) {
      const [summary] = await repo.getSummaries([current]);
      const key = summary ? codeKey(summary.partNumber) : '';
      if (!key) break;
      const next = (await repo.findAltCodes({ keys: [key], kind: 'superseded', limit: 2 })).find((h) => !seen.has(h.productId));
      if (!next) break;
      current = next.productId;
      seen.add(current);
    }
    if (current !== hit.productId) resolved.push({ productId: current, match: hit.match, tier: hit.tier, key: hit.key });
  }
  for (const r of resolved) {
    const cur = best.get(r.productId);
    if (!cur || r.tier <= cur.tier) best.set(r.productId, { ...r, tier: r.tier });
  }
  const chainRank = new Map(resolved.map((r, i) => [r.productId, i]));
  return [...best.values()]
    .sort((a, b) => a.tier - b.tier || Number(chainRank.has(b.productId)) - Number(chainRank.has(a.productId)) || (a.match.kind === 'superseded' ? -1 : 1) - (b.match.kind === 'superseded' ? -1 : 1))
    .slice(0, MAX_ALT_HITS);
}

export interface Narrowing {
  categorySlug?: string;
  brandSlug?: string;
  onlyIds?: Set<string>;
}

export const fitsNarrowing = (s: ProductSummary, n: Narrowing) =>
  (!n.categorySlug || slugify(s.category) === n.categorySlug) &&
  (!n.brandSlug || slugify(s.brandName || s.brand) === n.brandSlug) &&
  (!n.onlyIds || n.onlyIds.has(s.id));

/**
 * One page of results: the engine's page, with the history hits placed among them. Exact older numbers (resolved to
 * today's part) come first; then the engine's hits on a part's own number; then exact cross-references; then the
 * rest of the engine's hits and the prefixes and typos of history numbers, in turns. Without history hits the
 * engine's page is the answer as it was.
 */
export async function mergeHistoryHits(
  repo: ProductRepository,
  query: string,
  narrowing: Narrowing,
  page: { limit: number; offset: number },
  engine: (window: { limit: number; offset: number }) => Promise<Page<ProductSummary>>,
): Promise<Page<ProductSummary>> {
  const history = await findHistoryHits(repo, query);
  if (history.length === 0) return engine(page);
  const summaries = await repo.getSummaries(history.map((h) => h.productId));
  const byId = new Map(summaries.map((s) => [s.id, s]));
  const keys = new Set(candidateKeys(query));
  const ownExact = (s: ProductSummary) => keys.has(codeKey(s.partNumber)) || keys.has(codeKey(s.sku));
  // A part whose own number is the query is found by it, not by its history.
  const historyItems = history.flatMap((h) => {
    const s = byId.get(h.productId);
    return s && fitsNarrowing(s, narrowing) && !ownExact(s) ? [{ item: { ...s, match: h.match }, hit: h }] : [];
  });
  if (historyItems.length === 0) return engine(page);

  const window = Math.min(MAX_MERGE_WINDOW, page.offset + page.limit + historyItems.length);
  const fromEngine = await engine({ limit: window, offset: 0 });
  const taken = new Set(historyItems.map((h) => h.item.id));
  const engineItems = fromEngine.items.filter((s) => !taken.has(s.id));
  const firstSuperseded = historyItems.filter((h) => h.hit.tier === 0 && h.hit.match.kind === 'superseded');
  const exactCross = historyItems.filter((h) => h.hit.tier === 0 && h.hit.match.kind === 'cross_reference');
  const looser = historyItems.filter((h) => h.hit.tier > 0);
  // A prefix or a typo of an older number is as close as the engine's own prefixes and typos: take turns, the
  // engine first, so neither crowds the other out of the first results.
  // One history hit per number takes a turn; more parts under the same number follow the engine's hits.
  const rest = engineItems.filter((s) => !ownExact(s));
  const seenKeys = new Set<string>();
  const firstPerKey = looser.filter((h) => !seenKeys.has(h.hit.key) && seenKeys.add(h.hit.key));
  const sameKey = looser.filter((h) => !firstPerKey.includes(h));
  const turns: ProductSummary[] = [];
  for (let i = 0; i < Math.max(rest.length, firstPerKey.length); i++) {
    if (i < rest.length) turns.push(rest[i]!);
    if (i < firstPerKey.length) turns.push(firstPerKey[i]!.item);
  }
  turns.push(...sameKey.map((h) => h.item));
  const ordered = [...firstSuperseded.map((h) => h.item), ...engineItems.filter(ownExact), ...exactCross.map((h) => h.item), ...turns];
  // Today's part goes right before a part it superseded (found by its own number, or by an older one).
  const supersededKeys = new Map<string, string>();
  for (const h of historyItems) if (h.hit.match.kind === 'superseded' && !supersededKeys.has(h.hit.key)) supersededKeys.set(h.hit.key, h.item.id);
  const replacedBy = new Map<string, string>();
  for (const s of ordered) {
    const current = supersededKeys.get(codeKey(s.partNumber));
    if (current && current !== s.id) replacedBy.set(s.id, current);
  }
  // ...and the parts it superseded follow it, wherever it shows.
  const supersedes = new Map<string, string[]>();
  for (const [old, current] of replacedBy) supersedes.set(current, [...(supersedes.get(current) ?? []), old]);
  const merged: ProductSummary[] = [];
  const placed = new Set<string>();
  const byItemId = new Map(ordered.map((s) => [s.id, s]));
  const place = (s: ProductSummary | undefined) => {
    if (!s || placed.has(s.id)) return;
    merged.push(s);
    placed.add(s.id);
    for (const old of supersedes.get(s.id) ?? []) place(byItemId.get(old));
  };
  for (const s of ordered) {
    const current = replacedBy.get(s.id);
    if (current) place(byItemId.get(current));
    place(s);
  }
  const overlap = fromEngine.items.length - engineItems.length;
  return { items: merged.slice(page.offset, page.offset + page.limit), total: fromEngine.total + historyItems.length - overlap };
}
