/**
 * Candidate matching, the second stage of a search: which documents the query's terms and part-number spans reach,
 * each with a bit per query word it matched, its score (a word counts once, by its best match) and its code tier.
 * The per-document scratch arrays are kept between searches and cleared through `touched`, so a search costs what
 * its postings cost, not what the index holds.
 */
import type { Documents } from '../documents/documents.ts';
import type { CodeSpan, TermSource } from '../query/parse-query.ts';
import { FIELD_WEIGHT, baseOf, isExactTier, tierOf } from '../ranking/scores.ts';
import type { Segment } from '../segments/segments.ts';
import { CODE_FIELDS } from '../segments/vocab.ts';

export interface ScoreContext {
  tokens: string[];
  sources: TermSource[][];
  spans: CodeSpan[];
  spanDocs: number[][];
  brandFilter: Uint8Array | null;
  categoryFilter: Uint8Array | null;
  /** how many entries of `touched` are in use */
  nt: number;
}

export class CandidateMatcher {
  // query scratch, reset through `touched`
  mask = new Uint16Array(0);
  score = new Int32Array(0);
  private best = new Int32Array(0);
  private stamp = new Uint32Array(0);
  tier = new Uint8Array(0);
  private touched = new Int32Array(0);
  private stampCounter = 0;
  private lastFreshToken = -1;
  private lastFreshStamp = 0;

  constructor(private readonly docs: Documents) {}

  ensureScratch(): void {
    const n = this.docs.base.n + this.docs.delta.length;
    if (this.mask.length >= n) return;
    const cap = Math.max(1024, Math.ceil(n * 1.25));
    this.mask = new Uint16Array(cap);
    this.score = new Int32Array(cap);
    this.best = new Int32Array(cap);
    this.stamp = new Uint32Array(cap);
    this.tier = new Uint8Array(cap);
    this.touched = new Int32Array(cap);
  }

  /** Products matching every word; empty if there are none. */
  matchAll(ctx: ScoreContext, order: number[]): Int32Array {
    const { mask } = this;
    const first = order[0]!;
    if (order.length === 1 && ctx.spans.length === 0) {
      this.visitOneWord(ctx);
      return this.touched.subarray(0, ctx.nt);
    }
    this.visitEverything(ctx, first);
    if (order.length === 1) return this.touched.subarray(0, ctx.nt);
    // Sorted only when a long posting list is galloped through: sorting a common word's 100,000+ candidates cost more
    // than the intersection itself (the profile at 2,000,000 parts: "seal kit" 25 ms, most of it in matchAll's sort).
    let cand = Int32Array.from(this.touched.subarray(0, ctx.nt));
    let sorted = false;
    for (let k = 1; k < order.length && cand.length > 0; k++) {
      const ti = order[k]!;
      const bit = 1 << ti;
      const st = ++this.stampCounter;
      for (const src of ctx.sources[ti]!) {
        const { docs, fields, start } = src.vocab;
        for (let term = src.from; term < src.to; term++) {
          const base = baseOf(src, term);
          const a = start[term]!;
          const e = start[term + 1]!;
          if (e - a > cand.length * 8) {
            // Long posting list, few survivors: gallop through the list for each survivor.
            if (!sorted) {
              cand.sort();
              sorted = true;
            }
            let p = a;
            for (let i = 0; i < cand.length && p < e; i++) {
              const c = cand[i]!;
              if (docs[p]! < c) {
                let step = 1;
                let lo = p;
                let hi = p + 1;
                while (hi < e && docs[hi]! < c) {
                  lo = hi;
                  step *= 2;
                  hi = lo + step;
                }
                if (hi > e) hi = e;
                while (lo < hi) {
                  const mid = (lo + hi) >>> 1;
                  if (docs[mid]! < c) lo = mid + 1;
                  else hi = mid;
                }
                p = lo;
              }
              if (p < e && docs[p] === c) this.visitStamped(c, bit, st, base * FIELD_WEIGHT[fields[p]!]!);
            }
          } else {
            for (let p = a; p < e; p++) {
              const d = docs[p]!;
              if (mask[d] !== 0) this.visitStamped(d, bit, st, base * FIELD_WEIGHT[fields[p]!]!);
            }
          }
        }
      }
      ctx.spans.forEach((span, si) => {
        if (ti < span.from || ti > span.to) return;
        const t = tierOf(span);
        for (const d of ctx.spanDocs[si]!) {
          if (mask[d] === 0) continue;
          this.visitStamped(d, bit, st, 1000);
          if (this.tier[d]! < t) this.tier[d] = t;
        }
      });
      // Keep the survivors; the others drop out (their scratch is cleared at the end).
      let w = 0;
      for (let i = 0; i < cand.length; i++) {
        const d = cand[i]!;
        if (mask[d]! & bit) cand[w++] = d;
        else {
          mask[d] = 0;
          this.score[d] = 0;
          this.tier[d] = 0;
        }
      }
      cand = cand.subarray(0, w);
    }
    return cand;
  }

