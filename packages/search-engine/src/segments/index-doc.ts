import type { SearchDoc } from '../documents/search-doc.ts';
import { hasDigit, normalizeCode, tokenize } from '../text/normalize.ts';
import { Field, type VocabBuilder } from './vocab.ts';

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
