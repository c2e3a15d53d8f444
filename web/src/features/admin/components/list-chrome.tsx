import { Download, RefreshCw } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';

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
