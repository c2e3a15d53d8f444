import type { ProductDetail } from '@forgeline/contracts/products';
import { PRELOADED_PRODUCT_ID } from '@forgeline/contracts/ssr';
import { PRELOADED_PRODUCT_CLEAR_MS } from '../config/constants.ts';
import { dropPageData, readPageData } from './page-data.ts';

/** The product the server put in the page for the first request (spec section 2), read from its data block once. */
let preloaded: ProductDetail | null | undefined;

/** The server-preloaded product when it is the one asked for, else undefined. */
export function takePreloadedProduct(id: string): ProductDetail | undefined {
  if (typeof document === 'undefined') return undefined;
  if (preloaded === undefined) preloaded = (readPageData(PRELOADED_PRODUCT_ID) as ProductDetail | null | undefined) ?? null;
  return preloaded && preloaded.id === id ? preloaded : undefined;
}

/** Drops the preloaded product shortly after first use, so later navigations fetch fresh data. */
export function scheduleClearPreloadedProduct(): () => void {
  const t = setTimeout(() => {
    preloaded = null;
    dropPageData(PRELOADED_PRODUCT_ID);
  }, PRELOADED_PRODUCT_CLEAR_MS);
  return () => clearTimeout(t);
}
