/**
 * Search analytics (#36): the events a buyer's page sends (a search and how many it found, a result opened or added
 * to the quote list, a quote request sent) wait in a buffer and are written in batches, counted per day and query, off
 * every request's path. A full buffer drops what comes and counts it: a search never waits for its analytics.
 */
import type { SearchEvent } from '@forgeline/contracts/search-insights';
import type { Logger } from '@forgeline/service-kit/logger';
import { tokenize } from '@forgeline/search-engine/text/normalize';
import type { QueryDayCounts, SearchEventBatch, SearchInsightsStore } from '../ports.ts';

/** A query as it is counted: lowercase, accents folded, punctuation as spaces, words joined by one ("1R-0750" -> "1r 0750"). */
export function searchQueryKey(query: string): string {
  return tokenize(query.slice(0, 200)).slice(0, 20).join(' ').slice(0, 120);
}

/** An e-mail address is personal data, never a part: a query holding one is not kept. */
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/;
export const holdsPersonalData = (query: string): boolean => EMAIL.test(query);

/** The UTC day of an instant, as the counts are kept (YYYY-MM-DD). */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** The first day of a period of `days` ending today (UTC), and today. */
export function periodOf(days: number, now = new Date()): { fromDay: string; toDay: string } {
  const from = new Date(now.getTime() - (days - 1) * 86_400_000);
  return { fromDay: dayOf(from), toDay: dayOf(now) };
}

interface Pending {
  at: Date;
  visitor: string;
  event: SearchEvent;
}

/** Events counted per day and query, visitors and quote requests each once: what a flush writes. */
export function countEvents(pending: readonly Pending[]): SearchEventBatch {
  const queries = new Map<string, QueryDayCounts>();
  const visitors = new Map<string, { day: string; query: string; visitor: string }>();
  const quoteRequests = new Map<string, { day: string; visitor: string }>();
  for (const { at, visitor, event } of pending) {
    const day = dayOf(at);
    const iso = at.toISOString();
    if (event.type === 'quote_request') {
      quoteRequests.set(`${visitor}|${day}`, { day, visitor });
      continue;
    }
    if (holdsPersonalData(event.query)) continue;
    const query = searchQueryKey(event.query);
    if (!query) continue;
    const key = `${day}|${query}`;
    let c = queries.get(key);
    if (!c) queries.set(key, (c = { day, query, example: '', searches: 0, zeroResults: 0, hits: -1, opens: 0, quoteAdds: 0, firstAt: iso, lastAt: iso }));
    if (iso < c.firstAt) c.firstAt = iso;
    if (iso > c.lastAt) c.lastAt = iso;
    if (event.type === 'search') {
      c.searches++;
      if (event.hits === 0) c.zeroResults++;
      c.hits = event.hits;
      c.example = event.query.replace(/\s+/g, ' ').trim();
      visitors.set(`${key}|${visitor}`, { day, query, visitor });
    } else if (event.type === 'open') c.opens++;
    else c.quoteAdds++;
  }
  return { queries: [...queries.values()], visitors: [...visitors.values()], quoteRequests: [...quoteRequests.values()] };
}

export const SEARCH_EVENT_BUFFER = { maxEvents: 20_000, flushEveryMs: 2_000, flushAt: 2_000 } as const;

/**
 * The buffer between the events' route and the store. Writes are one transaction a batch, at most every
 * `flushEveryMs` or once `flushAt` events wait; a batch that fails is kept for the next flush if there is room.
 */
export class SearchEventBuffer {
  private pending: Pending[] = [];
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Events dropped because the buffer was full (since start). */
  dropped = 0;
  written = 0;
  private lastDropLog = 0;

  constructor(
    private readonly store: Pick<SearchInsightsStore, 'record'>,
    private readonly logger: Logger,
    private readonly opts: { maxEvents: number; flushEveryMs: number; flushAt: number } = SEARCH_EVENT_BUFFER,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.opts.flushEveryMs);
    this.timer.unref();
  }

  /** Takes a page's events; returns how many were kept (the rest were dropped and counted). */
  add(visitor: string, events: readonly SearchEvent[], at = new Date()): number {
    const room = Math.max(0, this.opts.maxEvents - this.pending.length);
    const kept = events.slice(0, room);
    for (const event of kept) this.pending.push({ at, visitor, event });
    const lost = events.length - kept.length;
    if (lost > 0) {
      this.dropped += lost;
      if (Date.now() - this.lastDropLog > 60_000) {
        this.lastDropLog = Date.now();
        this.logger.warn({ dropped: this.dropped, buffered: this.pending.length }, 'search analytics: buffer full, events dropped (is the store slow?)');
      }
    }
    if (this.pending.length >= this.opts.flushAt) void this.flush();
    return kept.length;
  }

  get buffered(): number {
    return this.pending.length;
  }

  /** Writes what waits now (one flush at a time; a call during one waits for it and then writes the rest). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.pending.length === 0) return;
    const taken = this.pending;
    this.pending = [];
    this.flushing = (async () => {
      try {
        await this.store.record(countEvents(taken));
        this.written += taken.length;
      } catch (err) {
        // Kept for the next flush while there is room; analytics are not worth holding the catalog's memory for.
        const room = Math.max(0, this.opts.maxEvents - this.pending.length);
        this.pending.unshift(...taken.slice(0, room));
        this.dropped += Math.max(0, taken.length - room);
        this.logger.error({ err, events: taken.length, kept: Math.min(room, taken.length) }, 'search analytics: writing a batch failed; will retry');
      } finally {
        this.flushing = null;
      }
    })();
    await this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }
}
