/**
 * Matches the lines of a buyer's parts list (parts-list.ts) to products: by part number or SKU as written, then
 * ignoring separators and case, then within two typing mistakes, then (only as suggestions) by the line's words.
 * A part number several brands share is settled by a brand named on the line, or left to the buyer.
 */
import type { PartsMatchLine } from '@forgeline/contracts/parts-match';
import type { ProductSummary } from '@forgeline/contracts/products';
import type { ProductRepository, SearchIndex } from '../ports.ts';
import type { PartsListLine } from './parts-list.ts';
import { CODE_TYPO_MIN_LENGTH, foldWord, hasDigit, normalizeCode, tokenize } from '@forgeline/search-engine/text/normalize';
import { boundedEditDistance } from '@forgeline/search-engine/text/part-numbers';

/** Shortest number offered a ranked guess (one typing mistake away): shorter ones are one mistake from too many. */
const SHORT_GUESS_MIN_LENGTH = 4;

export interface MatchDeps {
  repo: ProductRepository;
  search: SearchIndex;
}

const codesOf = (p: ProductSummary) => [p.partNumber ?? '', p.sku].filter(Boolean);
const sameCase = (a: string, b: string) => a.replace(/\s+/g, '').toLowerCase() === b.toLowerCase();

/** Whether the line's words name the product's brand ("CAT", "Caterpillar", "John Deere"). */
function namesBrand(words: string, p: ProductSummary): boolean {
  const w = new Set(tokenize(words).map(foldWord));
  const brand = tokenize(p.brandName ?? '').map(foldWord);
  return brand.length > 0 && brand.every((b) => w.has(b));
}

const line = (l: PartsListLine, rest: Pick<PartsMatchLine, 'status' | 'match' | 'alternatives'>): PartsMatchLine => ({
  line: l.line,
  input: l.input,
  quantity: l.quantity,
  ...rest,
});

async function hydrate(deps: MatchDeps, ids: string[]): Promise<ProductSummary[]> {
  return ids.length ? deps.repo.getSummaries(ids) : [];
}

export async function matchLine(l: PartsListLine, deps: MatchDeps): Promise<PartsMatchLine> {
  const codes = [l.code, ...l.otherCodes].filter((c): c is string => Boolean(c));
  // 1. The part number or SKU, as written or with other separators and case; then the first column as a whole, for
  // numbers written with spaces ("0 986 685 354").
  const exactCandidates = hasDigit(l.compact) && !codes.includes(l.compact) ? [...codes, l.compact] : codes;
  for (const code of exactCandidates) {
    const norm = normalizeCode(code);
    if (norm.length < 3) continue;
    const found = (await deps.repo.findByCode(norm, 20)).filter((p) => codesOf(p).some((c) => normalizeCode(c) === norm));
    if (found.length === 0) continue;
    const byBrand = found.length > 1 && l.words ? found.filter((p) => namesBrand(l.words, p)) : [];
    const pick = found.length === 1 ? found[0]! : byBrand.length === 1 ? byBrand[0]! : null;
    if (!pick) return line(l, { status: 'ambiguous', alternatives: found.slice(0, 5) });
    const exact = codesOf(pick).some((c) => sameCase(code, c));
    return line(l, {
      status: 'matched',
      match: { kind: exact ? 'exact' : 'normalized', confidence: exact ? 1 : 0.95, product: pick },
      alternatives: found.filter((p) => p.id !== pick.id).slice(0, 5),
    });
  }
  // 2. Within one or two typing mistakes of a part number. A short number (4 or 5 characters: "lf363" for LF3363) is
  // too short to take a typo on its own, so its nearest numbers are offered, ranked, for the buyer to choose.
  for (const code of exactCandidates) {
    const norm = normalizeCode(code);
    if (norm.length < SHORT_GUESS_MIN_LENGTH) continue;
    const short = norm.length < CODE_TYPO_MIN_LENGTH;
    const { hits } = await deps.search.search(code, { limit: 8, offset: 0 });
    const codeHits = hits.filter((h) => h.matches.some((m) => m.field === 'partNumber' || m.field === 'sku'));
    const products = await hydrate(deps, codeHits.map((h) => h.id));
    // Nearest first; among equals, a slip of one character for another (same length), then the longest same start:
    // a misread digit is the commonest mistake, and the start of a number is where it is read most carefully.
    const common = (a: string, b: string) => {
      let i = 0;
      while (i < a.length && a[i] === b[i]) i++;
      return i;
    };
    const scored = products
      .map((p) => {
        const c = codesOf(p).map(normalizeCode).sort((a, b) => boundedEditDistance(norm, a, 2) - boundedEditDistance(norm, b, 2))[0] ?? '';
        return { p, d: boundedEditDistance(norm, c, 2), len: Math.abs(c.length - norm.length), start: common(norm, c) };
      })
      .filter((x) => x.d <= (short ? 1 : 2))
      .sort((a, b) => a.d - b.d || a.len - b.len || b.start - a.start);
    if (scored.length === 0) continue;
    if (short) return line(l, { status: 'ambiguous', alternatives: scored.slice(0, 5).map((x) => x.p) });
    const best = scored.filter((x) => x.d === scored[0]!.d);
    const byBrand = best.length > 1 && l.words ? best.filter((x) => namesBrand(l.words, x.p)) : [];
    const pick = best.length === 1 ? best[0]! : byBrand.length === 1 ? byBrand[0]! : null;
    if (!pick) return line(l, { status: 'ambiguous', alternatives: scored.slice(0, 5).map((x) => x.p) });
    return line(l, {
      status: 'matched',
      match: { kind: 'typo', confidence: pick.d === 1 ? 0.85 : 0.7, product: pick.p },
      alternatives: scored.filter((x) => x.p.id !== pick.p.id).slice(0, 5).map((x) => x.p),
    });
  }
  // 3. By the words: suggestions for the buyer to choose from, never taken on their own.
  const words = tokenize(l.words).filter((w) => w.length >= 3);
  if (words.length >= 2 || (words.length === 1 && !codes.length)) {
    const { hits } = await deps.search.search(l.words, { limit: 5, offset: 0 });
    const named = hits.filter((h) => h.matches.some((m) => m.field === 'name'));
    const alternatives = await hydrate(deps, named.map((h) => h.id));
    if (alternatives.length) return line(l, { status: 'ambiguous', alternatives });
  }
  return line(l, { status: 'unmatched', alternatives: [] });
}

/** Every line, a few at a time (each is one to three store or index reads). */
export async function matchLines(lines: PartsListLine[], deps: MatchDeps, concurrency = 8): Promise<PartsMatchLine[]> {
  const out: PartsMatchLine[] = new Array(lines.length);
  let next = 0;
  const worker = async () => {
    while (next < lines.length) {
      const i = next++;
      out[i] = await matchLine(lines[i]!, deps);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, lines.length) }, worker));
  return out;
}
