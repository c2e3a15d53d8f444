export type PageItem = number | 'start-ellipsis' | 'end-ellipsis';

/** First, last, the current page and its neighbours, with ellipses for the gaps: 1 … 4 5 6 … 20. */
export function pageItems(current: number, total: number, neighbours = 1): PageItem[] {
  if (total <= 1) return [1];
  const pages = new Set<number>([1, total]);
  for (let p = current - neighbours; p <= current + neighbours; p++) if (p >= 1 && p <= total) pages.add(p);
  const sorted = [...pages].sort((a, b) => a - b);
  const out: PageItem[] = [];
  sorted.forEach((p, i) => {
    const prev = sorted[i - 1];
    if (prev !== undefined && p - prev === 2) out.push(prev + 1);
    else if (prev !== undefined && p - prev > 2) out.push(i === sorted.length - 1 ? 'end-ellipsis' : 'start-ellipsis');
    out.push(p);
  });
  return out;
}

/** Keeps a page number within 1..total. */
export const clampPage = (page: number, total: number) => Math.min(Math.max(1, Math.trunc(page) || 1), Math.max(1, total));
