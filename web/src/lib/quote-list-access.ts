/**
 * The buyer's quote list as a page outside the quote-list feature reaches it (the account page, an assembly page):
 * through the quote-list feature's own store (features/quote-list/quote-list-store.ts), which the app hands to the
 * page (web/src/app/router.tsx), since a feature does not import another's store. The store's own shapes are these
 * (it imports them from here); the router's hand-over checks its functions still fit.
 */
export interface QuoteListProductLike {
  id: string;
  name: string;
  sku: string;
  partNumber: string;
  brandName: string;
  slug?: string | null;
  image: string;
}

export interface QuoteListLineLike {
  /** The product id for a catalogue part; `text:<n>` for a line the buyer typed that matched nothing. */
  key: string;
  product?: QuoteListProductLike;
  text?: string;
  quantity: number;
  note: string;
}

export type AddResultLike = { ok: true; added: boolean } | { ok: false; message: string };

/** A catalogue part as a page has it (a listing's summary, an assembly's line), to put on the list. */
export interface QuoteListPartLike {
  id: string;
  name: string;
  sku: string;
  partNumber: string;
  brandName: string;
  slug?: string | null;
  images?: readonly string[] | null;
  imageUrl?: string | null;
}

export interface QuoteListAccess {
  useQuoteList: () => readonly QuoteListLineLike[] | null;
  getQuoteList: () => readonly QuoteListLineLike[];
  addProduct: (product: QuoteListProductLike, quantity: number) => AddResultLike;
  addText: (text: string, quantity: number) => AddResultLike;
  updateLine: (key: string, change: { note?: string }) => void;
  clearQuoteList: () => void;
  productOfSummary: (p: QuoteListPartLike) => QuoteListProductLike;
}
