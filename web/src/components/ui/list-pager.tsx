import { formatCount } from '../../lib/format-count.ts';
import { Button } from './button.tsx';

/** Previous / "Page n of m" / Next under a long list (staff's inbox and orders, a buyer's quotes and orders). */
export function ListPager({ label, page, totalPages, onPage }: { label: string; page: number; totalPages: number; onPage: (page: number) => void }) {
  return (
    <nav aria-label={label} className="mt-4 flex items-center justify-between gap-3">
      <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span className="text-sm text-steel">
        Page {formatCount(page)} of {formatCount(totalPages)}
      </span>
      <Button variant="outline" size="sm" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