  /** Products matching the largest number of the words (when no product matches them all). */
  matchMost(ctx: ScoreContext): Int32Array {
    for (let ti = 0; ti < ctx.tokens.length; ti++) this.visitEverything(ctx, ti);
    const { mask, touched, tier } = this;
    let maxCount = 0;
    for (let i = 0; i < ctx.nt; i++) maxCount = Math.max(maxCount, popcount(mask[touched[i]!]!));
    const out = new Int32Array(ctx.nt);
    let w = 0;
    for (let i = 0; i < ctx.nt; i++) {
      const d = touched[i]!;
      if (popcount(mask[d]!) === maxCount || isExactTier(tier[d]!)) out[w++] = d;
      else {
        mask[d] = 0;
        this.score[d] = 0;
        tier[d] = 0;
      }
    }
    return out.subarray(0, w);
  }

  /** An exact part-number match always shows, even when other words of the query miss it: those not yet in `result`. */
  exactSpanExtras(ctx: ScoreContext): number[] {
    const extra: number[] = [];
    ctx.spans.forEach((span, si) => {
      if (span.kind !== 'exact') return;
      for (const d of ctx.spanDocs[si]!) {
        if (this.mask[d] !== 0) continue;
        for (let ti = span.from; ti <= span.to; ti++) this.visitFresh(ctx, d, ti, 1000);
        this.tier[d] = tierOf(span);
        extra.push(d);
      }
    });
    return extra;
  }

  /** Every product matching word `ti` (through any of its terms or code spans) gets its bit. */
  private visitEverything(ctx: ScoreContext, ti: number): void {
    const { alive, brandOf, categoryOf } = this.docs;
    const { stamp, mask, best, score, touched } = this;
    const { brandFilter, categoryFilter } = ctx;
    const bit = 1 << ti;
    const st = ++this.stampCounter;
    this.lastFreshToken = ti;
    this.lastFreshStamp = st;
    let nt = ctx.nt;
    // The hot loop of a broad query (a common word over 500,000 products): kept flat on purpose.
    for (const src of ctx.sources[ti]!) {
      const { docs, fields, start } = src.vocab;
      for (let term = src.from; term < src.to; term++) {
        const base = baseOf(src, term);
        for (let p = start[term]!, e = start[term + 1]!; p < e; p++) {
          const d = docs[p]!;
          if (alive[d] === 0) continue;
          if (brandFilter !== null && brandFilter[brandOf[d]!] === 0) continue;
          if (categoryFilter !== null && categoryFilter[categoryOf[d]!] === 0) continue;
          const c = base * FIELD_WEIGHT[fields[p]!]!;
          if (stamp[d] !== st) {
            if (mask[d] === 0) touched[nt++] = d;
            stamp[d] = st;
            mask[d]! |= bit;
            best[d] = c;
            score[d]! += c;
          } else if (c > best[d]!) {
            score[d]! += c - best[d]!;
            best[d] = c;
          }
        }
      }
    }
    ctx.nt = nt;
    ctx.spans.forEach((span, si) => {
      if (ti < span.from || ti > span.to) return;
      const t = tierOf(span);
      for (const d of ctx.spanDocs[si]!) {
        this.visitFresh(ctx, d, ti, 1000);
        if (this.tier[d]! < t) this.tier[d] = t;
      }
    });
  }

