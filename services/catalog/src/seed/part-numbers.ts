/**
 * Part-number patterns (see catalogue-data.ts): `#` digit, `@` letter without I and O, `{a|b}` a
 * choice, anything else literal. A pattern numbers a finite space; `render(n)` writes the n-th
 * number of it, and `PartNumbering` hands out each pattern's space in a scrambled but repeatable
 * order, so every number it gives is new, also across patterns whose numbers look alike.
 */

const LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '0123456789';

type Token = string | string[];

export interface PartNumberPattern {
  source: string;
  /** How many distinct numbers the pattern can write. */
  space: number;
  render(n: number): string;
  /** A regular expression matching exactly the numbers of this pattern. */
  regex: RegExp;
  /** The n whose number has this code key, or -1 when the pattern writes no such number. */
  indexOfKey(key: string): number;
  /** Its code keys as the characters each place can hold, one list per spelling of its choices. */
  keyForms: string[][][];
}

/**
 * A number's code key: its letters and digits, upper case. Search and part history compare numbers by it
 * (`codeKey` in domain/products.ts, the same for these ASCII numbers), so "497-5441" and "4975441" are one number.
 */
export const keyOf = (pn: string) => pn.toUpperCase().replace(/[^A-Z0-9]/g, '');

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Whether two patterns can write the same code key: some spelling of each has the same length and shares a character at every place. */
export function patternsMeet(a: PartNumberPattern, b: PartNumberPattern): boolean {
  return a.keyForms.some((x) => b.keyForms.some((y) => x.length === y.length && x.every((chars, i) => chars.some((c) => y[i]!.includes(c)))));
}

/** Patterns parsed once per process: a catalogue run builds the same couple of hundred every time. */
const parsed = new Map<string, PartNumberPattern>();
const meets = new Map<PartNumberPattern, Map<PartNumberPattern, boolean>>();

function patternOf(source: string): PartNumberPattern {
  let p = parsed.get(source);
  if (!p) parsed.set(source, (p = parsePattern(source)));
  return p;
}

function meet(a: PartNumberPattern, b: PartNumberPattern): boolean {
  let row = meets.get(a);
  if (!row) meets.set(a, (row = new Map()));
  let m = row.get(b);
  if (m === undefined) row.set(b, (m = patternsMeet(a, b)));
  return m;
}

export function parsePattern(source: string): PartNumberPattern {
  const tokens: Token[] = [];
  let literal = '';
  const flush = () => {
    if (literal) tokens.push(literal);
    literal = '';
  };
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '#' || ch === '@') {
      flush();
      tokens.push(ch === '#' ? [...DIGITS] : [...LETTERS]);
    } else if (ch === '{') {
      flush();
      const end = source.indexOf('}', i);
      if (end < 0) throw new Error(`unclosed { in part-number pattern "${source}"`);
      tokens.push(source.slice(i + 1, end).split('|'));
      i = end;
    } else {
      literal += ch;
    }
  }
  flush();
  const space = tokens.reduce<number>((n, t) => (typeof t === 'string' ? n : n * t.length), 1);
  const regex = new RegExp(
    '^' +
      tokens
        .map((t) => (typeof t === 'string' ? escapeRe(t) : `(?:${t.map(escapeRe).join('|')})`))
        .join('') +
      '$',
  );
  // The same pattern over code keys, one group a choice, to read n back from a key.
  const choices = tokens.filter((t): t is string[] => typeof t !== 'string').map((t) => t.map(keyOf));
  const keyRegex = new RegExp(
    '^' + tokens.map((t) => (typeof t === 'string' ? escapeRe(keyOf(t)) : `(${t.map((o) => escapeRe(keyOf(o))).join('|')})`)).join('') + '$',
  );
  // A choice of single characters is one place; longer or empty choices spell the pattern several ways.
  let keyForms: string[][][] = [[]];
  for (const t of tokens) {
    const options = typeof t === 'string' ? [keyOf(t)] : t.map(keyOf);
    if (options.length > 1 && options.every((o) => o.length === 1)) keyForms = keyForms.map((f) => [...f, options]);
    else keyForms = keyForms.flatMap((f) => options.map((o) => [...f, ...[...o].map((ch) => [ch])]));
  }
  return {
    source,
    space,
    regex,
    keyForms,
    render(n: number): string {
      const out: string[] = new Array(tokens.length);
      let rest = n;
      for (let i = tokens.length - 1; i >= 0; i--) {
        const t = tokens[i]!;
        if (typeof t === 'string') out[i] = t;
        else {
          out[i] = t[rest % t.length]!;
          rest = Math.floor(rest / t.length);
        }
      }
      return out.join('');
    },
    indexOfKey(key: string): number {
      const m = keyRegex.exec(key);
      if (!m) return -1;
      let n = 0;
      for (let c = 0; c < choices.length; c++) n = n * choices[c]!.length + choices[c]!.indexOf(m[c + 1]!);
      return n;
    },
  };
}

