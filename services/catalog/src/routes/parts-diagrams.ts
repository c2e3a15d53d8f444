import type { Express, Request } from 'express';
import {
  AdminAssembliesQuerySchema,
  AssemblyCreateSchema,
  AssemblyIdParamsSchema,
  AssemblyParamsSchema,
  AssemblyUpdateSchema,
  DIAGRAM_LIMITS,
  DiagramImportQuerySchema,
  DiagramSchema,
  MachineParamsSchema,
  assemblyPath,
  type Assembly,
  type MachinePage,
} from '@forgeline/contracts/parts-diagrams';
import { SITEMAP_MAX_URLS, type SitemapAssembliesResponse } from '@forgeline/contracts/sitemap';
import { slugify } from '@forgeline/contracts/slug';
import { HttpError, notFound, parseInput } from '@forgeline/service-kit/errors';
import { route } from '@forgeline/service-kit/http';
import { receiveMultipart } from '@forgeline/service-kit/multipart';
import type { ResponseCache } from '@forgeline/service-kit/response-cache';
import type { Logger } from '@forgeline/service-kit/logger';
import { readTabularRows, TabularFileError } from '../adapters/spreadsheet/tabular-file.ts';
import { CATALOG_IMPORT_XLSX_LIMITS } from '../adapters/spreadsheet/xlsx-limits.ts';
import { DIAGRAM_EXPORT_COLUMNS, DiagramConflictError, DiagramFileError, exportRows, importDiagramRows, readDiagramHeader } from '../domain/diagram-csv.ts';
import { assemblyPage, contentOf, describeChange, freeSlug, historyEntry, newAssembly, sortCallouts, summaryOf, unknownParts } from '../domain/parts-diagrams.ts';
import type { DiagramStore, ProductRepository } from '../ports.ts';
import { sendCsv } from './catalog-admin.ts';

const adminOf = (req: Request) => String(req.headers['x-admin-email'] ?? '').trim() || 'unknown';
const today = () => new Date().toISOString().slice(0, 10);
const quoted = (text: string) => `"${text.length > 60 ? `${text.slice(0, 60)}…` : text}"`;
const CONFLICT = 'Someone else changed this assembly since you opened it; reload it and make your change again';

/** The staff's list row: the assembly without its table. */
const adminRow = (a: Assembly) => {
  const { callouts: _c, ...rest } = a;
  return { ...rest, calloutCount: summaryOf(a).calloutCount, lineCount: a.callouts.length };
};

/**
 * Parts diagrams over HTTP (#38): the buyer's machine and assembly pages (public, ready-made answers), the staff's
 * editor (admin: the gateway checks the session), the CSV import and export, and the media worker's drawing.
 */
