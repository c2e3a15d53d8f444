import { Redis } from 'ioredis';
import type { Logger } from './logger.ts';

export type { Redis };

/** A rate-limit count or a publish that Redis has not answered by then is given up (the caller fails open). */
const COMMAND_TIMEOUT_MS = 500;

/**
 * The connection replicas share state through (REDIS_URL): rate-limit counts, cache clears. It never
 * holds a request up: while it is disconnected a command fails at once instead of queueing (callers
 * go on without Redis), one Redis leaves unanswered fails after COMMAND_TIMEOUT_MS, and it reconnects
 * for as long as the process lives. An outage is logged once when it starts and once when it ends.
 */
export function connectRedis(url: string, logger: Logger, role = 'shared state'): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 5_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  watchConnection(client, logger, role);
  return client;
}

/** Logs a connection's outages (not each failed retry) and recoveries; its `error` events never go unheard. */
export function watchConnection(client: Redis, logger: Logger, role: string): void {
  const log = logger.child({ redis: role });
  let everReady = false;
  let down = false;
  client.on('ready', () => {
    if (down) log.info('redis reconnected');
    else if (!everReady) log.info('redis connected');
    everReady = true;
    down = false;
  });
  client.on('error', (err: Error) => {
    if (down) return;
    down = true;
    log.warn({ err: err.message }, 'redis unavailable; retrying (meanwhile this replica works on its own)');
  });
  client.on('reconnecting', () => {
    if (down) return;
    down = true;
    log.warn('redis connection lost; reconnecting');
  });
}
