import { DIAGRAM_EXPORT_COLUMNS, DIAGRAM_LIMITS, type DiagramImportReport } from '@forgeline/contracts/parts-diagrams';
import { Download, FileSpreadsheet, Loader2, Upload } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { useExportDiagrams, useImportDiagrams } from '../api/assembly-csv.ts';
import { uploadErrorMessage } from '../api/upload-request.ts';
import { IMPORT_ERRORS_LISTED, ImportErrorsTable, ImportSummary } from './import-results.tsx';
import { ProgressBar } from './progress-bar.tsx';

const COLUMN_NOTES: Record<(typeof DIAGRAM_EXPORT_COLUMNS)[number], string> = {
  make: 'required: the machine make',
  model: 'required: the machine model',
  assembly: 'required: the assembly name (new ones are created)',
  callout: 'required: the number on the drawing, e.g. 7 or 12A',
  part_number: 'the part, by its part number (required unless sku is given)',
  sku: 'the part exactly, where two brands number parts alike',
  quantity: 'per assembly; 1 when empty',
  x: 'where the callout is drawn, % of the width from the left (with y; empty: not placed)',
  y: '% of the height from the top',
  serial_from: 'the first serial number the line applies to',
  serial_to: 'the last serial number',
  note: '',
};

const n = (v: number) => v.toLocaleString('en');

/** What an import did (or, dry, would do): the counts, and the rows it could not take, by row and column. */
function ImportReport({ report }: { report: DiagramImportReport }) {
  return (
    <div className="space-y-3 rounded-lg border border-zinc-300 bg-white p-4" data-testid="diagram-import-report">
      <h4 className="font-display text-lg font-bold uppercase">
        {report.dryRun ? 'Dry run: ' : ''}
        {report.errorCount ? 'Read, with errors' : 'Done'}
      </h4>
      <ImportSummary
        counts={[
          ['Rows', report.rows],
          ['New', report.created],
          ['Changed', report.updated],
          ['Unchanged', report.unchanged],
          ['Errors', report.errorCount],
        ]}
      />
      <p className="text-xs text-steel">New, changed and unchanged count assemblies. An assembly with a bad row is left as it was.</p>
      {report.dryRun ? <p className="text-sm font-semibold text-ink">Nothing was changed: this is what the import will do.</p> : null}
      {report.unknownColumns.length ? <p className="text-sm text-steel">Columns not read (not diagram columns): {report.unknownColumns.join(', ')}</p> : null}
      {report.errors.length ? (
        <>
          <ImportErrorsTable caption="Diagram import errors by row and column" errors={report.errors} maxHeight="20rem" />
          {report.errorCount > Math.min(IMPORT_ERRORS_LISTED, report.errors.length) ? <p className="text-xs text-steel">The first {Math.min(IMPORT_ERRORS_LISTED, report.errors.length)} of {n(report.errorCount)} are shown.</p> : null}
        </>
      ) : null}
    </div>
  );
}

/**
 * The parts diagrams as a spreadsheet (#38): every assembly's lines exported as CSV, and a CSV or XLSX in the same
 * columns imported back (a dry run first, by default), with its report.
 */
export function DiagramCsv() {
  const id = useId();
  const exportCsv = useExportDiagrams();
  const importFile = useImportDiagrams();
  const [exporting, setExporting] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [dryRun, setDryRun] = useState(true);
  const [sending, setSending] = useState<number | null>(null);
  const [report, setReport] = useState<DiagramImportReport | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    if (!file) return;
    setSending(0);
    setError(null);
    setReport(null);
    try {
      const r = await importFile(file, dryRun, setSending);
      setReport(r);
      if (!r.dryRun) toast.success('Diagrams imported', { description: file.name });
    } catch (err) {
      setError(uploadErrorMessage(err));
    } finally {
      setSending(null);
    }
  };

  return (
    <section aria-labelledby={`${id}-h`} className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id={`${id}-h`} className="font-display text-xl font-bold uppercase">
          CSV
        </h3>
        <Button
          variant="dark"
          size="sm"
          disabled={exporting}
          onClick={() => {
            setExporting(true);
            exportCsv()
              .catch((err: unknown) => toast.error('Export failed', { description: uploadErrorMessage(err) }))
              .finally(() => setExporting(false));
          }}
        >
          {exporting ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <Download className="size-4" aria-hidden="true" />}
          Export CSV
        </Button>
      </div>
      <form
        className="space-y-3 rounded-lg border border-zinc-300 bg-white p-4"
        aria-label="Import diagrams from a file"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label className="block text-sm font-semibold" htmlFor={`${id}-file`}>
          Diagrams file (CSV or XLSX, up to {DIAGRAM_LIMITS.csvMb} MB)
          <input
            id={`${id}-file`}
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
        {sending !== null ? <ProgressBar label="Sending the file" value={sending} /> : null}
        {error ? (
          <p role="alert" className="text-sm text-red-700">
            The file was not accepted: {error}
          </p>
        ) : null}
        <Button type="submit" variant="primary" size="sm" disabled={!file || sending !== null}>
          {sending !== null ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <Upload className="size-4" aria-hidden="true" />}
          {sending !== null ? `Sending… ${sending}%` : dryRun ? 'Start dry run' : 'Import CSV'}
        </Button>
        <details className="text-sm">
          <summary className="flex cursor-pointer items-center gap-2 font-semibold">
            <FileSpreadsheet className="size-4" aria-hidden="true" /> Columns of the file
          </summary>
          <p className="mt-2 text-steel">
            One row per place a callout is drawn (x and y blank: not placed yet). Each assembly the file names gets the file's table in full; the others are left
            alone. The export writes these columns in this order.
          </p>
          <ul className="mt-2 space-y-1">
            {DIAGRAM_EXPORT_COLUMNS.map((c) => (
              <li key={c}>
                <code className="font-mono font-semibold">{c}</code>
                {COLUMN_NOTES[c] ? <span className="text-steel"> · {COLUMN_NOTES[c]}</span> : null}
              </li>
            ))}
          </ul>
        </details>
      </form>
      {report ? <ImportReport report={report} /> : null}
    </section>
  );
}
