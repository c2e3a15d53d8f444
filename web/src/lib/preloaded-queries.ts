import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { PRELOADED_QUERIES_ID } from '@forgeline/contracts/ssr';
import { dropPageData, readPageData } from './page-data.ts';

/** One query-cache entry the server put in the page (gateway page handler, web/src/entry-server.tsx). */
export interface PreloadedQuery {
  queryKey: QueryKey;
  data: unknown;
}

/**
 * Puts the server's data (the page's `#__PRELOADED_QUERIES__` data block: the listing data it rendered the page with)
 * in the query cache, so the first render shows what the server HTML showed. Read once at start, then dropped.
 */
export function seedPreloadedQueries(client: QueryClient): void {
  const entries = readPageData(PRELOADED_QUERIES_ID) as PreloadedQuery[] | undefined;
  dropPageData(PRELOADED_QUERIES_ID);
  if (!Array.isArray(entries)) return;
  for (const e of entries) {
    if (e && Array.isArray(e.queryKey) && e.data !== undefined) client.setQueryData(e.queryKey, e.data);
  }
}
