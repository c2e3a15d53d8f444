/**
 * The catalog's own metrics (#37), beside RED and Node's (service-kit/metrics.ts). No query text, no part number, no
 * address in a label: how long searches take and whether they found anything, imports' rows and jobs, how far this
 * replica's index is behind the change feed.
 */
import { counter, gauge, histogram } from '@forgeline/service-kit/metrics';

/** A search as the catalog makes it (engine, history and aliases; the ready-made answers' hits are not searches). */
export const searchDuration = histogram('catalog_search_duration_seconds', 'Time to make a search answer (engine, store history, aliases)', [], [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1]);
export const searches = counter('catalog_searches_total', 'Searches made, by whether they found anything (the zero-result rate is zero / all)', ['results']);

export const importRows = counter('catalog_import_rows_total', 'Catalogue import rows, by outcome (rows/s: rate of this)', ['outcome']);
export const importJobs = counter('catalog_import_jobs_total', 'Catalogue imports finished, by state', ['state']);

/** Where the lag is read from at each scrape: this process's replication, when it follows a feed. */
export const changeFeedLagSource: { read?: () => Promise<number> } = {};

/** Entries of the change feed this replica has not applied yet, read when Prometheus scrapes (one Redis call). */
gauge('catalog_change_feed_lag_entries', "Change-feed entries not yet applied to this replica's search index", [], async function collect() {
  if (changeFeedLagSource.read) this.set(await changeFeedLagSource.read().catch(() => -1));
});
