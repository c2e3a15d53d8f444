/** An order's number: the year it was placed and its place in that year, e.g. `2026-00042` (what buyers quote back). */
export const orderNumber = (year: string, n: number) => `${year}-${String(n).padStart(5, '0')}`;
