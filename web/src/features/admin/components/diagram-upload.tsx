import { DIAGRAM_LIMITS } from '@forgeline/contracts/parts-diagrams';
import { FileUp, Loader2, TriangleAlert } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { isJobFinished, useMediaJob } from '../api/upload-media-job.ts';
import { useUploadDiagram } from '../api/upload-diagram.ts';
import { uploadErrorMessage } from '../api/upload-request.ts';
import { ProgressBar } from './progress-bar.tsx';

const MAX_BYTES = DIAGRAM_LIMITS.imageMb * 1024 * 1024;

/**
 * A new drawing for the assembly (#38): an SVG, PNG or JPEG sent with its progress, then the workers' job followed
 * until the assembly has it (`onDone`: the editor reads the assembly again). A file over the limit is refused here,
 * before a byte is sent; the media service checks the content again.
 */
export function DiagramUpload({ assemblyId, hasDrawing, onDone }: { assemblyId: string; hasDrawing: boolean; onDone: () => void }) {
  const id = useId();
  const upload = useUploadDiagram();
  const [file, setFile] = useState<File | null>(null);
  const [sending, setSending] = useState<number | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const job = useMediaJob(jobId);
  const status = job.data;
  const finishedFor = useRef<string | null>(null);

  // The job done: the editor reads the assembly again (which then has the drawing, and shows this form afresh).
  useEffect(() => {
    if (!jobId || status?.state !== 'completed' || finishedFor.current === jobId) return;
    finishedFor.current = jobId;
    onDone();
  }, [jobId, status, onDone]);
  const jobFailed = status && (status.state === 'failed' || status.state === 'completed_with_errors') ? `The drawing could not be processed: ${status.failures[0]?.reason ?? 'unknown reason'}` : null;
  const shownError = error ?? jobFailed;

  const send = async () => {
    if (!file) return;
    setError(null);
    if (file.size > MAX_BYTES) {
      setError(`"${file.name}" is ${Math.round((file.size / 1024 / 1024) * 10) / 10} MB; a drawing may be at most ${DIAGRAM_LIMITS.imageMb} MB`);
      return;
    }
    setSending(0);
    setJobId(null);
    try {
      const res = await upload(assemblyId, file, setSending);
      setJobId(res.jobId);
    } catch (err) {
      setError(uploadErrorMessage(err));
    } finally {
      setSending(null);
    }
  };

  const processing = jobId !== null && (!status || !isJobFinished(status));
  const busy = sending !== null || processing;
  return (
    <form
      className="space-y-3 rounded-lg border border-zinc-300 bg-white p-4"
      aria-labelledby={`${id}-h`}
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <h3 id={`${id}-h`} className="font-semibold text-ink">
        {hasDrawing ? 'Replace the drawing' : 'Upload the drawing'}
      </h3>
      <label className="block text-sm" htmlFor={`${id}-file`}>
        Drawing file (SVG, PNG or JPEG, up to {DIAGRAM_LIMITS.imageMb} MB)
        <input
          id={`${id}-file`}
          type="file"
          accept=".svg,.png,.jpg,.jpeg,image/svg+xml,image/png,image/jpeg"
          disabled={busy}
          className="mt-2 block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-ink file:px-3 file:py-2 file:font-semibold file:text-white"
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setError(null);
          }}
        />
      </label>
      {sending !== null ? <ProgressBar label="Sending the drawing" value={sending} /> : null}
      {processing ? (
        <>
          <ProgressBar label="Processing the drawing" value={status?.progress ?? 0} />
          <p role="status" className="text-sm text-steel">
            Making the drawing's web copies…
          </p>
        </>
      ) : null}
      {job.isError && processing ? (
        <p role="alert" className="text-sm text-red-700">
          The drawing's progress could not be read: {uploadErrorMessage(job.error)}
        </p>
      ) : null}
      {shownError ? (
        <p role="alert" className="flex items-start gap-2 rounded-md border border-red-300 bg-red-50 p-2 text-sm text-red-800">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" /> {shownError}
        </p>
      ) : null}
      {status?.state === 'completed' ? (
        <p role="status" className="text-sm text-steel">
          The drawing is processed.
        </p>
      ) : null}
      <Button type="submit" variant="dark" size="sm" disabled={!file || busy}>
        {busy ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <FileUp className="size-4" aria-hidden="true" />}
        {sending !== null ? `Sending… ${sending}%` : processing ? 'Processing…' : 'Upload drawing'}
      </Button>
      <p className="text-xs text-steel">An SVG is drawn as a picture (nothing of its code is kept). The drawing is saved on its own, as a new version; your other changes stay to be saved.</p>
    </form>
  );
}
