/**
 * Part-number patterns (see catalogue-data.ts): `#` digit, `@` letter without I and O, `{a|b}` a
 * choice, anything else literal. A pattern numbers a finite space; `render(n)` writes the n-th
 * number of it, and `PartNumberSequence` hands out the space in a scrambled but repeatable order,
 * so every number it gives is new until the space runs out.
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
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

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
  return {
    source,
    space,
    regex,
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
  };
}

function gcd(a: bigint, b: bigint): bigint {
  while (b) [a, b] = [b, a % b];
  return a;
}

/**
 * Hands out the numbers of a pattern in a scrambled order: the k-th number is
 * (k * step + offset) mod space, with step coprime to space, so no number repeats within a lap.
 * Past the end of the space (never reached by the demo sizes) a revision suffix keeps numbers unique.
 */
export class PartNumberSequence {
  private next = 0;
  private readonly step: bigint;
  private readonly offset: bigint;
  private readonly space: bigint;

  constructor(readonly pattern: PartNumberPattern, salt: number) {
    this.space = BigInt(pattern.space);
    let step = BigInt(Math.floor(pattern.space * 0.6180339887)) + 1n;
    while (gcd(step, this.space) !== 1n) step += 1n;
    this.step = step;
    this.offset = BigInt(salt % pattern.space);
  }

  take(): string {
    const k = this.next++;
    const lap = Math.floor(k / this.pattern.space);
    const n = Number((BigInt(k % this.pattern.space) * this.step + this.offset) % this.space);
    const pn = this.pattern.render(n);
    return lap === 0 ? pn : `${pn}-R${lap}`;
  }
}
