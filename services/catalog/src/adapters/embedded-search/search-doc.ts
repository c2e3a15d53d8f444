import type { Product } from '@forgeline/contracts/products';
import { hasDigit, normalizeCode, tokenize } from '../../domain/search/normalize.ts';
import { Field, type VocabBuilder } from './vocab.ts';

/** The part of a product the engine keeps: what it searches and what it highlights. */
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

export function toSearchDoc(p: Product): SearchDoc {
  const extra = [p.make, ...(p.tags ?? [])].filter((s) => s && s !== p.brandName).join('\n');
  return {
    id: p.id,
    name: p.name ?? '',
    partNumber: p.partNumber ?? '',
    sku: p.sku ?? '',
    brandName: p.brandName || p.brand || '',
    category: p.category ?? '',
    extra,
  };
}

function addText(words: VocabBuilder, codes: VocabBuilder, text: string, doc: number, field: number): number {
  if (!text) return 0;
  const terms = tokenize(text);
  for (const term of terms) (hasDigit(term) ? codes : words).add(term, doc, field);
  return terms.length;
}

/**
 * Feeds one document's terms to the builders (words without digits, everything else as codes).
 * Returns the number of words in the name.
 */
export function indexDoc(words: VocabBuilder, codes: VocabBuilder, doc: number, d: SearchDoc): number {
  const nameWords = addText(words, codes, d.name, doc, Field.name);
  addText(words, codes, d.brandName, doc, Field.brandName);
  addText(words, codes, d.category, doc, Field.category);
  addText(words, codes, d.extra, doc, Field.extra);
  addText(words, codes, d.partNumber, doc, Field.partNumberWord);
  addText(words, codes, d.sku, doc, Field.skuWord);
  const pn = normalizeCode(d.partNumber);
  if (pn) codes.add(pn, doc, Field.partNumberCode);
  const sku = normalizeCode(d.sku);
  if (sku) codes.add(sku, doc, Field.skuCode);
  return nameWords;
}
