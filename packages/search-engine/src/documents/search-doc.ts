/**
 * A document as the engine keeps it: what it searches and what it highlights. The fields are the engine's own (a part
 * has a name, a part number, a SKU, a brand and a category); the caller turns its records into these.
 */
export interface SearchDoc {
  id: string;
  name: string;
  partNumber: string;
  sku: string;
  brandName: string;
  category: string;
  /** make and tags, one per line: searched, never highlighted */
  extra: string;
}

/** The fields of a document, in the order its columns are kept and written. */
export const DOC_FIELDS = ['id', 'name', 'partNumber', 'sku', 'brandName', 'category', 'extra'] as const;
export type DocField = (typeof DOC_FIELDS)[number];
