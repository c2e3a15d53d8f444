import type { AdminProductRow } from '@forgeline/contracts/products';
import { ScanSearch } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { useSearchProductsByCode } from '../api/search-products-by-code.ts';
import { statusOf } from '../../../lib/api-error.ts';
import { AdminProductTable } from './admin-product-table.tsx';

/** GET /api/admin/search-products-by-code?q=: exact-ish part-number lookup; an empty query does nothing. */
export function PartNumberSearch({
  selectedId,
  onSelect,
}: {
  selectedId?: string | null;
  onSelect?: (product: AdminProductRow) => void;
}) {
  const [q, setQ] = useState('');
  const [results, setResults] = useState<AdminProductRow[] | null>(null);
  const search = useSearchProductsByCode();
  const id = useId();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const query = q.trim();
    if (!query || search.isPending) return;
    search.mutate(query, {
      onSuccess: (res) => {
        setResults(res.products);
        if (res.products.length === 0) toast.error('No Results', { description: 'No products found with that part number' });
      },
      onError: (err) => {
        // A 401 has already shown 'Session Expired' and returned to the login screen.
        if (statusOf(err) !== 401) toast.error('Failed to search products');
      },
    });
  };

  return (
    <section aria-labelledby={`${id}-h`} className="space-y-3">
      <h2 id={`${id}-h`} className="font-display text-2xl font-bold uppercase">
        Search by part number
      </h2>
      <form onSubmit={onSubmit} className="flex max-w-xl gap-2" role="search" aria-label="Part number search">
        <label className="flex-1">
          <span className="sr-only">Part number</span>
          <input
            value={q}
            onChange={(e) => setQ(e.target.value)}
            placeholder="Part number, e.g. 1R-0750"
            className="h-10 w-full rounded-md border border-zinc-300 bg-white px-3 font-mono text-sm focus:border-ink focus:outline-none"
          />
        </label>
        <Button type="submit" variant="dark" size="sm" className="h-10" disabled={search.isPending}>
          <ScanSearch className="size-4" aria-hidden="true" />
          {search.isPending ? 'Searching...' : 'Search'}
        </Button>
      </form>
      {results && results.length > 0 ? (
        <AdminProductTable products={results} selectedId={selectedId} onSelect={onSelect} caption="Part number matches" />
      ) : null}
    </section>
  );
}
