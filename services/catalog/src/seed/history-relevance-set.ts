import type { Product } from '@forgeline/contracts/products';
import { codeKey } from '../domain/products.ts';
import { ALNUM, rng, separatorVariants, typo } from './relevance-set.ts';

/**
 * Labelled queries for a part's history and fitment (#17), made from the seeded catalogue like the search issue's
 * set: an old number (as stored, with its separators changed, with a typo), the oldest number of a chain, an older
 * number no longer sold, another maker's number (alone, after the maker's name, with a typo), and a part number
 * searched with a machine chosen. The right answer for a history query is today's part (the end of the chain).
 */
export type HistoryRelevanceKind =
  | 'superseded'
  | 'superseded-separators'
  | 'superseded-typo'
  | 'chain'
  | 'legacy-number'
  | 'cross-reference'
  | 'cross-reference-with-maker'
  | 'cross-reference-typo'
  | 'fitment';

export interface HistoryRelevanceQuery {
  q: string;
  kind: HistoryRelevanceKind;
  accept: string[];
  /** For fitment queries: the machine chosen. */
  machine?: { make: string; model: string; serial?: string };
}

export function buildHistoryRelevanceSet(products: readonly Product[], opts: { targets?: number; seed?: number } = {}): HistoryRelevanceQuery[] {
  const targets = opts.targets ?? 80;
  const r = rng(opts.seed ?? 11);
  const byNumber = new Map<string, Product>();
  const replacedBy = new Map<string, Product>(); // old number key -> the part that lists it
  const byCrossRef = new Map<string, string[]>();
  const codes = new Set<string>();
  for (const p of products) {
    byNumber.set(codeKey(p.partNumber), p);
    codes.add(codeKey(p.partNumber).toLowerCase());
    for (const old of p.replaces ?? []) {
      replacedBy.set(codeKey(old), p);
      codes.add(codeKey(old).toLowerCase());
    }
    for (const x of p.crossReferences ?? []) {
      const k = codeKey(x.partNumber);
      byCrossRef.set(k, [...(byCrossRef.get(k) ?? []), p.id]);
      codes.add(k.toLowerCase());
    }
  }
  /** Today's part for an old number: the end of its chain. */
  const current = (key: string): { part: Product; length: number } | null => {
    let part = replacedBy.get(key);
    if (!part) return null;
    let length = 1;
    for (let next = replacedBy.get(codeKey(part.partNumber)); next && length < 6; next = replacedBy.get(codeKey(next.partNumber))) {
      part = next;
      length++;
    }
    return { part, length };
  };

  const out: HistoryRelevanceQuery[] = [];
  const take = <T>(list: T[], n: number) => {
    const stride = Math.max(1, list.length / n);
    return Array.from({ length: Math.min(n, list.length) }, (_, i) => list[Math.floor(i * stride)]!);
  };

  const olds = [...replacedBy.keys()];
  const productOlds = olds.filter((k) => byNumber.has(k));
  const legacy = olds.filter((k) => !byNumber.has(k));
  const oldNumberOf = (key: string) => byNumber.get(key)?.partNumber ?? replacedBy.get(key)!.replaces!.find((o) => codeKey(o) === key)!;

  for (const key of take(productOlds, targets)) {
    const answer = current(key)!;
    const number = oldNumberOf(key);
    out.push({ q: number, kind: answer.length > 1 ? 'chain' : 'superseded', accept: [answer.part.id] });
    for (const v of separatorVariants(number)) out.push({ q: v, kind: 'superseded-separators', accept: [answer.part.id] });
    if (key.length >= 6) {
      const t = typo(key.toLowerCase(), r, codes, ALNUM);
      if (t) out.push({ q: t.toUpperCase(), kind: 'superseded-typo', accept: [answer.part.id] });
    }
  }
  // Every chain of three or more, from each number that has two or more successors.
  for (const key of productOlds) {
    const answer = current(key)!;
    if (answer.length >= 2) out.push({ q: oldNumberOf(key), kind: 'chain', accept: [answer.part.id] });
  }
  for (const key of take(legacy, targets)) out.push({ q: oldNumberOf(key), kind: 'legacy-number', accept: [current(key)!.part.id] });

  const crossRefs = products.filter((p) => p.crossReferences?.length);
  for (const p of take(crossRefs, targets)) {
    const x = p.crossReferences![Math.floor(r() * p.crossReferences!.length)]!;
    const key = codeKey(x.partNumber);
    // A cross-reference number several parts share (or a part's own number) accepts any of them.
    const accept = [...new Set([...(byCrossRef.get(key) ?? []), ...(byNumber.has(key) ? [byNumber.get(key)!.id] : [])])];
    out.push({ q: x.partNumber, kind: 'cross-reference', accept });
    out.push({ q: `${x.brand} ${x.partNumber.toLowerCase()}`, kind: 'cross-reference-with-maker', accept });
    if (key.length >= 6) {
      const t = typo(key.toLowerCase(), r, codes, ALNUM);
      if (t) out.push({ q: t.toUpperCase(), kind: 'cross-reference-typo', accept });
    }
  }

  const fitting = products.filter((p) => p.fits?.length);
  for (const p of take(fitting, targets)) {
    const f = p.fits![0]!;
    // A serial inside the range when the fit has one.
    const serial = f.serialFrom ?? f.serialTo;
    out.push({ q: p.partNumber, kind: 'fitment', accept: [p.id], machine: { make: f.make, model: f.model, ...(serial ? { serial } : {}) } });
  }
  const seen = new Set<string>();
  return out.filter((q) => {
    const k = `${q.kind}|${q.q}|${JSON.stringify(q.machine ?? null)}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
