import { isIP } from 'node:net';
import type { Request } from 'express';

/**
 * The client's address: `req.ip` as a trusted proxy forwarded it, when that is an IP address; otherwise the
 * connection's own (undefined once that is gone too). Express believes X-Forwarded-For whenever the connection comes
 * from a trusted proxy (loopback or a private network), so a client on one can put any text there ("vp-73-a-K-6-",
 * 300 characters): used as an address, that text broke the audit log's batches and made the rate limiter log errors
 * and count per made-up name.
 */
export function clientAddress(req: Request): string | undefined {
  const ip = req.ip;
  if (ip && isIP(ip)) return ip;
  return req.socket?.remoteAddress;
}
