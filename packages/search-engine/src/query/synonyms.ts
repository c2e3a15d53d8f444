/**
 * Synonyms (#36): words or phrases of a query that also find other words ("tip" finds "tooth", "o ring" finds "seal
 * ring" and "oring"). Staff keep the sets; the caller compiles them once (compileSynonyms) and hands the table to each
 * search. A query's run of words that is a synonym's phrase becomes a span, like a part number spread over words: the
 * documents holding any alternative (every word of it, exactly) match those words of the query as if they held them.
 */
import type { Segment } from '../segments/segments.ts';
import { hasDigit, tokenize } from '../text/normalize.ts';
import type { CodeSpan } from './parse-query.ts';

/** A set as staff keep it: every phrase finds every other (`both`), or the first finds the rest (`one-way`). */
export interface SynonymSet {
  words: string[];
  mode: 'both' | 'one-way';
}

/** Phrases by their first word: each with the alternatives it also finds. */
export type SynonymTable = Map<string, Array<{ phrase: string[]; alternatives: string[][] }>>;

/** Longest phrase looked for (words). */
export const MAX_SYNONYM_PHRASE = 4;

export function compileSynonyms(sets: readonly SynonymSet[]): SynonymTable {
  const table: SynonymTable = new Map();
  const add = (phrase: string[], alternatives: string[][]) => {
    if (phrase.length === 0 || phrase.length > MAX_SYNONYM_PHRASE || alternatives.length === 0) return;
    const key = phrase.join(' ');
    const list = table.get(phrase[0]!) ?? [];
    let entry = list.find((e) => e.phrase.join(' ') === key);
    if (!entry) list.push((entry = { phrase, alternatives: [] }));
    for (const alt of alternatives) if (!entry.alternatives.some((a) => a.join(' ') === alt.join(' '))) entry.alternatives.push(alt);
    table.set(phrase[0]!, list);
  };
  for (const set of sets) {
    const members = [...new Map(set.words.map((w) => tokenize(w)).filter((t) => t.length > 0).map((t) => [t.join(' '), t])).values()];
    if (members.length < 2) continue;
    if (set.mode === 'one-way') add(members[0]!, members.slice(1));
    else for (const m of members) add(m, members.filter((o) => o !== m));
  }
  // Longest phrase first, so "seal ring" is tried before "seal".
  for (const list of table.values()) list.sort((a, b) => b.phrase.length - a.phrase.length);
  return table;
}

/**
 * The query's synonym spans and, for each, the documents an alternative reaches (within the filters): every word of
 * the alternative, exactly, in one document. `words` gets the alternatives' words, for highlighting.
 */
export function findSynonymSpans(
  tokens: string[],
  table: SynonymTable,
  segs: Segment[],
  accept: (doc: number) => boolean,
  words: Set<string>,
): { spans: CodeSpan[]; docs: number[][] } {
  const spans: CodeSpan[] = [];
  const docs: number[][] = [];
  for (let from = 0; from < tokens.length; from++) {
    for (const entry of table.get(tokens[from]!) ?? []) {
      const { phrase } = entry;
      if (from + phrase.length > tokens.length || phrase.some((w, k) => tokens[from + k] !== w)) continue;
      const found = new Set<number>();
      for (const alt of entry.alternatives) {
        for (const d of docsWithAll(alt, segs)) if (accept(d)) found.add(d);
        for (const w of alt) if (words.size < 500) words.add(w);
      }
      spans.push({ from, to: from + phrase.length - 1, code: phrase.join(' '), kind: 'synonym', found: new Set() });
      docs.push([...found]);
    }
  }
  return { spans, docs };
}

/** Documents holding every word of `words` exactly (in any field), over all segments. */
function docsWithAll(words: string[], segs: Segment[]): number[] {
  let result: Set<number> | null = null;
  for (const w of words) {
    const here = new Set<number>();
    for (const seg of segs) {
      const vocab = hasDigit(w) ? seg.codes : seg.words;
      const t = vocab.lookup(w);
      if (t < 0) continue;
      for (let p = vocab.start[t]!, e = vocab.start[t + 1]!; p < e; p++) {
        const d = vocab.docs[p]!;
        if (!result || result.has(d)) here.add(d);
      }
    }
    result = here;
    if (result.size === 0) break;
  }
  return result ? [...result] : [];
}
