import { CATALOG_IMPORT_MAX_MB, type CatalogImportJob } from '@forgeline/contracts/catalog-admin';
import { Download, FileSpreadsheet, Loader2, TriangleAlert, Upload } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { useCatalogDownloads, useCatalogImport, useStartCatalogImport } from '../api/catalog-imports.ts';
import { uploadErrorMessage } from '../api/upload-request.ts';
import { IMPORT_ERRORS_LISTED, ImportErrorsTable, ImportSummary } from './import-results.tsx';
import { ProgressBar } from './progress-bar.tsx';

/** The columns a catalogue file may have (the export writes all of them, in this order). */
const COLUMNS: [string, string][] = [
  ['sku', 'required: the key of every row'],
  ['name', 'required for a new part'],
  ['part_number', ''],
  ['brand', 'new brands are created'],
  ['category', 'required for a new part; new categories are created'],
  ['description', ''],
  ['in_stock', 'true/false, yes/no or 1/0'],
  ['availability', 'e.g. In Stock, Special Order'],
  ['price', 'a number, no currency'],
  ['weight', ''],
  ['dimensions', ''],
  ['tags', 'separated by |'],
  ['specifications', 'Name=Value|Name=Value'],
  ['images', 'URLs or stored paths, separated by |'],
  ['replaces', 'older part numbers this part supersedes, separated by |'],
  ['cross_references', 'Brand:Number|Brand:Number'],
  ['fits', 'Make:Model or Make:Model:FromSerial-ToSerial, separated by |'],
];

const STATE_LABEL: Record<CatalogImportJob['state'], string> = {
  queued: 'Waiting to start',
  running: 'Importing',
  completed: 'Completed',
  completed_with_errors: 'Completed with errors',
  failed: 'Failed',
};

const n = (v: number) => v.toLocaleString('en');

function duration(seconds: number) {
  if (!Number.isFinite(seconds) || seconds < 0) return '…';
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}

/**
 * Progress while it runs (rows of total, rate, time left), then the summary and the errors. `asOf` is when this
 * state of the job was read (the query's time): a running job's rate is its rows by then.
 */
function ImportStatus({ job, asOf }: { job: CatalogImportJob; asOf: number }) {
  const { importErrors } = useCatalogDownloads();
  const active = job.state === 'queued' || job.state === 'running';
  const elapsed = job.startedAt ? ((job.finishedAt ? Date.parse(job.finishedAt) : asOf) - Date.parse(job.startedAt)) / 1000 : 0;
  const rate = elapsed > 0 ? job.processed / elapsed : 0;
  const percent = job.total > 0 ? Math.min(100, (job.processed / job.total) * 100) : 0;
  return (
    <div className="space-y-4 rounded-lg border border-zinc-300 bg-white p-5" data-testid="import-status">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-display text-xl font-bold uppercase">
          {job.dryRun ? 'Dry run: ' : ''}
          {STATE_LABEL[job.state]}
        </h3>
        <span className="text-sm text-steel">{job.fileName}</span>
      </div>
      <ProgressBar label="Import progress" value={job.state === 'completed' || job.state === 'completed_with_errors' ? 100 : percent} />
      <p className="text-sm text-steel" aria-live="polite">
        {n(job.processed)} of {job.total ? n(job.total) : '…'} rows
        {rate > 0 ? ` · ${n(Math.round(rate))} rows/s` : ''}
        {active && rate > 0 && job.total ? ` · about ${duration((job.total - job.processed) / rate)} left` : ''}
        {!active && elapsed > 0 ? ` · took ${duration(elapsed)}` : ''}
      </p>
      {job.state === 'failed' ? (
        <p role="alert" className="flex items-start gap-2 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" /> {job.message}
        </p>
      ) : null}
      <ImportSummary
        counts={[
          ['New', job.created],
          ['Changed', job.updated],
          ['Unchanged', job.unchanged],
          ['Taken off', job.deactivated],
          ['Errors', job.errorCount],
        ]}
      />
      {job.dryRun && !active ? <p className="text-sm font-semibold text-ink">Nothing was changed: this is what the import will do.</p> : null}
      {job.unknownColumns.length ? (
        <p className="text-sm text-steel">Columns not read (not catalogue columns): {job.unknownColumns.join(', ')}</p>
      ) : null}
      {job.errorCount ? (
        <div className="space-y-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h4 className="font-semibold">Rows not imported</h4>
            <Button
              variant="outline"
              size="sm"
              onClick={() => void importErrors(job.id).catch((err: unknown) => toast.error('Download failed', { description: uploadErrorMessage(err) }))}
            >
              <Download className="size-4" aria-hidden="true" /> All {n(job.errorCount)} errors (CSV)
            </Button>
          </div>
          <ImportErrorsTable caption="Import errors by row and column" errors={job.errors} maxHeight="24rem" />
          {job.errorCount > IMPORT_ERRORS_LISTED ? <p className="text-xs text-steel">The first {IMPORT_ERRORS_LISTED} are shown; the CSV has all of them.</p> : null}
        </div>
      ) : null}
    </div>
  );
}

