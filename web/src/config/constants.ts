/** Business constants of spec section 9, in one place. */
export const HEADER_SEARCH_DEBOUNCE_MS = 300;
export const SEARCH_MIN_CHARS = 2;
export const HEADER_SEARCH_LIMIT = 10;
export const SCROLL_TOP_THRESHOLD_PX = 300;
export const CATEGORY_PAGE_SIZE = 75;
export const BRAND_PAGE_SIZE = 75;
export const SEARCH_RESULTS_PAGE_SIZE = 48;
export const GALLERY_PAGE_SIZE = 48;
export const GALLERY_SEARCH_DEBOUNCE_MS = 500;
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOOLTIP_DELAY_MS = 700;
export const PRELOADED_PRODUCT_CLEAR_MS = 100;
export const TESTIMONIALS_STALE_MS = 300_000;
export const TESTIMONIALS_RETRIES = 3;
export const testimonialsRetryDelay = (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000);
export const POSITIVE_FEEDBACK_RATE = '99.5%';
