import type { Product } from '@forgeline/contracts/products';
import { codeKey } from '../domain/products.ts';
import { CodeInfixIndex } from '@forgeline/search-engine/segments/code-infix';
import { rng } from './relevance-set.ts';

/**
 * Labelled queries for any part of a part number (#36): the last 4 to 6 characters of a random part's number (its part
 * number mostly, else its SKU, an older number it replaced or another maker's number), as a buyer reads them off a
 * worn tag: `infix` without separators, `infix-separators` as printed (a dash or a space inside, when the number has
 * one there). Right answers: every part holding that piece in one of its numbers (a piece can be in several; any of
 * them is what the buyer asked for), or for an older number the part sold today.
 */
export type InfixRelevanceKind = 'infix' | 'infix-separators';

export interface InfixRelevanceQuery {
  q: string;
  kind: InfixRelevanceKind;
  accept: string[];
}

/** The printed tail of `number` that holds its last `chars` letters and digits ("1R-0716", 5 -> "R-0716"). */
export function printedTail(number: string, chars: number): string {
  let seen = 0;
  for (let i = number.length - 1; i >= 0; i--) {
    if (/[A-Za-z0-9]/.test(number[i]!)) seen++;
    if (seen === chars) return number.slice(i);
  }
  return number;
}

/**
 * `numbers: 'own'` takes pieces of part numbers and SKUs only (an engine alone, without the store's older numbers and
 * cross-references, as the search adapters' own suites run it).
 */
export function buildInfixRelevanceSet(products: readonly Product[], opts: { targets?: number; seed?: number; numbers?: 'all' | 'own' } = {}): InfixRelevanceQuery[] {
  const own = opts.numbers === 'own';
  const targets = Math.min(opts.targets ?? 500, products.length);
  const r = rng(opts.seed ?? 36);
  // Every number of every part, by key, to the parts it answers for (an older number: the part that lists it).
  const numbers: { key: string; ids: string[] }[] = [];
  const add = (number: string, id: string) => {
    const key = codeKey(number);
    if (key) numbers.push({ key, ids: [id] });
  };
  const replacedBy = new Map<string, Product>();
  for (const p of products) for (const old of p.replaces ?? []) replacedBy.set(codeKey(old), p);
  /** The part listing an older number, and the parts that replaced it in turn (the search answers with the last). */
  const chain = (p: Product): string[] => {
    const ids = [p.id];
    for (let next = replacedBy.get(codeKey(p.partNumber)); next && ids.length < 7; next = replacedBy.get(codeKey(next.partNumber))) ids.push(next.id);
    return ids;
  };
  for (const p of products) {
    add(p.partNumber, p.id);
    add(p.sku, p.id);
    if (own) continue;
    for (const old of p.replaces ?? []) numbers.push({ key: codeKey(old), ids: chain(p) });
    for (const x of p.crossReferences ?? []) add(x.partNumber, p.id);
  }
  // The numbers holding a piece, through the engine's own piece index (a scan of a million numbers per query is slow).
  const pieces = CodeInfixIndex.over(numbers.length, (i) => numbers[i]!.key);
  const holding = (piece: string): string[] => [...new Set(pieces.find((i) => numbers[i]!.key, piece, Infinity).flatMap((i) => numbers[i]!.ids))];

  const out: InfixRelevanceQuery[] = [];
  const used = new Set<string>();
  for (let tries = 0; out.length < targets && tries < targets * 20; tries++) {
    const p = products[Math.floor(r() * products.length)]!;
    const pick = r();
    const older = own ? [] : [...(p.replaces ?? []), ...(p.crossReferences ?? []).map((x) => x.partNumber)];
    const number = pick < 0.7 || older.length === 0 ? (pick < 0.8 ? p.partNumber : p.sku) : older[Math.floor(r() * older.length)]!;
    const key = codeKey(number);
    const chars = 4 + Math.floor(r() * 3);
    if (key.length <= chars) continue; // the whole number: not a piece of it
    const piece = key.slice(-chars);
    const printed = printedTail(number, chars);
    const separators = /[^A-Za-z0-9]/.test(printed) && out.length % 2 === 0;
    const q = separators ? printed : r() < 0.5 ? piece : piece.toLowerCase();
    if (used.has(q.toUpperCase())) continue;
    used.add(q.toUpperCase());
    out.push({ q, kind: separators ? 'infix-separators' : 'infix', accept: holding(piece) });
  }
  return out;
}