  /**
   * `visitEverything` for a query of one word and no part-number span, the common word typed alone ("filter": 150,590
   * of 500,000 parts): with one word a product's score is its best match, so neither the stamp nor the best-so-far is
   * needed, and each posting reads two scratch arrays instead of four. The posting loop repeats visitEverything's on
   * purpose: a shared loop with a callback per posting would cost about what this saves.
   */
  private visitOneWord(ctx: ScoreContext): void {
    const { alive, brandOf, categoryOf } = this.docs;
    const { mask, score, touched } = this;
    const { brandFilter, categoryFilter } = ctx;
    let nt = ctx.nt;
    for (const src of ctx.sources[0]!) {
      const { docs, fields, start } = src.vocab;
      for (let term = src.from; term < src.to; term++) {
        const base = baseOf(src, term);
        for (let p = start[term]!, e = start[term + 1]!; p < e; p++) {
          const d = docs[p]!;
          if (alive[d] === 0) continue;
          if (brandFilter !== null && brandFilter[brandOf[d]!] === 0) continue;
          if (categoryFilter !== null && categoryFilter[categoryOf[d]!] === 0) continue;
          const c = base * FIELD_WEIGHT[fields[p]!]!;
          if (mask[d] === 0) {
            touched[nt++] = d;
            mask[d] = 1;
            score[d] = c;
          } else if (c > score[d]!) score[d] = c;
        }
      }
    }
    ctx.nt = nt;
  }

  /** Visit that may add a new product to the touched list. */
  private visitFresh(ctx: ScoreContext, d: number, ti: number, c: number): void {
    if (this.lastFreshToken !== ti || this.lastFreshStamp === 0) {
      this.lastFreshToken = ti;
      this.lastFreshStamp = ++this.stampCounter;
    }
    if (this.mask[d] === 0 && this.stamp[d] !== this.lastFreshStamp) this.touched[ctx.nt++] = d;
    this.visitStamped(d, 1 << ti, this.lastFreshStamp, c);
  }

  /** Word bit and best contribution per product and word: a word counts once, by its best match. */
  private visitStamped(d: number, bit: number, st: number, c: number): void {
    if (this.stamp[d] !== st) {
      this.stamp[d] = st;
      this.mask[d]! |= bit;
      this.best[d] = c;
      this.score[d]! += c;
    } else if (c > this.best[d]!) {
      this.score[d]! += c - this.best[d]!;
      this.best[d] = c;
    }
  }

  resetTouched(ctx: ScoreContext): void {
    const { touched, mask, score, tier } = this;
    for (let i = 0; i < ctx.nt; i++) {
      const d = touched[i]!;
      mask[d] = 0;
      score[d] = 0;
      tier[d] = 0;
    }
    ctx.nt = 0;
    this.lastFreshStamp = 0;
  }

  /** After ranking has cleared the scratch of every candidate: the next search starts from nothing. */
  finish(ctx: ScoreContext): void {
    ctx.nt = 0;
    this.lastFreshStamp = 0;
  }

  /** The documents holding a span's code (or, for a typo or infix span, one of the codes it found), within the filters. */
  spanDocs(span: CodeSpan, segs: Segment[], brandFilter: Uint8Array | null, categoryFilter: Uint8Array | null): number[] {
    const out: number[] = [];
    const codes = span.kind === 'typo' || span.kind === 'infix' ? [...span.found] : [span.code];
    const { alive, brandOf, categoryOf } = this.docs;
    for (const seg of segs) {
      for (const code of codes) {
        let from: number;
        let to: number;
        if (span.kind === 'prefix') [from, to] = seg.codes.prefixRange(code);
        else {
          from = seg.codes.lookup(code);
          to = from + 1;
          if (from < 0) continue;
        }
        const { docs, fields, start } = seg.codes;
        for (let p = start[from]!, e = start[to]!; p < e; p++) {
          if ((fields[p]! & CODE_FIELDS) === 0) continue;
          const d = docs[p]!;
          if (!alive[d] || (brandFilter && !brandFilter[brandOf[d]!]) || (categoryFilter && !categoryFilter[categoryOf[d]!])) continue;
          out.push(d);
        }
      }
    }
    return out;
  }
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x5555;
  x = (x & 0x3333) + ((x >>> 2) & 0x3333);
  x = (x + (x >>> 4)) & 0x0f0f;
  return (x + (x >>> 8)) & 0x1f;
}

/** A byte per name (brand or category): 1 where `matches` takes it; false when none does (nothing can match). */
export function nameFilter(names: string[], matches: (name: string) => boolean): Uint8Array | false {
  const allowed = new Uint8Array(names.length);
  let any = false;
  for (let i = 0; i < names.length; i++) {
    if (matches(names[i]!)) {
      allowed[i] = 1;
      any = true;
    }
  }
  return any ? allowed : false;
}
