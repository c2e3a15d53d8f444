import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Express, Request, Response } from 'express';
import { stringify } from 'csv-stringify';
import {
  CatalogImportParamsSchema,
  CatalogImportQuerySchema,
  type CatalogImportJob,
} from '@forgeline/contracts/catalog-admin';
import { HttpError, notFound, parseInput } from '@forgeline/service-kit/errors';
import { route } from '@forgeline/service-kit/http';
import { receiveMultipart } from '@forgeline/service-kit/multipart';
import { CATALOG_COLUMNS, CatalogFileError, exportRow, readHeader } from './domain/catalog-import.ts';
import type { ImportRunner } from './domain/import-runner.ts';
import { readTabularRows, TabularFileError } from './domain/tabular-file.ts';
import type { ProductRepository } from './ports.ts';

/** A catalogue file may be this large (a 500,000-row CSV with descriptions is about 150 MB). */
export const CATALOG_IMPORT_MAX_BYTES = 150 * 1024 * 1024;

const adminOf = (req: Request) => String(req.headers['x-admin-email'] ?? '').trim() || 'unknown';
const today = () => new Date().toISOString().slice(0, 10);

/** Streams `rows` as CSV (with a BOM, so spreadsheet programs read UTF-8) as a download named `fileName`. */
async function sendCsv(res: Response, fileName: string, rows: AsyncIterable<string[]>) {
  res.status(200).set({
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${fileName}"`,
    'Cache-Control': 'no-store',
  });
  res.write('\uFEFF');
  await pipeline(Readable.from(rows), stringify(), res);
}

/**
 * The seller's catalogue (admin; the gateway checks the session): POST an import (a background job: 202 with its
 * id), follow it, download its errors, export the catalogue in the same columns.
 */
export function registerCatalogAdminRoutes(app: Express, deps: { repo: ProductRepository; imports: ImportRunner; tmpDir: string }) {
  const { repo, imports } = deps;

  app.post(
    '/api/admin/catalog/imports',
    route(async (req, res) => {
      const q = parseInput(CatalogImportQuerySchema, req.query, 'query');
      const received = await receiveMultipart(req, {
        tmpRoot: deps.tmpDir,
        fileFields: ['file'],
        limits: { maxFileBytes: CATALOG_IMPORT_MAX_BYTES, maxRequestBytes: CATALOG_IMPORT_MAX_BYTES + 1024 * 1024, maxFiles: 1 },
      });
      const file = received.files[0];
      if (!file) {
        await received.cleanup();
        throw new HttpError(400, 'Send the catalogue as the multipart field "file" (a CSV or XLSX file)', [{ path: 'file', message: 'is missing' }]);
      }
      // The file's kind and header are checked now, so a wrong file is a 400 at once rather than a failed job.
      try {
        for await (const { cells } of readTabularRows(file.path, { maxRows: 50 })) {
          if (cells.some((c) => c.trim())) {
            readHeader(cells);
            break;
          }
        }
      } catch (err) {
        await received.cleanup();
        if (err instanceof TabularFileError || err instanceof CatalogFileError) {
          throw new HttpError(400, `Invalid catalogue file "${file.filename}": ${err.message}`, [{ path: 'file', message: err.message }]);
        }
        throw err;
      }
      const job: CatalogImportJob = {
        id: randomUUID(),
        state: 'queued',
        dryRun: q.dryRun,
        missing: q.missing,
        fileName: file.filename.slice(0, 200),
        total: 0,
        processed: 0,
        created: 0,
        updated: 0,
        unchanged: 0,
        deactivated: 0,
        errorCount: 0,
        errors: [],
        unknownColumns: [],
        message: null,
        createdBy: adminOf(req),
        createdAt: new Date().toISOString(),
        startedAt: null,
        finishedAt: null,
      };
      // The runner owns the file from here (it removes it when the import ends); the request's folder goes now.
      const kept = path.join(deps.tmpDir, `import-${job.id}`);
      await rename(file.path, kept);
      await received.cleanup();
      try {
        await imports.start({ job, path: kept });
      } catch (err) {
        await rm(kept, { force: true });
        throw err;
      }
      req.log.info({ importId: job.id, file: job.fileName, bytes: file.size, dryRun: job.dryRun, missing: job.missing, by: job.createdBy }, 'catalogue import queued');
      res.status(202).location(`/api/admin/catalog/imports/${job.id}`).json({ id: job.id });
    }),
  );

  app.get(
    '/api/admin/catalog/imports/:id',
    route(async (req, res) => {
      const { id } = parseInput(CatalogImportParamsSchema, req.params, 'params');
      const job = await imports.get(id);
      if (!job) throw notFound(`Import ${id}`);
      res.setHeader('cache-control', 'no-store');
      res.json(job);
    }),
  );

  app.get(
    '/api/admin/catalog/imports/:id/errors.csv',
    route(async (req, res) => {
      const { id } = parseInput(CatalogImportParamsSchema, req.params, 'params');
      const job = await imports.get(id);
      if (!job) throw notFound(`Import ${id}`);
      async function* rows() {
        yield ['row', 'column', 'message'];
        for await (const batch of repo.importErrors(id, 5000)) for (const e of batch) yield [String(e.row), e.column, e.message];
      }
      await sendCsv(res, `import-${id.slice(0, 8)}-errors.csv`, rows());
    }),
  );

  app.get(
    '/api/admin/catalog/export.csv',
    route(async (req, res) => {
      const started = Date.now();
      let count = 0;
      async function* rows() {
        yield [...CATALOG_COLUMNS];
        for await (const batch of repo.scan(2000)) {
          for (const p of batch) yield exportRow(p);
          count += batch.length;
        }
      }
      await sendCsv(res, `catalogue-${today()}.csv`, rows());
      req.log.info({ products: count, ms: Date.now() - started, by: adminOf(req) }, 'catalogue exported');
    }),
  );
}
