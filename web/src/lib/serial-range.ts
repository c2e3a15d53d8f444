import type { Fitment } from '@forgeline/contracts/products';

/**
 * A fit's serial range as the Fits table shows it: "All" without one, "RJS00001–RJS04999" with both ends, and an open
 * end in words ("From RJS05000", "Up to RJS04999"), since "RJS05000–" is easily misread.
 */
export function formatSerialRange(fit: Pick<Fitment, 'serialFrom' | 'serialTo'>): string {
  const from = fit.serialFrom?.trim();
  const to = fit.serialTo?.trim();
  if (from && to) return from === to ? from : `${from}–${to}`;
  if (from) return `From ${from}`;
  if (to) return `Up to ${to}`;
  return 'All';
}

/** The Fits table's rows: by make, then model, then the range's start (open starts first); exact repeats once. */
export function sortFits(fits: readonly Fitment[]): Fitment[] {
  const seen = new Set<string>();
  const byText = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' });
  return fits
    .filter((f) => {
      const key = [f.make, f.model, f.serialFrom ?? '', f.serialTo ?? ''].map((s) => s.trim().toLowerCase()).join('\u0000');
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => byText(a.make, b.make) || byText(a.model, b.model) || byText(a.serialFrom ?? '', b.serialFrom ?? ''));
}
