/**
 * The data the server put in the page for the app: JSON data blocks, `<script type="application/json" id="…">`
 * (ids in @forgeline/contracts/ssr). They are never executed, so the page needs no inline script for them and the
 * Content-Security-Policy allows none.
 */

/** The block's parsed JSON, or undefined when the page has none (or it is not JSON). */
export function readPageData(id: string): unknown {
  if (typeof document === 'undefined') return undefined;
  const text = document.getElementById(id)?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Takes the block out of the page: later reads find nothing. */
export function dropPageData(id: string): void {
  if (typeof document !== 'undefined') document.getElementById(id)?.remove();
}
