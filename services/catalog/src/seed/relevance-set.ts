/**
 * The search relevance set: labelled queries derived deterministically from a catalogue (normally
 * the seeded one, `generateProducts`), the way buyers type them: part numbers exact, with separators
 * changed or dropped, half typed, with one wrong character; SKUs; words with one and two typos
 * (also in brand names); brand + part-type phrases; words and numbers mixed.
 *
 * Each query names the product it was made from and the products that answer it correctly
 * (`accept`): for a part number that is the product itself; for a phrase such as
 * "komatsu hydralic filter element" it is every Komatsu "Hydraulic Filter Element".
 * Used by the relevance tests (recall@5 >= 0.97) and by the search benchmark.
 */
import type { Product } from '@forgeline/contracts/products';
import { boundedEditDistance } from '@forgeline/search-engine/text/part-numbers';
import { normalizeCode, tokenize } from '@forgeline/search-engine/text/normalize';

export type RelevanceKind =
  | 'exact-number'
  | 'separators'
  | 'sku'
  | 'prefix'
  | 'number-typo'
  | 'word-typo'
  | 'two-typos'
  | 'brand-typo'
  | 'brand-type'
  | 'words-and-number';

export interface RelevanceQuery {
  q: string;
  kind: RelevanceKind;
  /** the product the query was made from */
  productId: string;
  /** every product that is a correct answer (always includes productId) */
  accept: string[];
}

export interface RelevanceOptions {
  /** how many products queries are made from (about 9 queries each) */
  targets?: number;
  seed?: number;
}

/** mulberry32: a small deterministic PRNG. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
export const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** The words of a product name that name the part ("Hydraulic Filter Element"), without brand and number. */
export function partTypeOf(p: Product): string {
  const i = p.name.indexOf(p.partNumber);
  if (i < 0) return p.category;
  const before = p.name.slice(0, i).trim();
  const after = p.name.slice(i + p.partNumber.length).trim();
  // "Brand PN Variant" or "Variant PN for Machine".
  if (before && before.toLowerCase() === p.brandName.toLowerCase()) return after;
  return before || after;
}

/** One typo in `word` (not on its first letter), giving a string that is not a catalogue word. */
export function typo(word: string, r: () => number, taken: ReadonlySet<string>, alphabet = LETTERS, minLength = 5): string | null {
  for (let attempt = 0; attempt < 20; attempt++) {
    const ops = ['swap', 'delete', 'substitute', 'insert'] as const;
    const op = ops[Math.floor(r() * ops.length)]!;
    const i = 1 + Math.floor(r() * (word.length - 1));
    let out: string;
    if (op === 'swap') {
      if (i + 1 >= word.length || word[i] === word[i + 1]) continue;
      out = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    } else if (op === 'delete') out = word.slice(0, i) + word.slice(i + 1);
    else {
      const c = alphabet[Math.floor(r() * alphabet.length)]!;
      if (op === 'substitute') {
        if (c === word[i]) continue;
        out = word.slice(0, i) + c + word.slice(i + 1);
      } else out = word.slice(0, i) + c + word.slice(i);
    }
    // The buyer's word itself must be long enough for the typo to be forgiven (5, or 9 for two).
    if (out !== word && !taken.has(out) && out.length >= minLength) return out;
  }
  return null;
}

function twoTypos(word: string, r: () => number, taken: ReadonlySet<string>): string | null {
  for (let attempt = 0; attempt < 20; attempt++) {
    const once = typo(word, r, new Set(), LETTERS, 9);
    const twice = once && typo(once, r, taken, LETTERS, 9);
    if (twice && boundedEditDistance(twice, word, 2) === 2) return twice;
  }
  return null;
}

/** Part number as typed with separators changed: dropped, or turned into spaces, or added. */
export function separatorVariants(pn: string): string[] {
  const out = new Set<string>();
  if (/[^A-Za-z0-9]/.test(pn)) {
    out.add(pn.replace(/[^A-Za-z0-9]+/g, ''));
    out.add(pn.replace(/[^A-Za-z0-9]+/g, ' ').toLowerCase());
  } else {
    const m = /^([A-Za-z]+)(\d.*)$/.exec(pn);
    const cut = m ? m[1]!.length : Math.floor(pn.length / 2);
    out.add(`${pn.slice(0, cut)} ${pn.slice(cut)}`.toLowerCase());
    out.add(`${pn.slice(0, cut)}-${pn.slice(cut)}`);
  }
  out.delete(pn);
  return [...out];
}

/** The first `chars` letters and digits of `text`, with whatever separators sit between them. */
function typedPrefix(text: string, chars: number): string {
  let seen = 0;
  for (let i = 0; i < text.length; i++) {
    if (/[A-Za-z0-9]/.test(text[i]!)) seen++;
    if (seen === chars) return text.slice(0, i + 1);
  }
  return text;
}

function countWithPrefix(sorted: string[], prefix: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  let n = 0;
  for (let i = lo; i < sorted.length && sorted[i]!.startsWith(prefix); i++) if (++n > 10) break;
  return n;
}

