import { useSyncExternalStore } from 'react';
import { primaryImage } from '../../lib/product-image.ts';
import type { AddResultLike, QuoteListLineLike, QuoteListProductLike } from '../../lib/quote-list-access.ts';

/**
 * The buyer's quote list: the parts they mean to ask about, kept in localStorage so it survives reloads, and in step
 * across tabs through the `storage` event. No zod here (it would weigh on every listing's chunk): entries read back
 * from storage are checked by hand and anything malformed is dropped.
 */

/** QUOTE_MAX_LINES and QUOTE_LIMITS.maxQuantity of the contracts (not imported, to keep zod out of this chunk). */
export const QUOTE_LIST_MAX_LINES = 200;
export const QUOTE_LIST_MAX_QUANTITY = 1_000_000;
/** The contract's limits for a line's text and note. */
export const QUOTE_LINE_TEXT_MAX = 500;

const STORAGE_KEY = 'forgeline.quote-list.v1';

/** The list's shapes live in lib/quote-list-access.ts, where the pages that reach the list through the app read them. */
export type QuoteListProduct = QuoteListProductLike;
export type QuoteListLine = QuoteListLineLike;
export type AddResult = AddResultLike;

export const FULL_MESSAGE = `Your quote list is full: it holds at most ${QUOTE_LIST_MAX_LINES} lines. Send this request, then start another.`;

const EMPTY: readonly QuoteListLine[] = Object.freeze([]);
let cache: { raw: string | null; lines: readonly QuoteListLine[] } | null = null;
const listeners = new Set<() => void>();

export const clampQuantity = (n: number) => (Number.isFinite(n) ? Math.min(QUOTE_LIST_MAX_QUANTITY, Math.max(1, Math.trunc(n))) : 1);
const str = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : undefined);

function readLine(v: unknown): QuoteListLine | null {
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  const key = str(o.key, 200);
  const quantity = typeof o.quantity === 'number' ? clampQuantity(o.quantity) : 1;
  const note = str(o.note, QUOTE_LINE_TEXT_MAX) ?? '';
  if (!key) return null;
  const p = o.product as Record<string, unknown> | undefined;
  if (p && typeof p === 'object') {
    const id = str(p.id, 100);
    const name = str(p.name, 500);
    if (!id || !name || id !== key) return null;
    const product: QuoteListProduct = {
      id,
      name,
      sku: str(p.sku, 200) ?? '',
      partNumber: str(p.partNumber, 200) ?? '',
      brandName: str(p.brandName, 200) ?? '',
      slug: str(p.slug, 300) ?? null,
      image: str(p.image, 2000) ?? '',
    };
    return { key, product, quantity, note };
  }
  const text = str(o.text, QUOTE_LINE_TEXT_MAX)?.trim();
  return text ? { key, text, quantity, note } : null;
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null; // storage blocked (privacy settings): the list lives for this page only
  }
}

let memory: string | null = null;

function readRaw(): string | null {
  const s = storage();
  if (!s) return memory;
  try {
    return s.getItem(STORAGE_KEY);
  } catch {
    return memory;
  }
}

/** The list as stored now (the same array while the stored text is unchanged, as useSyncExternalStore needs). */
export function getQuoteList(): readonly QuoteListLine[] {
  const raw = readRaw();
  if (cache && cache.raw === raw) return cache.lines;
  let lines: readonly QuoteListLine[] = EMPTY;
  if (raw) {
    try {
      const parsed: unknown = JSON.parse(raw);
      const byKey = new Map<string, QuoteListLine>();
      for (const entry of Array.isArray(parsed) ? parsed : []) {
        const line = readLine(entry);
        if (line && !byKey.has(line.key) && byKey.size < QUOTE_LIST_MAX_LINES) byKey.set(line.key, line);
      }
      lines = [...byKey.values()];
    } catch {
      lines = EMPTY;
    }
  }
  cache = { raw, lines };
  return lines;
}

