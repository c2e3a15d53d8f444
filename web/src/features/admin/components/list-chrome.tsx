import { Download, RefreshCw } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { formatCount } from '../../../lib/format-count.ts';

/** The Refresh and Export CSV buttons above a staff list (inbox, orders); a failed export says why in a toast. */
export function ListActions({ onRefresh, onExport }: { onRefresh: () => void; onExport: () => Promise<unknown> }) {
  return (
    <div className="flex gap-2">
      <Button variant="outline" size="sm" onClick={onRefresh}>
        <RefreshCw className="size-4" aria-hidden="true" /> Refresh
      </Button>
      <Button
        variant="outline"
        size="sm"
        onClick={() => void onExport().catch((err: unknown) => toast.error('Export failed', { description: err instanceof Error ? err.message : String(err) }))}
      >
        <Download className="size-4" aria-hidden="true" /> Export CSV
      </Button>
    </div>
  );
}

/** Previous / "Page n of m" / Next under a staff list. */
export function ListPager({ label, page, totalPages, onPage }: { label: string; page: number; totalPages: number; onPage: (page: number) => void }) {
  return (
    <nav aria-label={label} className="mt-4 flex items-center justify-between gap-3">
      <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span className="text-sm text-steel">
        Page {page} of {formatCount(totalPages)}
      </span>
      <Button variant="outline" size="sm" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