function push(map: Map<string, string[]>, key: string, id: string): void {
  const list = map.get(key);
  if (list) list.push(id);
  else map.set(key, [id]);
}

export function buildRelevanceSet(products: readonly Product[], opts: RelevanceOptions = {}): RelevanceQuery[] {
  const targets = Math.min(opts.targets ?? 80, products.length);
  const r = rng(opts.seed ?? 7);
  const words = new Set<string>();
  const codes = new Set<string>();
  const byBrandType = new Map<string, string[]>();
  const byBrandCategory = new Map<string, string[]>();
  for (const p of products) {
    for (const t of tokenize(`${p.name} ${p.brandName} ${p.category} ${p.tags.join(' ')}`)) words.add(t);
    codes.add(normalizeCode(p.partNumber));
    codes.add(normalizeCode(p.sku));
    push(byBrandType, `${p.brandName}|${partTypeOf(p)}`, p.id);
    push(byBrandCategory, `${p.brandName}|${p.category}`, p.id);
  }
  const sortedCodes = [...codes].sort();

  const out: RelevanceQuery[] = [];
  const stride = products.length / targets;
  for (let k = 0; k < targets; k++) {
    const p = products[Math.floor(k * stride + r() * stride * 0.5)]!;
    const one = (q: string, kind: RelevanceKind, accept: string[] = [p.id]) => {
      if (q.trim().length >= 2) out.push({ q, kind, productId: p.id, accept: accept.includes(p.id) ? accept : [p.id, ...accept] });
    };
    const pn = p.partNumber;
    const code = normalizeCode(pn);
    const type = partTypeOf(p);
    const brand = p.brandName.toLowerCase();
    const sameType = byBrandType.get(`${p.brandName}|${type}`) ?? [p.id];

    one(pn, 'exact-number');
    for (const v of separatorVariants(pn)) one(v, 'separators');
    one(p.sku.toLowerCase().replace(/-/g, k % 2 ? ' ' : ''), 'sku');

    // A prefix as typed that few products share (a buyer types until the list is short).
    for (let chars = Math.max(4, Math.ceil(code.length * 0.6)); chars < code.length; chars++) {
      if (countWithPrefix(sortedCodes, code.slice(0, chars)) <= 3) {
        one(typedPrefix(pn, chars), 'prefix');
        break;
      }
    }

    if (code.length >= 6) {
      const t = typo(code, r, codes, ALNUM);
      if (t) one(t.toUpperCase(), 'number-typo');
    }

    const typeWords = type.split(/\s+/).filter(Boolean);
    const longIdx = typeWords.findIndex((w) => w.length >= 5 && /^[A-Za-z]+$/.test(w));
    if (longIdx >= 0) {
      const t = typo(typeWords[longIdx]!.toLowerCase(), r, words);
      if (t) one([brand, ...typeWords.map((w, i) => (i === longIdx ? t : w.toLowerCase()))].join(' '), 'word-typo', sameType);
    }
    const nineIdx = typeWords.findIndex((w) => w.length >= 9 && /^[A-Za-z]+$/.test(w));
    if (nineIdx >= 0) {
      const t = twoTypos(typeWords[nineIdx]!.toLowerCase(), r, words);
      if (t) one([...typeWords.map((w, i) => (i === nineIdx ? t : w.toLowerCase())), brand].join(' '), 'two-typos', sameType);
    }
    const brandWords = brand.split(/\s+/);
    const bIdx = brandWords.findIndex((w) => w.length >= 5 && /^[a-z]+$/.test(w));
    if (bIdx >= 0) {
      const t = typo(brandWords[bIdx]!, r, words);
      if (t) one([...brandWords.map((w, i) => (i === bIdx ? t : w)), type.toLowerCase()].join(' '), 'brand-typo', sameType);
    }
    one(`${brand} ${p.category.toLowerCase()}`, 'brand-type', byBrandCategory.get(`${p.brandName}|${p.category}`));
    const lastCategoryWord = p.category.split(/\s+/).pop()!.toLowerCase();
    one(`${brandWords[0]} ${code} ${lastCategoryWord}`, 'words-and-number');
  }
  return out;
}

/** Share of queries with a correct product among the first k results, overall and per kind. */
export function recall<Q extends { kind: string; accept: string[] } = RelevanceQuery>(
  set: readonly Q[],
  results: readonly (readonly string[])[],
  k: number,
): { overall: number; byKind: Record<string, number>; misses: Q[] } {
  const hits = new Map<string, [number, number]>();
  const misses: Q[] = [];
  let found = 0;
  set.forEach((q, i) => {
    const top = results[i]!.slice(0, k);
    const accept = q.accept.length > 16 ? new Set(q.accept) : null;
    const ok = top.some((id) => (accept ? accept.has(id) : q.accept.includes(id)));
    if (ok) found++;
    else misses.push(q);
    const [h, n] = hits.get(q.kind) ?? [0, 0];
    hits.set(q.kind, [h + (ok ? 1 : 0), n + 1]);
  });
  const byKind = Object.fromEntries([...hits].map(([kind, [h, n]]) => [kind, h / n]));
  return { overall: set.length ? found / set.length : 0, byKind, misses };
}
