import type { Express } from 'express';
import { rateLimit } from 'express-rate-limit';
import { PartsMatchRequestSchema, type PartsMatchResponse } from '@forgeline/contracts/parts-match';
import { HttpError, parseInput } from '@forgeline/service-kit/errors';
import { route } from '@forgeline/service-kit/http';
import { parsePartsList, PartsListError } from './domain/parts-list.ts';
import { matchLines, type MatchDeps } from './domain/parts-match.ts';

/** Lists per client address per minute (a list is up to 500 lookups). The browser tests and benchmark raise it. */
export const PARTS_MATCH_PER_MINUTE = 30;

/** POST /api/parts/match: a pasted parts list, read and matched line by line (domain/parts-list.ts, parts-match.ts). */
export function registerPartsMatchRoutes(app: Express, deps: MatchDeps & { perMinute?: number }) {
  app.post(
    '/api/parts/match',
    rateLimit({
      windowMs: 60_000,
      limit: deps.perMinute ?? PARTS_MATCH_PER_MINUTE,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      handler: (req, res) => {
        req.log?.warn({ ip: req.ip }, 'rate limit reached: parts match');
        res.status(429).json({ message: 'Too many lists matched from your address. Please try again in a minute.' });
      },
    }),
    route(async (req, res) => {
      const { text } = parseInput(PartsMatchRequestSchema, req.body, 'body');
      let lines;
      try {
        lines = parsePartsList(text);
      } catch (err) {
        if (!(err instanceof PartsListError)) throw err;
        throw new HttpError(400, `Invalid list: ${err.message}`, [{ path: 'text', message: err.message }]);
      }
      const started = performance.now();
      const matched = await matchLines(lines, deps);
      const summary = { matched: 0, ambiguous: 0, unmatched: 0 };
      for (const l of matched) summary[l.status]++;
      req.log.info({ lines: lines.length, ...summary, ms: Math.round(performance.now() - started) }, 'parts list matched');
      res.setHeader('cache-control', 'no-store');
      res.json({ lines: matched, summary } satisfies PartsMatchResponse);
    }),
  );
}
