import type { BulkZipResult } from '@forgeline/contracts/media';
import { useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { useUploadBulkZip } from '../api/upload-bulk-zip.ts';
import { uploadErrorMessage } from '../api/upload-request.ts';
import { ProgressBar } from './progress-bar.tsx';
import { MediaJobProgress, UploadResult } from './sku-upload-tab.tsx';

/**
 * Bulk Upload: one .zip holding a folder per SKU with its images, sent to POST /api/admin/upload-bulk-zip;
 * then the result (SKUs, files extracted, what was skipped and why) and the job's live progress.
 */
export default function BulkUploadTab() {
  const id = useId();
  const [zip, setZip] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<BulkZipResult | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const upload = useUploadBulkZip();
  const uploading = progress !== null;

  const submit = async () => {
    if (!zip) return;
    setProgress(0);
    setResult(null);
    try {
      const res = await upload(zip, setProgress);
      setResult(res);
      toast.success('All images uploaded successfully', { description: res.message });
      setZip(null);
      if (inputRef.current) inputRef.current.value = '';
    } catch (err) {
      toast.error('Failed to upload ZIP', { description: uploadErrorMessage(err) });
    } finally {
      setProgress(null);
    }
  };

  return (
    <section aria-labelledby="bulk-upload-h" className="space-y-3">
      <h2 id="bulk-upload-h" className="font-display text-2xl font-bold uppercase">
        Bulk Upload
      </h2>
      <p className="max-w-2xl text-sm text-steel">
        Upload a .zip holding one folder per SKU, each with that SKU&apos;s images inside.
      </p>
      <form
        className="max-w-2xl space-y-4 rounded-lg border border-zinc-300 bg-white p-5"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label className="block text-sm font-semibold" htmlFor={`${id}-zip`}>
          ZIP file
          <input
            id={`${id}-zip`}
            ref={inputRef}
            type="file"
            accept=".zip,application/zip"
            disabled={uploading}
            onChange={(e) => setZip(e.target.files?.[0] ?? null)}
            className="mt-1 block w-full text-sm font-normal file:mr-3 file:rounded-md file:border-0 file:bg-ink file:px-3 file:py-2 file:text-white"
          />
        </label>
        {uploading ? <ProgressBar label="Upload progress" value={progress ?? 0} /> : null}
        <Button type="submit" disabled={uploading || !zip}>
          {uploading ? (progress !== null && progress >= 99 ? 'Extracting...' : 'Uploading...') : 'Upload ZIP'}
        </Button>
      </form>
      {result ? (
        <>
          <UploadResult message={result.message} skipped={result.skipped} />
          <dl className="grid max-w-2xl grid-cols-2 gap-3 text-sm" data-testid="bulk-result">
            <div className="rounded-md bg-white p-3">
              <dt className="text-steel">SKUs processed</dt>
              <dd className="text-xl font-bold">{result.skusProcessed}</dd>
            </div>
            <div className="rounded-md bg-white p-3">
              <dt className="text-steel">Files extracted</dt>
              <dd className="text-xl font-bold">{result.filesExtracted}</dd>
            </div>
          </dl>
          {result.skus.length > 0 ? (
            <p className="max-w-2xl text-sm text-steel">
              SKUs: <span className="font-mono">{result.skus.slice(0, 100).join(', ')}</span>
              {result.skus.length > 100 ? ` and ${result.skus.length - 100} more` : ''}
            </p>
          ) : null}
          <MediaJobProgress jobId={result.jobId} />
        </>
      ) : null}
    </section>
  );
}
