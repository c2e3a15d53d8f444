import { CatalogImportCreatedSchema, CatalogImportQuerySchema, type CatalogImportJob } from '@forgeline/contracts/catalog-admin';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { importJob, signedIn } from '../../../../test/fixtures.ts';
import { server } from '../../../../test/msw-server.ts';
import { renderApp } from '../../../../test/render.tsx';
import CatalogTab from './catalog-tab.tsx';

/** The catalogue service's imports, in memory: what each POST received, and the job each GET answers. */
let started: { query: unknown; fileName: string; content: string }[];
/** The job states a GET answers in turn (the last one stays), so a test can follow a running import. */
let states: Partial<CatalogImportJob>[];
let job: CatalogImportJob;

beforeEach(() => {
  started = [];
  states = [{}];
  server.use(
    signedIn(),
    http.post('/api/admin/catalog/imports', async ({ request }) => {
      const query = CatalogImportQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
      const file = (await request.formData()).get('file') as File;
      started.push({ query, fileName: file.name, content: await file.text() });
      job = importJob({ dryRun: query.dryRun, missing: query.missing, fileName: file.name });
      return HttpResponse.json(CatalogImportCreatedSchema.parse({ id: job.id }), { status: 202 });
    }),
    http.get('/api/admin/catalog/imports/:id', ({ params }) => {
      if (params.id !== job.id) return HttpResponse.json({ message: 'Import not found' }, { status: 404 });
      const next = states.length > 1 ? states.shift()! : states[0]!;
      return HttpResponse.json(importJob({ ...job, ...next }));
    }),
  );
});

const CSV = 'sku,name,category,colour\nCAT-1,Oil Filter,Filters,red\n';
const fileInput = () => screen.getByLabelText(/^Catalogue file/);
const status = () => screen.findByTestId('import-status');

async function startWith(file = new File([CSV], 'parts.csv', { type: 'text/csv' }), options: { dryRun?: boolean; deactivate?: boolean } = {}) {
  const r = renderApp(<CatalogTab />, { admin: true });
  await r.user.upload(fileInput(), file);
  if (options.dryRun === false) await r.user.click(screen.getByLabelText(/^Dry run/));
  if (options.deactivate) await r.user.click(screen.getByLabelText(/^Take them off the storefront/));
  await r.user.click(screen.getByRole('button', { name: /^Start (dry run|import)$/ }));
  return r;
}

describe('CatalogTab: importing a catalogue file', () => {
  it('offers the dry run first, and starts nothing before a file is chosen', async () => {
    const { user } = renderApp(<CatalogTab />, { admin: true });
    expect(screen.getByLabelText(/^Dry run/)).toBeChecked();
    expect(screen.getByRole('button', { name: 'Start dry run' })).toBeDisabled();
    await user.click(screen.getByLabelText(/^Dry run/));
    expect(screen.getByRole('button', { name: 'Start import' })).toBeDisabled();
    await user.upload(fileInput(), new File([CSV], 'parts.csv', { type: 'text/csv' }));
    expect(screen.getByRole('button', { name: 'Start import' })).toBeEnabled();
  });

  it('sends the file for a dry run and shows what the import would do, changing nothing', async () => {
    await startWith();
    const box = await status();
    expect(started).toEqual([{ query: { dryRun: true, missing: 'keep' }, fileName: 'parts.csv', content: CSV }]);
    expect(within(box).getByRole('heading', { level: 3 })).toHaveTextContent('Dry run: Completed');
    expect(within(box).getByText('Nothing was changed: this is what the import will do.')).toBeInTheDocument();
    expect(await screen.findByText('Dry run started')).toBeInTheDocument();
  });

  it('shows the summary of an import: new, changed, unchanged, taken off, errors', async () => {
    states = [{ created: 1200, updated: 35, unchanged: 4, deactivated: 7, errorCount: 0 }];
    await startWith(undefined, { dryRun: false, deactivate: true });
    const box = await status();
    expect(started[0]!.query).toEqual({ dryRun: false, missing: 'deactivate' });
    expect(within(box).getByRole('heading', { level: 3 })).toHaveTextContent(/^Completed$/);
    const summary = within(box).getByLabelText('Import summary');
    const figures = Object.fromEntries(within(summary).getAllByRole('term').map((t) => [t.textContent, t.nextElementSibling?.textContent]));
    expect(figures).toEqual({ New: '1,200', Changed: '35', Unchanged: '4', 'Taken off': '7', Errors: '0' });
    expect(within(box).getByRole('progressbar', { name: 'Import progress' })).toHaveAttribute('aria-valuenow', '100');
    expect(within(box).queryByText(/Nothing was changed/)).not.toBeInTheDocument();
  });

  it('lists the rows not imported by row and column, and the columns it did not read', async () => {
    states = [
      {
        state: 'completed_with_errors',
        errorCount: 2,
        errors: [
          { row: 7, column: 'category', message: 'is required for a new part' },
          { row: 3, column: 'price', message: 'must be a number' },
        ],
        unknownColumns: ['colour'],
      },
    ];
    await startWith();
    const box = await status();
    expect(within(box).getByRole('heading', { level: 3 })).toHaveTextContent('Dry run: Completed with errors');
    const rows = within(within(box).getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['3', 'price', 'must be a number'],
      ['7', 'category', 'is required for a new part'],
    ]);
    expect(within(box).getByRole('button', { name: 'All 2 errors (CSV)' })).toBeInTheDocument();
    expect(within(box).getByText('Columns not read (not catalogue columns): colour')).toBeInTheDocument();
  });

  it('follows a running import until it is done', async () => {
    states = [{ state: 'running', total: 3, processed: 1, finishedAt: null }, {}];
    await startWith();
    const box = await status();
    expect(within(box).getByRole('heading', { level: 3 })).toHaveTextContent('Dry run: Importing');
    expect(within(box).getByText(/^1 of 3 rows/)).toBeInTheDocument();
    expect(await within(box).findByRole('heading', { level: 3, name: 'Dry run: Completed' }, { timeout: 5000 })).toBeInTheDocument();
    expect(within(box).getByText(/^3 of 3 rows/)).toBeInTheDocument();
  });

  it('says why a failed import failed', async () => {
    states = [{ state: 'failed', message: 'The file is not a CSV or XLSX file' }];
    await startWith();
    const box = await status();
    expect(within(box).getByRole('heading', { level: 3 })).toHaveTextContent('Dry run: Failed');
    expect(within(box).getByRole('alert')).toHaveTextContent('The file is not a CSV or XLSX file');
  });

  it('says why a file was not accepted, and starts no import', async () => {
    server.use(http.post('/api/admin/catalog/imports', () => HttpResponse.json({ message: 'The file has no sku column' }, { status: 400 })));
    await startWith();
    expect(await screen.findByText('The file was not accepted')).toBeInTheDocument();
    expect(screen.getByText('The file has no sku column')).toBeInTheDocument();
    expect(screen.queryByTestId('import-status')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start dry run' })).toBeEnabled();
  });

  it("says when the import's progress cannot be read", async () => {
    server.use(http.get('/api/admin/catalog/imports/:id', () => HttpResponse.json({ message: 'Catalogue service unavailable' }, { status: 503 })));
    await startWith();
    expect(await screen.findByRole('alert')).toHaveTextContent("The import's progress could not be read: Catalogue service unavailable");
  });
});
