import type { Product } from '@forgeline/contracts/products';
import { PRELOADED_PRODUCT_CLEAR_MS } from '../config/constants.ts';

declare global {
  interface Window {
    /** The product the server put in the page for the first request (spec section 2). */
    __PRELOADED_PRODUCT__?: Product | null;
  }
}

/** The server-preloaded product when it is the one asked for, else undefined. */
export function takePreloadedProduct(id: string): Product | undefined {
  if (typeof window === 'undefined') return undefined;
  const p = window.__PRELOADED_PRODUCT__;
  return p && p.id === id ? p : undefined;
}

/** Drops the preloaded product shortly after first use, so later navigations fetch fresh data. */
export function scheduleClearPreloadedProduct(): () => void {
  const t = setTimeout(() => {
    if (typeof window !== 'undefined') delete window.__PRELOADED_PRODUCT__;
  }, PRELOADED_PRODUCT_CLEAR_MS);
  return () => clearTimeout(t);
}
