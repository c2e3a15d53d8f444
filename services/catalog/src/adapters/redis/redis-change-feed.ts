import type { Logger } from '@forgeline/service-kit/logger';
import { watchConnection, type Redis } from '@forgeline/service-kit/redis';
import type { CatalogChange, CatalogChangeFeed, ChangeFeedEntry, ChangeFeedPosition } from '../../ports.ts';

/**
 * The catalogue's change feed as a Redis stream. Each entry is numbered by a counter beside the stream, incremented in
 * the same script that appends (so numbers follow stream order across writers): a reader that sees a number jump has
 * lost entries (trimmed by the cap, or gone with a Redis that restarted empty, whose counter starts again at 1).
 */

/** Entries kept (MAXLEN ~: Redis trims whole nodes, so a few more); a reader further behind rebuilds from storage. */
export const CHANGE_FEED_MAX_ENTRIES = 1000;
/** Parts named per entry: an import batch becomes a few entries, so the cap bounds the stream's memory (some tens of MB at most). */
const PARTS_PER_ENTRY = 1000;
/** Parts kept in memory while Redis is down; past that the writer asks every replica to read everything again. */
const MAX_KEPT_PARTS = 200_000;
/** A read Redis has not answered by then is given up (a blocked read waits at most MAX_BLOCK_MS of it). */
const READ_TIMEOUT_MS = 10_000;
const MAX_BLOCK_MS = 5_000;
/** At start, how long a read waits for its connection's first attempt before taking Redis for down. */
const FIRST_CONNECT_WAIT_MS = 6_000;

const APPEND_SCRIPT = `
local n = redis.call('INCR', KEYS[2])
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'n', n, 'by', ARGV[2], 'change', ARGV[3])
return {id, n}`;

type RawEntry = [id: string, fields: string[]];

/** The two replies of a MULTI of two reads (read together, so the count and the entries are of one instant). */
async function both<A, B>(exec: Promise<[Error | null, unknown][] | null>): Promise<[A, B]> {
  const replies = await exec;
  if (!replies || replies.length !== 2) throw new Error('redis transaction did not run');
  const [[e1, a], [e2, b]] = replies as [[Error | null, A], [Error | null, B]];
  if (e1 || e2) throw e1 ?? e2;
  return [a, b];
}

/**
 * Resolves once `conn`'s first connection attempt is over (ready or failed). Commands fail at once while it is not
 * ready (no offline queue, so that Redis never holds a request up); a replica starting must not mistake "still
 * connecting" for "down", or it would report ready without catching up.
 */
function firstAttempt(conn: Redis): Promise<void> {
  return new Promise<void>((resolve) => {
    if (conn.status === 'ready') return resolve();
    const done = () => {
      clearTimeout(timer);
      conn.off('ready', done);
      conn.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, FIRST_CONNECT_WAIT_MS);
    timer.unref();
    conn.once('ready', done);
    conn.once('error', done);
  });
}

function parseEntry([id, fields]: RawEntry): ChangeFeedEntry {
  const f = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) f.set(fields[i]!, fields[i + 1]!);
  let change: CatalogChange;
  try {
    const parsed = JSON.parse(f.get('change') ?? '{}') as Partial<CatalogChange>;
    change = { upserted: parsed.upserted ?? [], removed: parsed.removed ?? [], ...(parsed.resync ? { resync: true } : {}) };
  } catch {
    change = { upserted: [], removed: [], resync: true }; // unreadable: the safe reading is "read everything again"
  }
  return { id, n: Number(f.get('n') ?? 0), by: f.get('by') ?? '', change };
}

/** Splits a change into entries of at most PARTS_PER_ENTRY parts. */
function chunks(change: CatalogChange): CatalogChange[] {
  if (change.resync) return [{ upserted: [], removed: [], resync: true }];
  const out: CatalogChange[] = [];
  for (let i = 0; i < change.upserted.length; i += PARTS_PER_ENTRY) out.push({ upserted: change.upserted.slice(i, i + PARTS_PER_ENTRY), removed: [] });
  for (let i = 0; i < change.removed.length; i += PARTS_PER_ENTRY) out.push({ upserted: [], removed: change.removed.slice(i, i + PARTS_PER_ENTRY) });
  return out;
}

