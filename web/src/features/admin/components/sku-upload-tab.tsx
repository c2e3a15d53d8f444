import type { MediaJobStatus, SkippedItem } from '@forgeline/contracts/media';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { useUploadIndividualSku } from '../api/upload-individual-sku.ts';
import { isJobFinished, useMediaJob } from '../api/upload-media-job.ts';
import { useProcessSkuImages } from '../api/upload-process-sku-images.ts';
import { uploadErrorMessage } from '../api/upload-request.ts';
import { ADMIN_QUERY_KEY } from '../hooks/use-admin-session.tsx';
import { ProgressBar } from './progress-bar.tsx';

/**
 * SKU Image Uploader: images (or a .zip) for one SKU and product name, sent to
 * POST /api/admin/upload-individual-sku (processing starts on its own), and a button for
 * POST /api/admin/process-sku-images to process the SKU's stored images again (optionally forced).
 */
export default function SkuUploadTab() {
  const id = useId();
  const [sku, setSku] = useState('');
  const [productName, setProductName] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [force, setForce] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);
  const [result, setResult] = useState<{ message: string; skipped: SkippedItem[] } | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const upload = useUploadIndividualSku();
  const processImages = useProcessSkuImages();
  const uploading = progress !== null;

  const submit = async () => {
    if (!sku.trim() || files.length === 0) return;
    setProgress(0);
    setResult(null);
    try {
      const res = await upload({ sku: sku.trim(), productName: productName.trim(), files }, setProgress);
      setResult({ message: res.message, skipped: res.skipped });
      setJobId(res.jobId);
      toast.success('All images uploaded successfully', { description: res.message });
      setFiles([]);
      if (inputRef.current) inputRef.current.value = '';
    } catch (err) {
      toast.error('Failed to upload images', { description: uploadErrorMessage(err) });
    } finally {
      setProgress(null);
    }
  };

  const reprocess = () => {
    if (!sku.trim()) return;
    processImages.mutate(
      { skus: [{ sku: sku.trim(), productName: productName.trim() }], forceReprocess: force },
      {
        onSuccess: (res) => {
          setJobId(res.jobId);
          setResult({ message: res.message, skipped: res.skipped });
        },
        onError: (err) => toast.error('Failed to process images', { description: uploadErrorMessage(err) }),
      },
    );
  };

  return (
    <section aria-labelledby="sku-upload-h" className="space-y-3">
      <h2 id="sku-upload-h" className="font-display text-2xl font-bold uppercase">
        SKU Image Uploader
      </h2>
      <p className="max-w-2xl text-sm text-steel">Upload images for one SKU: choose images or a .zip and name the product.</p>
      <form
        className="max-w-2xl space-y-4 rounded-lg border border-zinc-300 bg-white p-5"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <label className="block text-sm font-semibold" htmlFor={`${id}-sku`}>
            SKU
            <input
              id={`${id}-sku`}
              value={sku}
              onChange={(e) => setSku(e.target.value)}
              required
              className="mt-1 h-10 w-full rounded-md border border-zinc-300 px-3 font-mono text-sm font-normal focus:border-ink focus:outline-none"
            />
          </label>
          <label className="block text-sm font-semibold" htmlFor={`${id}-name`}>
            Product name
            <input
              id={`${id}-name`}
              value={productName}
              onChange={(e) => setProductName(e.target.value)}
              className="mt-1 h-10 w-full rounded-md border border-zinc-300 px-3 text-sm font-normal focus:border-ink focus:outline-none"
            />
          </label>
        </div>
        <label className="block text-sm font-semibold" htmlFor={`${id}-files`}>
          Images or .zip
          <input
            id={`${id}-files`}
            ref={inputRef}
            type="file"
            accept="image/*,.zip,application/zip"
            multiple
            disabled={uploading}
            onChange={(e) => setFiles(Array.from(e.target.files ?? []))}
            className="mt-1 block w-full text-sm font-normal file:mr-3 file:rounded-md file:border-0 file:bg-ink file:px-3 file:py-2 file:text-white"
          />
        </label>
        {files.length > 0 ? <p className="text-sm text-steel">{files.length} file(s) chosen</p> : null}
        {uploading ? <ProgressBar label="Upload progress" value={progress ?? 0} /> : null}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={uploading || !sku.trim() || files.length === 0}>
            {uploading ? 'Uploading...' : 'Upload images'}
          </Button>
          <Button variant="outline" onClick={reprocess} disabled={uploading || processImages.isPending || !sku.trim()}>
            {processImages.isPending ? 'Processing...' : 'Process images'}
          </Button>
          <label className="inline-flex items-center gap-2 text-sm">
            <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} />
            Force reprocess
          </label>
        </div>
      </form>
      {result ? <UploadResult message={result.message} skipped={result.skipped} /> : null}
      {jobId ? <MediaJobProgress jobId={jobId} /> : null}
    </section>
  );
}

