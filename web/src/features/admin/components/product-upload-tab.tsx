import type { AdminProductRow } from '@forgeline/contracts/products';
import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, ImagePlus, LoaderCircle, X, XCircle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { useUploadProductImage } from '../api/upload-product-image.ts';
import { uploadErrorMessage } from '../api/upload-request.ts';
import { ADMIN_QUERY_KEY } from '../hooks/use-admin-session.tsx';
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
          <ProductImageUploader product={selected} />
        </section>
      ) : null}
      <AdminProductList selectedId={selected?.id} onSelect={setSelected} />
    </div>
  );
}

/** Spec section 3, Upload queue item. */
interface QueueItem {
  key: string;
  file: File;
  progress: number;
  status: 'pending' | 'uploading' | 'completed' | 'error';
  preview: string;
  error?: string;
}

/**
 * Choose images for the selected product and upload them one call per file (spec section 4): each item
 * goes pending, uploading, then completed or error; only pending items can be removed. Progress is what
 * the browser reports while sending; where it reports nothing, the spec's simulated 20-per-100 ms steps.
 * When every item has completed, the selection resets and the product list reloads.
 */
function ProductImageUploader({ product }: { product: AdminProductRow }) {
  const uploadImage = useUploadProductImage();
  const queryClient = useQueryClient();
  const [items, setItems] = useState<QueueItem[]>([]);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const itemsRef = useRef(items);
  useEffect(() => {
    itemsRef.current = items;
  }, [items]);

  // A different product starts with an empty queue.
  const [queueFor, setQueueFor] = useState(product.id);
  if (queueFor !== product.id) {
    setQueueFor(product.id);
    setItems([]);
  }
  // Previews are object URLs: free them when the queue is left (another product, or the uploader closed). The
  // cleanup runs before the effect above stores the emptied queue, so it still sees the previews it frees.
  useEffect(() => () => itemsRef.current.forEach((i) => URL.revokeObjectURL(i.preview)), [product.id]);

  const update = (key: string, patch: Partial<QueueItem>) =>
    setItems((old) => old.map((i) => (i.key === key ? { ...i, ...patch } : i)));

  const choose = (files: FileList | null) => {
    if (!files?.length) return;
    const added = Array.from(files).map((file) => ({
      key: `${file.name}-${file.size}-${file.lastModified}-${Math.random().toString(36).slice(2)}`,
      file,
      progress: 0,
      status: 'pending' as const,
      preview: URL.createObjectURL(file),
    }));
    setItems((old) => [...old, ...added]);
    if (inputRef.current) inputRef.current.value = '';
  };

  const remove = (key: string) =>
    setItems((old) => {
      const item = old.find((i) => i.key === key);
      if (!item || item.status !== 'pending') return old;
      URL.revokeObjectURL(item.preview);
      return old.filter((i) => i.key !== key);
    });

  const uploadAll = async () => {
    const pending = itemsRef.current.filter((i) => i.status === 'pending');
    if (!pending.length) return;
    setBusy(true);
    // Outcomes are tracked here: state updates reach itemsRef only after the next render.
    const statuses = new Map(itemsRef.current.map((i) => [i.key, i.status]));
    let failed = 0;
    for (const item of pending) {
      if (!itemsRef.current.some((i) => i.key === item.key)) {
        statuses.delete(item.key); // removed while waiting its turn
        continue;
      }
      update(item.key, { status: 'uploading', progress: 0 });
      let reported = false;
      const simulated = window.setInterval(() => {
        if (!reported) setItems((old) => old.map((i) => (i.key === item.key ? { ...i, progress: Math.min(80, i.progress + 20) } : i)));
      }, 100);
      try {
        await uploadImage(product.id, item.file, (p) => {
          reported = true;
          update(item.key, { progress: p });
        });
        statuses.set(item.key, 'completed');
        update(item.key, { status: 'completed', progress: 100 });
      } catch (err) {
        failed += 1;
        statuses.set(item.key, 'error');
        const message = uploadErrorMessage(err);
        update(item.key, { status: 'error', error: message });
        toast.error('Upload failed', { description: `${item.file.name}: ${message}` });
      } finally {
        window.clearInterval(simulated);
      }
    }
    setBusy(false);
    if (failed > 0) {
      toast.error('Failed to upload images', { description: `${failed} of ${pending.length} could not be uploaded` });
      return;
    }
    if ([...statuses.values()].every((s) => s === 'completed')) {
      toast.success('All images uploaded successfully');
      itemsRef.current.forEach((i) => URL.revokeObjectURL(i.preview));
      setItems([]);
      await queryClient.invalidateQueries({ queryKey: [ADMIN_QUERY_KEY, 'products'] });
    }
  };

  const pendingCount = items.filter((i) => i.status === 'pending').length;
  return (
    <div className="mt-4 space-y-4 border-t border-zinc-200 pt-4" data-testid="product-image-uploader">
      <div className="flex flex-wrap items-center gap-3">
        <label className="inline-flex cursor-pointer items-center gap-2 rounded-md border-2 border-ink px-4 py-2 text-sm font-semibold hover:bg-ink hover:text-white">
          <ImagePlus className="size-4" aria-hidden="true" />
          Choose images
          <input
            ref={inputRef}
            type="file"
            accept="image/*"
            multiple
            className="sr-only"
            aria-label="Choose images"
            disabled={busy}
            onChange={(e) => choose(e.target.files)}
          />
        </label>
        <Button onClick={() => void uploadAll()} disabled={busy || pendingCount === 0}>
          {busy ? 'Uploading...' : `Upload ${pendingCount} image${pendingCount === 1 ? '' : 's'}`}
        </Button>
      </div>
      {items.length > 0 ? (
        <ul aria-label="Upload queue" className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
          {items.map((item) => (
            <li key={item.key} data-status={item.status} className="relative overflow-hidden rounded-md border border-zinc-300 bg-zinc-50">
              <img src={item.preview} alt={`Preview of ${item.file.name}`} className="aspect-square w-full object-cover" />
              <div className="space-y-1 p-2 text-xs">
                <p className="truncate font-medium" title={item.file.name}>
                  {item.file.name}
                </p>
                <div
                  role="progressbar"
                  aria-label={`Upload of ${item.file.name}`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={item.progress}
                  className="h-1.5 overflow-hidden rounded bg-zinc-200"
                >
                  <div
                    className={item.status === 'error' ? 'h-full bg-red-600' : 'h-full bg-safety transition-[width]'}
                    style={{ width: `${item.progress}%` }}
                  />
                </div>
                <p className="flex items-center gap-1 text-steel">
                  {item.status === 'uploading' ? <LoaderCircle className="size-3 animate-spin" aria-hidden="true" /> : null}
                  {item.status === 'completed' ? <CheckCircle2 className="size-3 text-green-700" aria-hidden="true" /> : null}
                  {item.status === 'error' ? <XCircle className="size-3 text-red-700" aria-hidden="true" /> : null}
                  <span>{item.status === 'uploading' && item.progress >= 99 ? 'processing' : item.status}</span>
                </p>
                {item.error ? (
                  <p role="alert" className="text-red-800">
                    {item.error}
                  </p>
                ) : null}
              </div>
              {item.status === 'pending' ? (
                <button
                  type="button"
                  onClick={() => remove(item.key)}
                  aria-label={`Remove ${item.file.name}`}
                  className="absolute right-1 top-1 rounded-full bg-white/90 p-1 shadow hover:bg-white"
                >
                  <X className="size-4" aria-hidden="true" />
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
