/**
 * Typo-tolerant lookup of one query word in a sorted vocabulary, without building a trie:
 * walking the sorted terms shares the edit-distance rows of common prefixes (as a trie walk would)
 * and skips, by binary search, every run of terms whose prefix is already too far from the word.
 * Distance is optimal string alignment (a swap of neighbours counts as one typo).
 */
import type { Vocab } from '../segments/vocab.ts';

export interface TermMatch {
  /** [from, to) term indexes: one term, or a whole prefix run */
  from: number;
  to: number;
  typos: number;
  /** matched as a prefix of the terms (the buyer is still typing) */
  prefix: boolean;
  /** for prefix matches: the vocabulary prefix that matched (for highlighting) */
  matchedPrefix?: string;
}

const INF = 1 << 20;

/**
 * Answers already computed, per vocabulary. The words of distinct queries recur ("filter", "seal", a brand's name),
 * and a typo walk costs up to ~0.3 ms a word at 500,000 products; a vocabulary never changes once built (a new one
 * replaces it), so its answers never go stale and go with it. The most recently asked are kept.
 */
const answered = new WeakMap<Vocab, Map<string, TermMatch[]>>();
const ANSWERS_PER_VOCAB = 4096;

export function fuzzyLookup(vocab: Vocab, q: string, maxTypos: number, allowPrefix: boolean): TermMatch[] {
  let memo = answered.get(vocab);
  if (!memo) answered.set(vocab, (memo = new Map()));
  const key = `${maxTypos}${allowPrefix ? '+' : '='}${q}`;
  let out = memo.get(key);
  if (out) memo.delete(key);
  else {
    out = lookup(vocab, q, maxTypos, allowPrefix);
    if (memo.size >= ANSWERS_PER_VOCAB) memo.delete(memo.keys().next().value!);
  }
  memo.set(key, out);
  return out;
}

function lookup(vocab: Vocab, q: string, maxTypos: number, allowPrefix: boolean): TermMatch[] {
  const out: TermMatch[] = [];
  if (vocab.size === 0 || q.length === 0) return out;
  if (maxTypos === 0) {
    const t = vocab.lookup(q);
    if (t >= 0) out.push({ from: t, to: t + 1, typos: 0, prefix: false });
    if (allowPrefix) {
      const [a, b] = vocab.prefixRange(q);
      if (b > a) out.push({ from: a, to: b, typos: 0, prefix: true, matchedPrefix: q });
    }
    return out;
  }
  const m = q.length;
  const W = m + 1;
  const maxDepth = vocab.maxTermLength;
  const rows = new Int32Array((maxDepth + 1) * W);
  const acc = new Int32Array(maxDepth + 1);
  const path = new Uint16Array(maxDepth + 1);
  const qc = new Uint16Array(m);
  for (let j = 0; j < m; j++) qc[j] = q.charCodeAt(j);
  for (let j = 0; j <= m; j++) rows[j] = j;
  acc[0] = allowPrefix && m <= maxTypos ? m : INF;

  const terms = vocab.terms;
  const text = terms.text;
  const offsets = terms.offsets;
  const T = vocab.size;
  let pathLen = 0;
  let i = 0;
  while (i < T) {
    const base = offsets[i]!;
    const len = offsets[i + 1]! - base;
    let p = 0;
    while (p < pathLen && p < len && path[p] === text.charCodeAt(base + p)) p++;
    pathLen = p;
    let skipTo = -1;
    for (let d = p + 1; d <= len; d++) {
      const ch = text.charCodeAt(base + d - 1);
      path[d - 1] = ch;
      pathLen = d;
      const r = d * W;
      const pr = r - W;
      rows[r] = d;
      let rowMin = d;
      for (let j = 1; j <= m; j++) {
        const cost = qc[j - 1] === ch ? 0 : 1;
        let v = rows[pr + j]! + 1;
        const ins = rows[r + j - 1]! + 1;
        if (ins < v) v = ins;
        const sub = rows[pr + j - 1]! + cost;
        if (sub < v) v = sub;
        if (d > 1 && j > 1 && qc[j - 1] === path[d - 2] && qc[j - 2] === ch) {
          const tr = rows[pr - W + j - 2]! + 1;
          if (tr < v) v = tr;
        }
        rows[r + j] = v;
        if (v < rowMin) rowMin = v;
      }
      const whole = rows[r + m]!;
      acc[d] = allowPrefix && whole <= maxTypos && whole < acc[d - 1]! ? whole : acc[d - 1]!;
      if (allowPrefix && acc[d] === 0) {
        // The word typed so far is exactly this prefix: every term below matches without typo.
        const end = vocab.prefixEnd(i, text.slice(base, base + d), d);
        out.push({ from: i, to: end, typos: 0, prefix: true, matchedPrefix: text.slice(base, base + d) });
        skipTo = end;
        break;
      }
      if (rowMin > maxTypos) {
        // Nothing below can come closer: keep the run if a shorter prefix already matched, skip it.
        const end = vocab.prefixEnd(i, text.slice(base, base + d), d);
        if (acc[d]! <= maxTypos) {
          out.push({ from: i, to: end, typos: acc[d]!, prefix: true, matchedPrefix: prefixAt(acc, rows, W, m, path, d) });
        }
        skipTo = end;
        break;
      }
    }
    if (skipTo >= 0) {
      i = skipTo;
      continue;
    }
    const whole = rows[len * W + m]!;
    const viaPrefix = acc[len]!;
    if (whole <= maxTypos && whole <= viaPrefix) out.push({ from: i, to: i + 1, typos: whole, prefix: false });
    else if (viaPrefix <= maxTypos) {
      out.push({ from: i, to: i + 1, typos: viaPrefix, prefix: true, matchedPrefix: prefixAt(acc, rows, W, m, path, len) });
    }
    i++;
  }
  return out;
}

/** The shortest path prefix at which the best prefix cost was reached. */
function prefixAt(acc: Int32Array, _rows: Int32Array, _w: number, _m: number, path: Uint16Array, depth: number): string {
  const best = acc[depth]!;
  let d = depth;
  while (d > 0 && acc[d - 1] === best) d--;
  return String.fromCharCode(...path.subarray(0, d));
}