function write(lines: readonly QuoteListLine[]) {
  const raw = JSON.stringify(lines);
  memory = raw;
  const s = storage();
  try {
    s?.setItem(STORAGE_KEY, raw);
  } catch {
    // Quota or blocked storage: kept in memory for this page.
  }
  cache = { raw: s ? readRaw() : raw, lines };
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab changed the list: its write reaches this tab as a storage event.
  const onStorage = (e: StorageEvent) => {
    if (e.key === STORAGE_KEY || e.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The list, or null while the page is being hydrated from server HTML (the server cannot know it). */
export function useQuoteList(): readonly QuoteListLine[] | null {
  return useSyncExternalStore<readonly QuoteListLine[] | null>(subscribe, getQuoteList, () => null);
}

/**
 * How many lines the list has; 0 while hydrating. A number, so a visitor with an empty list (most first visits) gives
 * the same value as the server did and the header is not rendered again synchronously once hydrated.
 */
export function useQuoteListCount(): number {
  return useSyncExternalStore(subscribe, () => getQuoteList().length, () => 0);
}

export function productOfSummary(p: {
  id: string;
  name: string;
  sku: string;
  partNumber?: string | null;
  brandName?: string | null;
  slug?: string | null;
  images?: readonly string[] | null;
  imageUrl?: string | null;
}): QuoteListProduct {
  return {
    id: p.id,
    name: p.name,
    sku: p.sku,
    partNumber: p.partNumber ?? '',
    brandName: p.brandName ?? '',
    slug: p.slug ?? null,
    image: primaryImage(p),
  };
}

/** Adds a part, or adds to its quantity when it is on the list already. */
export function addProduct(product: QuoteListProduct, quantity: number): AddResult {
  const lines = getQuoteList();
  const at = lines.findIndex((l) => l.key === product.id);
  if (at >= 0) {
    const next = [...lines];
    next[at] = { ...lines[at]!, product, quantity: clampQuantity(lines[at]!.quantity + quantity) };
    write(next);
    return { ok: true, added: false };
  }
  if (lines.length >= QUOTE_LIST_MAX_LINES) return { ok: false, message: FULL_MESSAGE };
  write([...lines, { key: product.id, product, quantity: clampQuantity(quantity), note: '' }]);
  return { ok: true, added: true };
}

/** What putting one part on the list from a link did (ensureProducts). */
export type EnsureOutcome = 'added' | 'raised' | 'kept' | 'full';

/**
 * Puts parts on the list with at least the quantities asked, for a link that adds parts (/quote?add=…): a part not on
 * the list is added, one with a smaller quantity is raised to the one asked, one with as many or more is left as it is,
 * so following the same link again adds nothing twice. One write (one storage event for the other tabs) for them all.
 */
export function ensureProducts(items: readonly { product: QuoteListProduct; quantity: number }[]): EnsureOutcome[] {
  const next = [...getQuoteList()];
  const outcomes = items.map(({ product, quantity }): EnsureOutcome => {
    const n = clampQuantity(quantity);
    const at = next.findIndex((l) => l.key === product.id);
    if (at >= 0) {
      const line = next[at]!;
      next[at] = { ...line, product, quantity: Math.max(line.quantity, n) };
      return line.quantity >= n ? 'kept' : 'raised';
    }
    if (next.length >= QUOTE_LIST_MAX_LINES) return 'full';
    next.push({ key: product.id, product, quantity: n, note: '' });
    return 'added';
  });
  write(next);
  return outcomes;
}

/** Adds a line of the buyer's own words (a list line nothing in the catalogue matched). */
export function addText(text: string, quantity: number): AddResult {
  const lines = getQuoteList();
  const clean = text.replace(/\s+/g, ' ').trim().slice(0, QUOTE_LINE_TEXT_MAX);
  if (!clean) return { ok: false, message: 'The line is empty.' };
  const same = lines.findIndex((l) => !l.product && l.text?.toLowerCase() === clean.toLowerCase());
  if (same >= 0) {
    const next = [...lines];
    next[same] = { ...lines[same]!, quantity: clampQuantity(lines[same]!.quantity + quantity) };
    write(next);
    return { ok: true, added: false };
  }
  if (lines.length >= QUOTE_LIST_MAX_LINES) return { ok: false, message: FULL_MESSAGE };
  const key = `text:${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  write([...lines, { key, text: clean, quantity: clampQuantity(quantity), note: '' }]);
  return { ok: true, added: true };
}

export function updateLine(key: string, change: Partial<Pick<QuoteListLine, 'quantity' | 'note'>>) {
  const lines = getQuoteList();
  write(
    lines.map((l) =>
      l.key === key
        ? {
            ...l,
            ...(change.quantity !== undefined ? { quantity: clampQuantity(change.quantity) } : {}),
            ...(change.note !== undefined ? { note: change.note.slice(0, QUOTE_LINE_TEXT_MAX) } : {}),
          }
        : l,
    ),
  );
}

export function removeLine(key: string) {
  write(getQuoteList().filter((l) => l.key !== key));
}

export function clearQuoteList() {
  write([]);
}

/** The list as the WhatsApp message: part number × quantity per line, cut to fit a wa.me link. */
export function quoteListWhatsappText(lines: readonly QuoteListLine[], maxChars = 1500): string {
  const head = 'Hello! I would like a quote for these parts:\n';
  const tail = '\nPlease share price, availability and shipping options.';
  const rows = lines.map((l) => {
    const code = l.product ? l.product.partNumber || l.product.sku : l.text!;
    const brand = l.product?.brandName && l.product.brandName !== 'Generic' ? ` (${l.product.brandName})` : '';
    return `${code}${brand} × ${l.quantity}`;
  });
  let body = '';
  for (let i = 0; i < rows.length; i++) {
    const more = `…and ${rows.length - i} more line${rows.length - i === 1 ? '' : 's'}\n`;
    const next = `${rows[i]}\n`;
    const fitsWithMore = head.length + body.length + next.length + (i < rows.length - 1 ? more.length : 0) + tail.length <= maxChars;
    if (!fitsWithMore) {
      body += more;
      break;
    }
    body += next;
  }
  return head + body.trimEnd() + tail;
}
