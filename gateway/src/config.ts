import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { baseEnv, port, productionSecrets } from '@forgeline/service-kit/config';
import { splitReplicaList } from './replica-pool.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * A service's address: one base URL, or its replicas' as a comma-separated list (`http://catalog-1:4001,http://catalog-2:4001`);
 * each must be an http(s) URL, and the error names the one that is not.
 */
const serviceUrls = (fallbackPort: number) =>
  z
    .string()
    .default(`http://127.0.0.1:${fallbackPort}`)
    .transform((value, ctx) => {
      const urls = splitReplicaList(value);
      if (urls.length === 0) ctx.addIssue({ code: 'custom', message: 'names no URL' });
      urls.forEach((url, i) => {
        if (!z.url({ protocol: /^https?$/ }).safeParse(url).success) {
          const which = urls.length > 1 ? `replica ${i + 1} of ${urls.length} ("${url}")` : `"${url}"`;
          ctx.addIssue({ code: 'custom', message: `${which} is not an http(s) URL` });
        }
      });
      return urls;
    });

export const gatewayEnv = z.object({
  ...baseEnv,
  PORT: port(8080),
  /**
   * The gateway's /metrics, apart from the public port (Prometheus scrapes it from inside the network); 0 takes a free
   * port and logs it (the development launcher and the tests, which run several gateways on one machine).
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  CATALOG_URL: serviceUrls(4001),
  QUOTES_URL: serviceUrls(4002),
  AUTH_URL: serviceUrls(4003),
  MEDIA_URL: serviceUrls(4004),
  /** Failover between a service's replicas: how long one that failed gets no traffic before it is probed again. */
  UPSTREAM_RETRY_AFTER_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /** A replica that accepts no connection within this counts as failed; the request goes to the next one. */
  UPSTREAM_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(2_000),
  /** The built web app; empty string disables static serving (compose serves it with nginx). */
  WEB_DIST_DIR: z.string().default(path.join(repoRoot, 'web/dist')),
  /** The site's address (sitemaps, canonical URLs); https:// also turns Strict-Transport-Security on. */
  PUBLIC_URL: z.url().default('http://localhost:8080'),
  /** Upstream answer time before a 504. Uploads get the longer one. */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  UPLOAD_TIMEOUT_MS: z.coerce.number().int().min(1000).default(300_000),
  /** Calls per minute one API key may make (per gateway process, or across them all with REDIS_URL). */
  API_KEY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Search-event batches (POST /api/search/events) one address may send a minute: a page sends one every few seconds at most. */
  SEARCH_EVENTS_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  /** Memory for the shared cache of public reads the services mark shareable (s-maxage); 0 turns it off. */
  EDGE_CACHE_MB: z.coerce.number().min(0).max(4096).default(64),
  /** Redis shared by the gateway replicas: API key limits count across them, and an admin's change empties every edge cache. */
  REDIS_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
}).superRefine(productionSecrets(['SERVICE_TOKEN']));
export type GatewayConfig = z.infer<typeof gatewayEnv>;
