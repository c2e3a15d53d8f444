import type { SearchEvent, SearchPage } from '@forgeline/contracts/search-insights';

/**
 * What this browser searched, for the seller's search report (#36): the query, how many parts it found, and whether a
 * result was then opened or added to the quote list; a quote request sent. No personal data: a random visitor id kept
 * in this browser's own storage, which "Forget my searches" (the privacy page) clears. Events wait here and go in one
 * small POST every few seconds, or as a beacon when the page is hidden: never on a search's own path.
 */
const VISITOR_KEY = 'fl-search-visitor';
const LAST_SEARCH_KEY = 'fl-last-search';
const FLUSH_AFTER_MS = 3_000;
const MAX_QUEUE = 50;
/** A result used this long after its search still counts for it. */
const ATTRIBUTION_MS = 30 * 60_000;
const ENDPOINT = '/api/search/events';

let queue: SearchEvent[] = [];
let timer: ReturnType<typeof setTimeout> | null = null;
let ephemeral: string | null = null;
let listening = false;

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** This browser's visitor id (made on first use); one for the page only when storage is refused. */
function visitorId(): string {
  try {
    let id = localStorage.getItem(VISITOR_KEY);
    if (!id || !/^[A-Za-z0-9_-]{16,64}$/.test(id)) localStorage.setItem(VISITOR_KEY, (id = randomId()));
    return id;
  } catch {
    return (ephemeral ??= randomId());
  }
}

function send(useBeacon: boolean): void {
  if (timer) clearTimeout(timer);
  timer = null;
  if (queue.length === 0) return;
  const body = JSON.stringify({ visitor: visitorId(), events: queue.slice(0, MAX_QUEUE) });
  queue = queue.slice(MAX_QUEUE);
  // Analytics never bother the buyer: a failure is dropped.
  if (useBeacon && navigator.sendBeacon?.(ENDPOINT, new Blob([body], { type: 'application/json' }))) return;
  void fetch(ENDPOINT, { method: 'POST', body, headers: { 'Content-Type': 'application/json' }, keepalive: true, credentials: 'same-origin' }).catch(() => undefined);
}

function push(event: SearchEvent): void {
  if (typeof window === 'undefined') return;
  if (!listening) {
    listening = true;
    const hidden = () => send(true);
    window.addEventListener('pagehide', hidden);
    document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && hidden());
  }
  queue.push(event);
  if (queue.length >= MAX_QUEUE) send(false);
  else timer ??= setTimeout(() => send(false), FLUSH_AFTER_MS);
}

interface LastSearch {
  query: string;
  page: SearchPage;
  ids: string[];
  at: number;
}

/** A search the buyer saw: its query, how many it found, and the parts shown (a later open or add counts for it). */
export function recordSearch(query: string, hits: number, page: SearchPage, shownIds: readonly string[]): void {
  const q = query.trim().slice(0, 120);
  if (q.length < 2) return;
  push({ type: 'search', query: q, hits, page });
  try {
    sessionStorage.setItem(LAST_SEARCH_KEY, JSON.stringify({ query: q, page, ids: shownIds.slice(0, 100), at: Date.now() } satisfies LastSearch));
  } catch {
    // storage refused: opens and adds are not tied to the search
  }
}

/** A part opened or added to the quote list: counted for the last search that showed it, if recent. */
export function recordResultUse(type: 'open' | 'quote_add', productId: string): void {
  let last: LastSearch | null = null;
  try {
    last = JSON.parse(sessionStorage.getItem(LAST_SEARCH_KEY) ?? 'null') as LastSearch | null;
  } catch {
    return;
  }
  if (!last || Date.now() - last.at > ATTRIBUTION_MS || !last.ids.includes(productId)) return;
  push({ type, query: last.query, productId, page: last.page });
}

/** A quote request sent from this browser (the demand report counts who asked anyway). */
export function recordQuoteRequest(): void {
  push({ type: 'quote_request' });
}

/** "Forget my searches on this device": the seller's store forgets the id, and this browser drops it. */
export async function forgetSearches(): Promise<void> {
  let id: string | null = null;
  try {
    id = localStorage.getItem(VISITOR_KEY);
    localStorage.removeItem(VISITOR_KEY);
    sessionStorage.removeItem(LAST_SEARCH_KEY);
  } catch {
    // nothing kept
  }
  queue = [];
  if (id) {
    const res = await fetch(`/api/search/visitors/${encodeURIComponent(id)}`, { method: 'DELETE', credentials: 'same-origin' });
    if (!res.ok && res.status !== 400) throw new Error(`The request failed (${res.status})`);
  }
}
