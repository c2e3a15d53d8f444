import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { baseEnv, port } from '@forgeline/service-kit/config';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const serviceUrl = (fallbackPort: number) => z.url().default(`http://127.0.0.1:${fallbackPort}`);

export const gatewayEnv = z.object({
  ...baseEnv,
  PORT: port(8080),
  CATALOG_URL: serviceUrl(4001),
  QUOTES_URL: serviceUrl(4002),
  AUTH_URL: serviceUrl(4003),
  MEDIA_URL: serviceUrl(4004),
  /** The built web app; empty string disables static serving (compose serves it with nginx). */
  WEB_DIST_DIR: z.string().default(path.join(repoRoot, 'web/dist')),
  PUBLIC_URL: z.url().default('http://localhost:8080'),
  /** Upstream answer time before a 504. Uploads get the longer one. */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  UPLOAD_TIMEOUT_MS: z.coerce.number().int().min(1000).default(300_000),
  /** Memory for the shared cache of public reads the services mark shareable (s-maxage); 0 turns it off. */
  EDGE_CACHE_MB: z.coerce.number().min(0).max(4096).default(64),
});
export type GatewayConfig = z.infer<typeof gatewayEnv>;
