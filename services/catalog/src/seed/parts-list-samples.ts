/**
 * A part number with one typing mistake (a digit after the first character changed) that is no other part's number,
 * or null when ten tries find none. For the parts-list match's tests and benchmark: a buyer's slip, not a different part.
 */
export function withTypo(code: string, rnd: () => number, taken: (code: string) => boolean): string | null {
  for (let k = 0; k < 10; k++) {
    const digits = [...code].map((c, i) => (/\d/.test(c) ? i : -1)).filter((i) => i > 0);
    if (!digits.length) return null;
    const at = digits[Math.floor(rnd() * digits.length)]!;
    const out = code.slice(0, at) + String((Number(code[at]) + 1 + Math.floor(rnd() * 8)) % 10) + code.slice(at + 1);
    if (!taken(out)) return out;
  }
  return null;
}

/**
 * The ways a buyer writes one part on a list: as printed, lower case without separators, brand in front with a
 * count in brackets, semicolon or tab columns, numbered, and quantity first. `n` is the line's number.
 */
export function listLineShapes(p: { brandName?: string | null; name: string; category: string }, code: string, quantity: number, n: number): string[] {
  return [
    `${quantity} x ${code}`,
    `${code.toLowerCase().replace(/[-./\s]/g, '')} qty ${quantity}`,
    `${p.brandName ?? ''} ${code} (${quantity} pcs)`.trim(),
    `${code};${quantity};${p.name}`,
    `${code}\t${quantity}\t${p.category}`,
    `${n}. ${code}, ${quantity}`,
    `Qty: ${quantity} — ${code} ${p.category.toLowerCase()}`,
  ];
}