/**
 * `redis` is REDIS_URL's shared connection (connectRedis: fails fast while down, 500 ms per command); blocked reads get
 * a connection of their own, since a blocked connection answers nothing else.
 */
export function openRedisChangeFeed(opts: { redis: Redis; stream: string; logger: Logger }): CatalogChangeFeed {
  const { redis } = opts;
  // One hash slot for the stream and its counter (the script touches both).
  const streamKey = `{${opts.stream}}`;
  const counterKey = `{${opts.stream}}:n`;
  const log = opts.logger.child({ feed: opts.stream });
  const reader = redis.duplicate({ commandTimeout: READ_TIMEOUT_MS });
  watchConnection(reader, opts.logger, `change feed reader ${opts.stream}`);
  const connected = Promise.all([firstAttempt(redis), firstAttempt(reader)]);

  const kept: { change: CatalogChange; by: string }[] = [];
  let keptParts = 0;
  let sending = false;
  let warned = false;

  async function send(): Promise<void> {
    if (sending) return;
    sending = true;
    try {
      while (kept.length > 0) {
        const next = kept[0]!;
        try {
          await redis.eval(APPEND_SCRIPT, 2, streamKey, counterKey, CHANGE_FEED_MAX_ENTRIES, next.by, JSON.stringify(next.change));
        } catch (err) {
          if (!warned) {
            warned = true;
            log.warn({ err: err instanceof Error ? err.message : String(err) }, 'could not announce a catalogue change to the other replicas; kept, and sent when Redis is back');
          }
          return;
        }
        kept.shift();
        keptParts -= next.change.upserted.length + next.change.removed.length;
        if (warned && kept.length === 0) {
          warned = false;
          log.info('catalogue changes kept during the outage announced');
        }
      }
    } finally {
      sending = false;
    }
  }
  const sendKept = () => void send();
  redis.on('ready', sendKept);

  return {
    announce(change, by) {
      for (const c of chunks(change)) {
        kept.push({ change: c, by });
        keptParts += c.upserted.length + c.removed.length;
      }
      if (keptParts > MAX_KEPT_PARTS) {
        // Too much to keep: one entry telling every replica to read the whole catalogue again says the same.
        kept.length = 0;
        keptParts = 0;
        kept.push({ change: { upserted: [], removed: [], resync: true }, by });
      }
      void send();
    },

    async head() {
      await connected;
      const [n, last] = await both<string | null, RawEntry[]>(redis.multi().get(counterKey).xrevrange(streamKey, '+', '-', 'COUNT', 1).exec());
      return { id: last[0]?.[0] ?? '0-0', n: Number(n ?? 0) };
    },

    async readAfter(from, count) {
      await connected;
      const [n, raw] = await both<string | null, RawEntry[]>(reader.multi().get(counterKey).xrange(streamKey, `(${from.id}`, '+', 'COUNT', count).exec());
      return { entries: raw.map(parseEntry), n: Number(n ?? 0) };
    },

    async waitAfter(from, count, blockMs) {
      const wait = Math.min(blockMs, MAX_BLOCK_MS);
      const reply = await reader.xread('COUNT', count, 'BLOCK', wait, 'STREAMS', streamKey, from.id);
      return reply?.[0]?.[1].map(parseEntry) ?? [];
    },

    pending: () => kept.length,

    async close() {
      redis.off('ready', sendKept);
      reader.disconnect();
      if (kept.length > 0) await send();
      if (kept.length > 0) log.warn({ parts: keptParts }, 'stopping with catalogue changes the other replicas were not told of; they resync when they next fall behind');
    },
  };
}