/** Catalogue: import a CSV/XLSX (dry run first if wanted), follow the job, export the whole catalogue. */
export default function CatalogTab() {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [dryRun, setDryRun] = useState(true);
  const [missing, setMissing] = useState<'keep' | 'deactivate'>('keep');
  const [sending, setSending] = useState<number | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const start = useStartCatalogImport();
  const job = useCatalogImport(jobId);
  const { exportCatalog } = useCatalogDownloads();

  const submit = async () => {
    if (!file) return;
    setSending(0);
    try {
      const res = await start(file, { dryRun, missing }, setSending);
      setJobId(res.id);
      toast.success(dryRun ? 'Dry run started' : 'Import started', { description: file.name });
    } catch (err) {
      toast.error('The file was not accepted', { description: uploadErrorMessage(err) });
    } finally {
      setSending(null);
    }
  };

  return (
    <section aria-labelledby={`${id}-h`} className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id={`${id}-h`} className="font-display text-2xl font-bold uppercase">
            Catalogue
          </h2>
          <p className="max-w-2xl text-sm text-steel">
            Import your parts from a CSV or XLSX file, one row per part keyed by SKU. Rows with a problem are skipped and listed; the rest go in. Importing
            the same file twice changes nothing.
          </p>
        </div>
        <Button
          variant="dark"
          disabled={exporting}
          onClick={() => {
            setExporting(true);
            exportCatalog()
              .catch((err: unknown) => toast.error('Export failed', { description: uploadErrorMessage(err) }))
              .finally(() => setExporting(false));
          }}
        >
          {exporting ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <Download className="size-4" aria-hidden="true" />}
          Export catalogue (CSV)
        </Button>
      </div>

      <form
        className="max-w-2xl space-y-4 rounded-lg border border-zinc-300 bg-white p-5"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label className="block text-sm font-semibold" htmlFor={`${id}-file`}>
          Catalogue file (CSV or XLSX, up to {CATALOG_IMPORT_MAX_MB} MB)
          <input
            id={`${id}-file`}
            ref={inputRef}
            type="file"
            accept=".csv,.txt,.tsv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            className="mt-2 block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-ink file:px-3 file:py-2 file:font-semibold file:text-white"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.target.checked)} className="size-4" />
          Dry run: report what the import would do, change nothing
        </label>
        <fieldset className="space-y-1 text-sm">
          <legend className="font-semibold">Parts in the catalogue but not in the file</legend>
          <label className="flex items-center gap-2">
            <input type="radio" name={`${id}-missing`} checked={missing === 'keep'} onChange={() => setMissing('keep')} className="size-4" />
            Keep them as they are
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name={`${id}-missing`} checked={missing === 'deactivate'} onChange={() => setMissing('deactivate')} className="size-4" />
            Take them off the storefront (kept, and back when a file names them again)
          </label>
        </fieldset>
        {sending !== null ? <ProgressBar label="Sending the file" value={sending} /> : null}
        <Button type="submit" variant="primary" disabled={!file || sending !== null}>
          {sending !== null ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <Upload className="size-4" aria-hidden="true" />}
          {sending !== null ? `Sending... ${sending}%` : dryRun ? 'Start dry run' : 'Start import'}
        </Button>
      </form>

      {job.data ? <ImportStatus job={job.data} asOf={job.dataUpdatedAt} /> : jobId && job.isPending ? <p className="text-sm text-steel">Starting...</p> : null}
      {job.isError ? (
        <p role="alert" className="text-sm text-red-700">
          The import's progress could not be read: {uploadErrorMessage(job.error)}
        </p>
      ) : null}

      <details className="max-w-2xl rounded-lg border border-zinc-300 bg-white p-5 text-sm">
        <summary className="flex cursor-pointer items-center gap-2 font-semibold">
          <FileSpreadsheet className="size-4" aria-hidden="true" /> Columns of the file
        </summary>
        <p className="mt-2 text-steel">
          Header names are matched without case or punctuation (Part Number, part_number and partNumber are the same). An empty cell leaves that field as
          it is. Other columns are listed, not read.
        </p>
        <ul className="mt-2 space-y-1">
          {COLUMNS.map(([name, note]) => (
            <li key={name}>
              <code className="font-mono font-semibold">{name}</code>
              {note ? <span className="text-steel"> · {note}</span> : null}
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}