/** The same pattern one digit longer (in its last run of digits): where a used-up pattern continues ("Set ####" → "Set #####"). */
export function widenPattern(source: string): string {
  const at = source.lastIndexOf('#');
  if (at < 0) throw new Error(`part-number pattern "${source}" has no digit to widen`);
  return `${source.slice(0, at)}#${source.slice(at)}`;
}

/** a * b mod m without losing digits (both below m). */
function mulMod(a: number, b: number, m: number): number {
  const p = a * b;
  if (p <= Number.MAX_SAFE_INTEGER) return p % m;
  // b in 13-bit pieces, high first: every product stays under 2^53 while m < 2^40 (BigInt is several times slower).
  let r = (a * Math.floor(b / 2 ** 39)) % m;
  r = (((r * 8192) % m) + ((a * (Math.floor(b / 2 ** 26) % 8192)) % m)) % m;
  r = (((r * 8192) % m) + ((a * (Math.floor(b / 8192) % 8192)) % m)) % m;
  return (((r * 8192) % m) + ((a * (b % 8192)) % m)) % m;
}

function inverseMod(a: number, m: number): number {
  let [r0, r1, t0, t1] = [BigInt(m), BigInt(a), 0n, 1n];
  while (r1) {
    const q = r0 / r1;
    [r0, r1, t0, t1] = [r1, r0 - q * r1, t1, t0 - q * t1];
  }
  return Number(((t0 % BigInt(m)) + BigInt(m)) % BigInt(m));
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/**
 * How many numbers of each pattern are claimed by their place in its order: far more than any pattern gives at
 * two million parts (the busiest, about 85,000), and few enough that a walk through another pattern's claims is short.
 */
const FIRST = 2 ** 20;
/** Claims by hash come after every claim by place. */
const HASHED = 2 ** 40;

/** murmur3's finaliser: every input bit moves every output bit. */
function fmix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A 32-bit hash of a code key for one lane: independent between lanes, so no lane loses to another throughout. */
function keyHash(key: string, rank: number): number {
  let h = fmix(rank + 1);
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  return fmix(h);
}

/**
 * One pattern's space in scrambled order: the k-th number is (k * step + offset) mod space, step coprime
 * to space, so k and n are one to one and either gives the other. New parts take numbers from the front
 * of the order; older numbers no longer sold, and numbers for parts whose own went to another pattern,
 * come from the back, so the two never meet.
 */
class Lane {
  front = 0;
  back: number;
  readonly step: number;
  readonly stepInverse: number;
  readonly offset: number;
  /** Lanes of other patterns that can write the same code keys. */
  readonly rivals: Lane[] = [];

  constructor(
    readonly pattern: PartNumberPattern,
    /** The lane's place among all lanes: breaks ties. */
    readonly rank: number,
    /** Whether its first numbers claim by place (a pattern's own lane); a widened pattern's lane claims by hash. */
    readonly first: boolean,
    salt: number,
  ) {
    const space = pattern.space;
    if (space >= 2 ** 40) throw new RangeError(`part-number pattern "${pattern.source}" has more than 2^40 numbers`);
    let step = Math.floor(space * 0.6180339887) + 1;
    while (gcd(step, space) !== 1) step += 1;
    this.step = step % space;
    this.stepInverse = space === 1 ? 0 : inverseMod(this.step, space);
    this.offset = salt % space;
    this.back = space - 1;
  }

  numberAt(k: number): number {
    return (mulMod(k, this.step, this.pattern.space) + this.offset) % this.pattern.space;
  }

  /**
   * How strongly the lane claims a code key, lower first: a number among the first of a pattern's own order
   * (the numbers parts get first; up to half the space, at most FIRST) by its place in it, any other by a hash.
   * Places alone would not do: two patterns of one size share a step, so their places for a key differ by a
   * constant, and one would lose a whole stretch of its order to the other.
   */
  claim(k: number, key: string): number {
    return this.first && k < this.pattern.space / 2 && k < FIRST ? k : HASHED + keyHash(key, this.rank);
  }

  /**
   * The number at k when this lane owns it: of all the lanes that can write its code key, the one with the
   * lowest claim (then rank). A rule of the patterns alone, so no list of the numbers given out is kept, and a
   * part's number never depends on the parts after it.
   */
  ownNumberAt(k: number): string | null {
    const pn = this.pattern.render(this.numberAt(k));
    if (!this.rivals.length) return pn;
    const key = keyOf(pn);
    const mine = this.claim(k, key);
    for (const rival of this.rivals) {
      const n = rival.pattern.indexOfKey(key);
      if (n < 0) continue;
      const space = rival.pattern.space;
      const theirs = rival.claim(mulMod((n - rival.offset + space) % space, rival.stepInverse, space), key);
      if (theirs < mine || (theirs === mine && rival.rank < this.rank)) return null;
    }
    return pn;
  }
}

/** The numbers of one pattern of one brand (or of brands that share a numbering, as Case and New Holland do). */
export class PartNumberSequence {
  /** The pattern, then the same one digit longer once it is used up. */
  readonly lanes: Lane[];
  private at = 0;

  constructor(pattern: PartNumberPattern, rank: number, salt: number) {
    const wider = patternOf(widenPattern(pattern.source));
    this.lanes = [new Lane(pattern, 2 * rank, true, salt), new Lane(wider, 2 * rank + 1, false, salt)];
  }

  /** A new part's number. */
  take(): string {
    return this.next(false);
  }

  /** An older number no longer sold: the brand's kind of number, that no part is (or will be) given. */
  retire(): string {
    return this.next(true);
  }

  private next(fromBack: boolean): string {
    for (;;) {
      const lane = this.lanes[this.at];
      if (!lane) throw new RangeError(`part-number pattern "${this.lanes[0]!.pattern.source}" is used up, also one digit longer`);
      if (lane.front > lane.back) {
        this.at++;
        continue;
      }
      const pn = lane.ownNumberAt(fromBack ? lane.back-- : lane.front++);
      if (pn !== null) return pn;
      // Another pattern owns this one: the part takes a number from the back, and the parts after it keep theirs.
      if (!fromBack) return this.next(true);
    }
  }
}

/** Every sequence of a catalogue, built together so each knows the patterns whose numbers can meet its own. */
export class PartNumbering {
  private readonly sequences = new Map<string, PartNumberSequence>();

  constructor(lines: Iterable<{ key: string; source: string; salt: number }>) {
    for (const { key, source, salt } of lines) {
      if (!this.sequences.has(key)) this.sequences.set(key, new PartNumberSequence(patternOf(source), this.sequences.size, salt));
    }
    const lanes = [...this.sequences.values()].flatMap((s) => s.lanes);
    for (const a of lanes) {
      for (const b of lanes) if (a !== b && meet(a.pattern, b.pattern)) a.rivals.push(b);
    }
  }

  sequence(key: string): PartNumberSequence {
    const s = this.sequences.get(key);
    if (!s) throw new Error(`no part-number sequence "${key}"`);
    return s;
  }
}