export function registerPartsDiagramRoutes(
  app: Express,
  deps: { repo: ProductRepository; diagrams: DiagramStore; cache: ResponseCache; tmpDir: string; logger: Logger; onChange: () => void },
) {
  const { repo, diagrams, cache } = deps;

  /** A machine's page: its assemblies, and how many parts fit it. Names or slugs both find it. */
  app.get(
    '/api/machines/:make/:model',
    cache.json(async (req) => {
      const p = parseInput(MachineParamsSchema, req.params, 'params');
      const [makeSlug, modelSlug] = [slugify(p.make), slugify(p.model)];
      const [fitment, assemblies] = await Promise.all([repo.listMachineModels(makeSlug), diagrams.listForModel(makeSlug, modelSlug)]);
      const model = fitment?.models.find((m) => m.slug === modelSlug);
      if (!model && !assemblies.length) throw notFound(`Machine ${quoted(`${p.make} ${p.model}`)}`);
      const body: MachinePage = {
        make: fitment?.make.name ?? assemblies[0]!.make,
        model: model?.name ?? assemblies[0]!.model,
        makeSlug,
        modelSlug,
        productCount: model?.productCount ?? 0,
        assemblies: assemblies.map(summaryOf),
      };
      return body;
    }),
  );

  app.get(
    '/api/machines/:make/:model/assemblies/:assembly',
    cache.json(async (req) => {
      const p = parseInput(AssemblyParamsSchema, req.params, 'params');
      const a = await diagrams.getBySlug(slugify(p.make), slugify(p.model), slugify(p.assembly));
      if (!a) throw notFound(`Assembly ${quoted(p.assembly)} of ${quoted(`${p.make} ${p.model}`)}`);
      return assemblyPage(repo, diagrams, a);
    }),
  );

  // Staff: the list, one assembly with its parts named, create, change, delete, history, CSV out and in.
  app.get(
    '/api/admin/assemblies',
    route(async (req, res) => {
      const q = parseInput(AdminAssembliesQuerySchema, req.query, 'query');
      const items = await diagrams.list({
        makeSlug: q.make ? slugify(q.make) : undefined,
        modelSlug: q.model ? slugify(q.model) : undefined,
        search: q.search || undefined,
        limit: 200,
      });
      res.setHeader('cache-control', 'no-store');
      res.json({ assemblies: items.map(adminRow) });
    }),
  );

  app.get(
    '/api/admin/assemblies/export.csv',
    route(async (req, res) => {
      const started = Date.now();
      let count = 0;
      async function* rows() {
        yield [...DIAGRAM_EXPORT_COLUMNS];
        for await (const batch of diagrams.scan(200)) {
          const ids = [...new Set(batch.flatMap((a) => a.callouts.map((c) => c.partId)))];
          const parts = new Map((await repo.getSummaries(ids)).map((s) => [s.id, s]));
          for (const a of batch) yield* exportRows(a, (id) => parts.get(id));
          count += batch.length;
        }
      }
      await sendCsv(res, `parts-diagrams-${today()}.csv`, rows());
      req.log.info({ assemblies: count, ms: Date.now() - started, by: adminOf(req) }, 'parts diagrams exported');
    }),
  );

  app.post(
    '/api/admin/assemblies/import',
    route(async (req, res) => {
      const q = parseInput(DiagramImportQuerySchema, req.query, 'query');
      const maxBytes = DIAGRAM_LIMITS.csvMb * 1024 * 1024;
      const received = await receiveMultipart(req, {
        tmpRoot: deps.tmpDir,
        fileFields: ['file'],
        limits: { maxFileBytes: maxBytes, maxRequestBytes: maxBytes + 1024 * 1024, maxFiles: 1 },
      });
      try {
        const file = received.files[0];
        if (!file) throw new HttpError(400, 'Send the diagrams as the multipart field "file" (a CSV or XLSX file)', [{ path: 'file', message: 'is missing' }]);
        let header: ReturnType<typeof readDiagramHeader> | undefined;
        const rows: { row: number; cells: string[] }[] = [];
        try {
          for await (const r of readTabularRows(file.path, { maxRows: DIAGRAM_LIMITS.csvRows + 1, limits: CATALOG_IMPORT_XLSX_LIMITS })) {
            if (!header) {
              if (r.cells.some((c) => c.trim())) header = readDiagramHeader(r.cells);
              continue;
            }
            rows.push(r);
          }
        } catch (err) {
          if (err instanceof TabularFileError || err instanceof DiagramFileError) {
            throw new HttpError(400, `Invalid diagrams file "${file.filename}": ${err.message}`, [{ path: 'file', message: err.message }]);
          }
          throw err;
        }
        if (!header) throw new HttpError(400, `Invalid diagrams file "${file.filename}": it is empty`, [{ path: 'file', message: 'is empty' }]);
        if (rows.length > DIAGRAM_LIMITS.csvRows) {
          throw new HttpError(400, `Invalid diagrams file "${file.filename}": more than ${DIAGRAM_LIMITS.csvRows} rows; split it`, [{ path: 'file', message: 'has too many rows' }]);
        }
        const started = Date.now();
        let report;
        try {
          report = await importDiagramRows({ repo, diagrams }, header, rows, { dryRun: q.dryRun, actor: adminOf(req), fileName: file.filename.slice(0, 200) });
        } catch (err) {
          if (err instanceof DiagramConflictError) throw new HttpError(409, err.message);
          throw err;
        }
        const { changed, ...body } = report;
        if (changed.length) deps.onChange();
        req.log.info(
          { file: file.filename.slice(0, 200), rows: body.rows, created: body.created, updated: body.updated, unchanged: body.unchanged, errors: body.errorCount, dryRun: body.dryRun, ms: Date.now() - started, by: adminOf(req) },
          'parts diagrams imported',
        );
        res.json(body);
      } finally {
        await received.cleanup();
      }
    }),
  );

  app.post(
    '/api/admin/assemblies',
    route(async (req, res) => {
      const body = parseInput(AssemblyCreateSchema, req.body, 'body');
      const [makeSlug, modelSlug] = [slugify(body.make), slugify(body.model)];
      if (!makeSlug || !modelSlug || !slugify(body.name)) throw new HttpError(400, 'Invalid body: make, model and name need letters or digits', [{ path: 'name', message: 'must have letters or digits' }]);
      const existing = await diagrams.getBySlug(makeSlug, modelSlug, slugify(body.name));
      if (existing) {
        throw new HttpError(409, `${body.make} ${body.model} has an assembly "${existing.name}" already (id ${existing.id})`, [{ path: 'name', message: 'is taken' }]);
      }
      const a = newAssembly({ ...body, slug: slugify(body.name), actor: adminOf(req), at: new Date().toISOString() });
      const { conflicts } = await diagrams.save([{ assembly: a, expected: null, entry: historyEntry(a, 'create', a.updatedBy, 'created') }]);
      if (conflicts.length) throw new HttpError(409, `${body.make} ${body.model} has an assembly "${body.name}" already`);
      deps.onChange();
      req.log.info({ assemblyId: a.id, make: a.make, model: a.model, name: a.name, by: a.updatedBy }, 'assembly created');
      res.status(201).location(`/api/admin/assemblies/${a.id}`).json(a);
    }),
  );

  async function requireAssembly(req: Request): Promise<Assembly> {
    const { id } = parseInput(AssemblyIdParamsSchema, req.params, 'params');
    const a = await diagrams.get(id);
    if (!a) throw notFound(`Assembly ${id}`);
    return a;
  }

  app.get(
    '/api/admin/assemblies/:id',
    route(async (req, res) => {
      const a = await requireAssembly(req);
      // The parts its lines name, for the editor's table (a part taken off the storefront since is absent).
      const parts = await repo.getSummaries([...new Set(a.callouts.map((c) => c.partId))]);
      res.setHeader('cache-control', 'no-store');
      res.json({ assembly: a, parts: parts.map((p) => ({ id: p.id, name: p.name, sku: p.sku, partNumber: p.partNumber, brandName: p.brandName })) });
    }),
  );

  app.put(
    '/api/admin/assemblies/:id',
    route(async (req, res) => {
      const a = await requireAssembly(req);
      const body = parseInput(AssemblyUpdateSchema, req.body, 'body');
      if (body.version !== a.version) throw new HttpError(409, CONFLICT, [{ path: 'version', message: `is ${a.version} now` }]);
      const unknown = await unknownParts(repo, body.callouts.map((c) => c.partId));
      if (unknown.size) {
        const issues = body.callouts.flatMap((c, i) => (unknown.has(c.partId) ? [{ path: `callouts.${i}.partId`, message: `is no part on the storefront (${c.partId})` }] : []));
        throw new HttpError(400, `Invalid body: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`, issues);
      }
      const callouts = sortCallouts(body.callouts);
      if (contentOf(a) === contentOf({ name: body.name, callouts })) {
        res.json(a);
        return;
      }
      let slug = a.slug;
      if (body.name !== a.name && slugify(body.name) !== a.slug) {
        const taken = new Set((await diagrams.listForModel(a.makeSlug, a.modelSlug)).filter((o) => o.id !== a.id).map((o) => o.slug));
        slug = freeSlug(body.name, (s) => taken.has(s));
      }
      const next: Assembly = { ...a, name: body.name, slug, callouts, version: a.version + 1, updatedAt: new Date().toISOString(), updatedBy: adminOf(req) };
      const summary = [body.name !== a.name ? `renamed from "${a.name}"` : '', describeChange(a.callouts, callouts)].filter(Boolean).join('; ');
      const { conflicts } = await diagrams.save([{ assembly: next, expected: a.version, entry: historyEntry(next, 'edit', next.updatedBy, summary) }]);
      if (conflicts.length) throw new HttpError(409, CONFLICT);
      deps.onChange();
      req.log.info({ assemblyId: a.id, version: next.version, summary, by: next.updatedBy }, 'assembly changed');
      res.json(next);
    }),
  );

  app.delete(
    '/api/admin/assemblies/:id',
    route(async (req, res) => {
      const a = await requireAssembly(req);
      const at = new Date().toISOString();
      const gone = await diagrams.remove(a.id, { version: a.version + 1, at, actor: adminOf(req), action: 'delete', summary: `deleted "${a.name}" (${a.callouts.length} lines)` });
      if (!gone) throw notFound(`Assembly ${a.id}`);
      deps.onChange();
      req.log.info({ assemblyId: a.id, name: a.name, by: adminOf(req) }, 'assembly deleted');
      res.status(204).end();
    }),
  );

  app.get(
    '/api/admin/assemblies/:id/history',
    route(async (req, res) => {
      const { id } = parseInput(AssemblyIdParamsSchema, req.params, 'params');
      const entries = await diagrams.history(id, 200);
      if (!entries.length && !(await diagrams.get(id))) throw notFound(`Assembly ${id}`);
      res.setHeader('cache-control', 'no-store');
      res.json({ entries });
    }),
  );

  // The sitemap's parts-book pages: every machine with assemblies, and each assembly (service token, as /internal is).
  app.get(
    '/internal/sitemap/assemblies',
    route(async (_req, res) => {
      const paths: string[] = [];
      for (const m of await diagrams.models()) paths.push(`/machines/${m.makeSlug}/${m.modelSlug}`);
      scan: for await (const batch of diagrams.scan(500)) {
        for (const a of batch) {
          if (paths.length >= SITEMAP_MAX_URLS) break scan;
          paths.push(assemblyPath(a));
        }
      }
      const body: SitemapAssembliesResponse = { paths };
      res.json(body);
    }),
  );

  // The media API, before it takes a drawing for an assembly (a clean 404 for an unknown id), and its worker.
  app.get(
    '/internal/assemblies/:id',
    route(async (req, res) => {
      res.json(await requireAssembly(req));
    }),
  );

  // The media worker, once it has made a new drawing's web copies (the gateway never forwards /internal).
  app.put(
    '/internal/assemblies/:id/diagram',
    route(async (req, res) => {
      const a = await requireAssembly(req);
      const body = parseInput(DiagramSchema.extend({ actor: AssemblyCreateSchema.shape.name.optional() }).strict(), req.body, 'body');
      const { actor = 'media', ...diagram } = body;
      const next: Assembly = { ...a, diagram, version: a.version + 1, updatedAt: new Date().toISOString(), updatedBy: actor };
      const { conflicts } = await diagrams.save([
        { assembly: next, expected: a.version, entry: historyEntry(next, 'diagram', actor, `new drawing (${diagram.width} × ${diagram.height})`) },
      ]);
      if (conflicts.length) throw new HttpError(409, CONFLICT);
      deps.onChange();
      req.log.info({ assemblyId: a.id, version: next.version, width: diagram.width, height: diagram.height }, 'assembly drawing updated');
      res.json(next);
    }),
  );
}
