import type { AdminProductRow } from '@forgeline/contracts/products';
import { ImageOff } from 'lucide-react';
import { cn } from '../../../lib/cn.ts';

/** Rows of spec section 3, Admin product row; a row can be chosen as the target of an upload. */
export function AdminProductTable({
  products,
  selectedId,
  onSelect,
  caption,
}: {
  products: AdminProductRow[];
  selectedId?: string | null;
  onSelect?: (product: AdminProductRow) => void;
  caption: string;
}) {
  return (
    <div className="relative overflow-x-auto rounded-lg border border-zinc-200 bg-white">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-steel">
          <tr>
            <th scope="col" className="w-14 px-3 py-2">
              <span className="sr-only">Image</span>
            </th>
            <th scope="col" className="px-3 py-2">Name</th>
            <th scope="col" className="px-3 py-2">SKU</th>
            <th scope="col" className="px-3 py-2">Part #</th>
            <th scope="col" className="px-3 py-2">Category</th>
            {onSelect ? (
              <th scope="col" className="px-3 py-2">
                <span className="sr-only">Select</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {products.map((p) => {
            const selected = p.id === selectedId;
            const image = p.images[0] || p.imageUrl;
            return (
              <tr key={p.id} className={cn('border-t border-zinc-100', selected && 'bg-amber-50')} aria-selected={onSelect ? selected : undefined}>
                <td className="px-3 py-2">
                  {image ? (
                    <img src={image} alt="" width={40} height={40} loading="lazy" className="size-10 rounded bg-zinc-100 object-contain" />
                  ) : (
                    <span className="grid size-10 place-items-center rounded bg-zinc-100 text-zinc-400" title="No image yet">
                      <ImageOff className="size-4" aria-hidden="true" />
                    </span>
                  )}
                </td>
                <td className="px-3 py-2 font-medium text-ink">{p.name}</td>
                <td className="px-3 py-2 font-mono text-xs">{p.sku}</td>
                <td className="px-3 py-2 font-mono text-xs">{p.partNumber || 'N/A'}</td>
                <td className="px-3 py-2 text-steel">{p.category}</td>
                {onSelect ? (
                  <td className="px-3 py-2 text-right">
                    <button
                      type="button"
                      onClick={() => onSelect(p)}
                      className={cn(
                        'rounded-md px-3 py-1.5 text-xs font-semibold',
                        selected ? 'bg-ink text-white' : 'border border-zinc-300 text-ink hover:border-ink',
                      )}
                    >
                      {selected ? 'Selected' : 'Select'}
                    </button>
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