/** The server's answer and every file it skipped, with the reason (never dropped silently). */
export function UploadResult({ message, skipped }: { message: string; skipped: SkippedItem[] }) {
  return (
    <div className="max-w-2xl space-y-2 rounded-md bg-zinc-50 p-4 text-sm" data-testid="upload-result">
      <p className="font-semibold">{message}</p>
      {skipped.length > 0 ? (
        <details open={skipped.length <= 10}>
          <summary className="cursor-pointer text-steel">{skipped.length} skipped</summary>
          <ul className="mt-2 list-disc space-y-1 pl-5" aria-label="Skipped files">
            {skipped.map((s, i) => (
              <li key={`${s.entry}-${i}`}>
                <span className="font-mono">{s.entry}</span>: {s.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

const STATE_TEXT: Record<MediaJobStatus['state'], string> = {
  queued: 'Queued',
  running: 'Processing',
  completed: 'Processing Complete',
  completed_with_errors: 'Processing Complete (with errors)',
  failed: 'Failed to process images',
};

/** Live progress of a media job (polled), with failures and their reasons; the product list reloads when it ends. */
export function MediaJobProgress({ jobId }: { jobId: string }) {
  const job = useMediaJob(jobId);
  const queryClient = useQueryClient();
  const announced = useRef<string | null>(null);
  const status = job.data;
  useEffect(() => {
    if (!status || !isJobFinished(status) || announced.current === jobId) return;
    announced.current = jobId;
    if (status.state === 'failed') toast.error('Failed to process images', { description: status.failures[0]?.reason });
    else toast.success('Processing Complete', { description: `${status.images.processed} processed, ${status.images.unchanged} unchanged, ${status.images.failed} failed` });
    void queryClient.invalidateQueries({ queryKey: [ADMIN_QUERY_KEY, 'products'] });
  }, [status, jobId, queryClient]);
  if (job.isError) {
    return (
      <p role="alert" className="text-sm text-red-800">
        {uploadErrorMessage(job.error)}
      </p>
    );
  }
  if (!status) return null;
  return (
    <div className="max-w-2xl space-y-2 rounded-md border border-zinc-300 bg-white p-4 text-sm" data-testid="media-job" data-state={status.state}>
      <p className="flex justify-between font-semibold">
        <span>{STATE_TEXT[status.state]}</span>
        <span>{Math.round(status.progress)}%</span>
      </p>
      <ProgressBar label="Processing progress" value={status.progress} />
      <p className="text-steel">
        SKUs: {status.skus.completed + status.skus.failed} of {status.skus.total} done · Images: {status.images.processed} processed,{' '}
        {status.images.unchanged} unchanged, {status.images.failed} failed
      </p>
      {status.failures.length > 0 ? (
        <ul className="list-disc space-y-1 pl-5 text-red-800" aria-label="Failures">
          {status.failures.slice(0, 50).map((f, i) => (
            <li key={`${f.sku}-${i}`}>
              <span className="font-mono">{f.sku}</span>
              {f.file ? ` / ${f.file}` : ''}: {f.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
