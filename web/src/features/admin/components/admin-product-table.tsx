import type { AdminProductRow } from '@forgeline/contracts/products';
import { ImageOff } from 'lucide-react';
import { cn } from '../../../lib/cn.ts';
import { AdminTable } from './admin-table.tsx';

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
    <AdminTable
      caption={caption}
      columns={[
        { label: 'Image', hidden: true, className: 'w-14' },
        { label: 'Name' },
        { label: 'SKU' },
        { label: 'Part #' },
        { label: 'Category' },
        ...(onSelect ? [{ label: 'Select', hidden: true }] : []),
      ]}
    >
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
    </AdminTable>
  );
}
