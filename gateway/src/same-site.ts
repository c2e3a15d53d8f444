import type { Request } from 'express';

/**
 * Whether a request comes from the site's own pages: its Origin is PUBLIC_URL's or the one this request came to
 * (behind nginx: its forwarded host); without an Origin (older browsers on same-origin requests) Fetch Metadata, where
 * sent, must say same-origin. The second lock, after the cookies' SameSite, on every change made by a cookie.
 */
export function isSameSite(req: Request, publicOrigin: string | null): boolean {
  const origin = req.header('origin');
  if (origin) return origin === publicOrigin || origin === `${req.protocol}://${req.host}`;
  const site = req.header('sec-fetch-site');
  return site === undefined ? false : site === 'same-origin';
}
