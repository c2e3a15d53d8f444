import { tmpdir } from 'node:os';
import type { Express, Request } from 'express';
import { PartsMatchRequestSchema, type PartsMatchResponse } from '@forgeline/contracts/parts-match';
import { HttpError, parseInput } from '@forgeline/service-kit/errors';
import { route } from '@forgeline/service-kit/http';
import type { Logger } from '@forgeline/service-kit/logger';
import { receiveMultipart } from '@forgeline/service-kit/multipart';
import { createRateLimiter } from '@forgeline/service-kit/rate-limit';
import type { Redis } from '@forgeline/service-kit/redis';
import { parsePartsList, PartsListError } from '../domain/parts-list.ts';
import { readTabularRows, TabularFileError } from '../adapters/spreadsheet/tabular-file.ts';
import { PARTS_LIST_XLSX_LIMITS } from '../adapters/spreadsheet/xlsx-limits.ts';
import { matchLines, type MatchDeps } from '../domain/parts-match.ts';

/** Lists per client address per minute (a list is up to 500 lookups). The browser tests and benchmark raise it. */
export const PARTS_MATCH_PER_MINUTE = 30;

/** A parts list file (CSV or XLSX) is a few thousand rows at most; 2 MB holds far more than 500 lines. */
export const PARTS_LIST_FILE_MAX_BYTES = 2 * 1024 * 1024;
/** Rows read from a file: enough for 500 lines between blank rows, few enough to stop a huge sheet early. */
const PARTS_LIST_FILE_MAX_ROWS = 5000;

/**
 * A list sent as a file (multipart field `file`), as the text the pasted-list reader takes: one line per row, the
 * cells joined by tabs, blank lines where the file has rows with nothing, so that line numbers are the file's rows.
 */
async function listTextOfUpload(req: Request, tmpRoot: string): Promise<string> {
  const received = await receiveMultipart(req, {
    tmpRoot,
    fileFields: ['file'],
    limits: { maxFileBytes: PARTS_LIST_FILE_MAX_BYTES, maxRequestBytes: 2 * PARTS_LIST_FILE_MAX_BYTES, maxFiles: 1 },
  });
  try {
    const file = received.files[0];
    if (!file) throw new HttpError(400, 'Send the list as the multipart field "file" (a CSV or XLSX file)', [{ path: 'file', message: 'is missing' }]);
    const lines: string[] = [];
    try {
      for await (const { row, cells } of readTabularRows(file.path, { maxRows: PARTS_LIST_FILE_MAX_ROWS, limits: PARTS_LIST_XLSX_LIMITS })) {
        while (lines.length < row - 1) lines.push('');
        lines.push(cells.map((c) => c.replace(/\s+/g, ' ').trim()).join('\t'));
      }
    } catch (err) {
      // A broken file and one past a limit alike (a workbook that inflates too far is not a "too large" request).
      if (!(err instanceof TabularFileError)) throw err;
      throw new HttpError(400, `Invalid file "${file.filename}": ${err.message}`, [{ path: 'file', message: err.message }]);
    }
    return lines.join('\n');
  } finally {
    await received.cleanup();
  }
}

/** POST /api/parts/match: a pasted parts list, read and matched line by line (domain/parts-list.ts, parts-match.ts). */
export function registerPartsMatchRoutes(
  app: Express,
  deps: MatchDeps & {
    logger: Logger;
    perMinute?: number;
    tmpDir?: string;
    /** REDIS_URL's connection: the limit counts across every catalog replica. */
    redis?: Redis;
  },
) {
  app.post(
    '/api/parts/match',
    createRateLimiter({
      name: 'catalog:parts-match',
      windowMs: 60_000,
      limit: deps.perMinute ?? PARTS_MATCH_PER_MINUTE,
      logger: deps.logger,
      redis: deps.redis,
      handler: (req, res) => {
        req.log?.warn({ ip: req.ip }, 'rate limit reached: parts match');
        res.status(429).json({ message: 'Too many lists matched from your address. Please try again in a minute.' });
      },
    }),
    route(async (req, res) => {
      const isFile = req.is('multipart/form-data') === 'multipart/form-data';
      const text = isFile ? await listTextOfUpload(req, deps.tmpDir ?? tmpdir()) : parseInput(PartsMatchRequestSchema, req.body, 'body').text;
      let lines;
      try {
        lines = parsePartsList(text);
      } catch (err) {
        if (!(err instanceof PartsListError)) throw err;
        const field = isFile ? 'file' : 'text';
        throw new HttpError(400, `Invalid list: ${err.message}`, [{ path: field, message: err.message }]);
      }
      const started = performance.now();
      const matched = await matchLines(lines, deps);
      const summary = { matched: 0, ambiguous: 0, unmatched: 0 };
      for (const l of matched) summary[l.status]++;
      req.log.info({ lines: lines.length, source: isFile ? 'file' : 'text', ...summary, ms: Math.round(performance.now() - started) }, 'parts list matched');
      res.setHeader('cache-control', 'no-store');
      res.json({ lines: matched, summary } satisfies PartsMatchResponse);
    }),
  );
}
