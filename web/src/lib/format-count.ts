/**
 * A whole count with thousands separators, as en-US writes it ("12,345"). Not Intl.NumberFormat: the page's first
 * Intl formatter loads the ICU locale data, 27-34 ms of main thread on a desktop (over 100 ms on a slow phone), in
 * the same task as the listing's hydration.
 */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const sign = n < 0 ? '-' : '';
  return sign + String(Math.trunc(Math.abs(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
