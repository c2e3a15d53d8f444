import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerLimits } from './config.ts';
import type { Logger } from './logger.ts';
import { startTracing, stopTracing } from './tracing.ts';

/** Request line plus headers a client may send the gateway, at most (Node's default, set here so it stays so): bigger gets 431. */
export const PUBLIC_MAX_HEADER_BYTES = 16 * 1024;
/**
 * What a service behind the gateway reads: more, because the gateway adds its own headers on the way (X-Forwarded-*,
 * the request id, the admin assertion). With equal limits a request the gateway took with 16.1 kB of headers got a 431
 * from the service, which closed the connection under the body still being written: a 502 instead of an answer.
 */
export const SERVICE_MAX_HEADER_BYTES = PUBLIC_MAX_HEADER_BYTES + 8 * 1024;
const defaultLimits: ServerLimits = { headersTimeoutMs: 20_000, requestTimeoutMs: 300_000 };

export interface Served {
  server: Server;
  port: number;
  close: () => Promise<void>;
}

/** Listen (an Express app, or any request listener), and close cleanly: stop accepting, let requests finish, then run `onClose` (close databases). */
export async function serve(
  app: RequestListener,
  opts: {
    port: number;
    host?: string;
    logger: Logger;
    onClose?: () => Promise<void> | void;
    handleSignals?: boolean;
    /** main.ts passes serverLimitsOf(config) (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS). */
    limits?: ServerLimits;
    /** The gateway, which clients reach, passes PUBLIC_MAX_HEADER_BYTES; the services keep the larger default. */
    maxHeaderBytes?: number;
  },
): Promise<Served> {
  const limits = opts.limits ?? defaultLimits;
  const server = await new Promise<Server>((resolve, reject) => {
    const host = opts.host ?? '127.0.0.1'; // main.ts passes config.HOST
    const s = createServer(
      {
        maxHeaderSize: opts.maxHeaderBytes ?? SERVICE_MAX_HEADER_BYTES,
        headersTimeout: limits.headersTimeoutMs,
        requestTimeout: limits.requestTimeoutMs,
        // Node checks both timeouts on this tick; at most a second late.
        connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
      },
      app,
    );
    s.once('error', reject);
    s.listen(opts.port, host, () => resolve(s));
  });
  server.keepAliveTimeout = 65_000; // longer than the gateway's agent, so the gateway never reuses a closing socket
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      });
      await opts.onClose?.();
      await stopTracing(); // the spans still buffered go out before the process ends
    })());
  if (opts.handleSignals !== false) {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        opts.logger.info({ signal }, 'shutting down');
        const force = setTimeout(() => process.exit(1), 10_000);
        force.unref();
        close().then(
          () => process.exit(0),
          (err) => {
            opts.logger.error({ err }, 'shutdown failed');
            process.exit(1);
          },
        );
      });
    }
  }
  opts.logger.info({ port }, 'listening');
  return { server, port, close };
}

/**
 * Run a service's main: a start failure (bad config, port taken) prints one clear line and exits 1. `publicEdge`: the
 * process the public calls (the gateway), whose callers' trace flags are not obeyed (tracing.ts, samplerFromEnv).
 */
export function runMain(name: string, main: () => Promise<unknown>, opts: { publicEdge?: boolean } = {}): void {
  Promise.resolve()
    .then(() => startTracing(name, opts))
    .then(main)
    .catch((err: unknown) => {
      process.stderr.write(`[${name}] failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
}
