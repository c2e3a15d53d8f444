import type { QueryClient, QueryKey } from '@tanstack/react-query';

/** One query-cache entry the server put in the page (gateway page handler, web/src/entry-server.tsx). */
export interface PreloadedQuery {
  queryKey: QueryKey;
  data: unknown;
}

declare global {
  interface Window {
    /** Listing data the server rendered the page with; read once at start, then dropped. */
    __PRELOADED_QUERIES__?: PreloadedQuery[];
  }
}

/** Puts the server's data in the query cache, so the first render shows what the server HTML showed. */
export function seedPreloadedQueries(client: QueryClient): void {
  if (typeof window === 'undefined') return;
  const entries = window.__PRELOADED_QUERIES__;
  delete window.__PRELOADED_QUERIES__;
  if (!Array.isArray(entries)) return;
  for (const e of entries) {
    if (e && Array.isArray(e.queryKey) && e.data !== undefined) client.setQueryData(e.queryKey, e.data);
  }
}
