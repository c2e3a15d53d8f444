import type { AdminProductRow } from '@forgeline/contracts/products';
import { useState } from 'react';
import { AdminProductList } from './admin-product-list.tsx';
import { PartNumberSearch } from './part-number-search.tsx';

/**
 * Product Upload: find a product (part-number search or the list) and choose it; its images are uploaded
 * with POST /api/admin/products/{id}/upload-image (the uploader comes with the media feature, beside the
 * selected product below).
 */
export default function ProductUploadTab() {
  const [selected, setSelected] = useState<AdminProductRow | null>(null);
  return (
    <div className="space-y-10">
      <PartNumberSearch selectedId={selected?.id} onSelect={setSelected} />
      {selected ? (
        <section aria-label="Selected product" className="rounded-lg border-2 border-safety bg-white p-5">
          <p className="text-xs font-semibold uppercase tracking-wide text-steel">Selected product</p>
          <p className="mt-1 text-lg font-bold">{selected.name}</p>
          <p className="font-mono text-sm text-steel">
            SKU {selected.sku} · Part # {selected.partNumber || 'N/A'}
          </p>
        </section>
      ) : null}
      <AdminProductList selectedId={selected?.id} onSelect={setSelected} />
    </div>
  );
}
