import type { AdminProductRow } from '@forgeline/contracts/products';
import { Search } from 'lucide-react';
import { useId, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { HEADER_SEARCH_DEBOUNCE_MS } from '../../../config/constants.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { useAdminProducts } from '../api/get-admin-products.ts';
import { AdminProductTable } from './admin-product-table.tsx';

/** GET /api/admin/products?search=: the product list with its search box. */
export function AdminProductList({
  selectedId,
  onSelect,
}: {
  selectedId?: string | null;
  onSelect?: (product: AdminProductRow) => void;
}) {
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search, HEADER_SEARCH_DEBOUNCE_MS);
  const products = useAdminProducts(debounced);
  const id = useId();
  return (
    <section aria-labelledby={`${id}-h`} className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id={`${id}-h`} className="font-display text-2xl font-bold uppercase">
          Products
        </h2>
        <label className="relative w-full max-w-sm">
          <span className="sr-only">Search products</span>
          <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-zinc-400" aria-hidden="true" />
          <input
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Search products by name, SKU or part number..."
            className="h-10 w-full rounded-md border border-zinc-300 bg-white pl-9 pr-3 text-sm focus:border-ink focus:outline-none"
          />
        </label>
      </div>
      {products.isPending ? (
        <Spinner label="Loading products..." />
      ) : products.isError ? (
        <p role="alert" className="rounded-md bg-red-50 p-4 text-sm text-red-800">
          Failed to fetch products
        </p>
      ) : products.data.length === 0 ? (
        <p className="rounded-md bg-white p-6 text-center text-sm text-steel">No products found</p>
      ) : (
        <AdminProductTable products={products.data} selectedId={selectedId} onSelect={onSelect} caption="Products" />
      )}
    </section>
  );
}
