import { beforeEach, describe, expect, it } from 'vitest';
import {
  addProduct,
  addText,
  clearQuoteList,
  ensureProducts,
  FULL_MESSAGE,
  getQuoteList,
  QUOTE_LIST_MAX_LINES,
  quoteListWhatsappText,
  removeLine,
  updateLine,
  type QuoteListProduct,
} from './quote-list-store.ts';

// Without a window the store keeps the list in memory: the same rules as with localStorage.
const part = (i: number): QuoteListProduct => ({
  id: `id-${i}`,
  name: `Oil Filter ${i}`,
  sku: `SKU-${i}`,
  partNumber: `1R-${String(i).padStart(4, '0')}`,
  brandName: i % 2 ? 'Caterpillar' : 'Generic',
  image: '/images/part-placeholder.svg',
});

describe('quote list store', () => {
  beforeEach(() => clearQuoteList());

  it('adds a part once, adding to its quantity after that; text lines likewise; quantities kept within 1..1,000,000', () => {
    expect(addProduct(part(1), 2)).toEqual({ ok: true, added: true });
    expect(addProduct(part(1), 3)).toEqual({ ok: true, added: false });
    expect(addText('  weird   gasket  ', 0)).toEqual({ ok: true, added: true });
    expect(addText('WEIRD GASKET', 4)).toEqual({ ok: true, added: false });
    expect(addText('   ', 1).ok).toBe(false);
    const [p, t] = getQuoteList();
    expect(p).toMatchObject({ key: 'id-1', quantity: 5 });
    expect(t).toMatchObject({ text: 'weird gasket', quantity: 5 });
    updateLine('id-1', { quantity: 5e9, note: 'x'.repeat(900) });
    expect(getQuoteList()[0]).toMatchObject({ quantity: 1_000_000 });
    expect(getQuoteList()[0]!.note).toHaveLength(500);
    removeLine('id-1');
    expect(getQuoteList().map((l) => l.key)).toEqual([t!.key]);
  });

  it('refuses a 201st line with the message the buyer sees, but still adds to a part already there', () => {
    for (let i = 0; i < QUOTE_LIST_MAX_LINES; i++) expect(addProduct(part(i), 1).ok).toBe(true);
    expect(addProduct(part(999), 1)).toEqual({ ok: false, message: FULL_MESSAGE });
    expect(addText('one more', 1)).toEqual({ ok: false, message: FULL_MESSAGE });
    expect(addProduct(part(7), 1)).toEqual({ ok: true, added: false });
    expect(getQuoteList()).toHaveLength(QUOTE_LIST_MAX_LINES);
  });

  it('puts parts from a link on with at least the quantities asked, so the same link twice adds nothing twice', () => {
    addProduct(part(1), 5);
    addProduct(part(2), 1);
    const link = [
      { product: part(1), quantity: 2 },
      { product: part(2), quantity: 4 },
      { product: part(3), quantity: 0 },
    ];
    expect(ensureProducts(link)).toEqual(['kept', 'raised', 'added']);
    expect(ensureProducts(link)).toEqual(['kept', 'kept', 'kept']);
    expect(getQuoteList().map((l) => [l.key, l.quantity])).toEqual([
      ['id-1', 5],
      ['id-2', 4],
      ['id-3', 1],
    ]);
  });

  it('leaves out the parts from a link a full list has no room for, still raising the ones on it', () => {
    for (let i = 0; i < QUOTE_LIST_MAX_LINES; i++) addProduct(part(i), 1);
    expect(ensureProducts([{ product: part(999), quantity: 1 }, { product: part(7), quantity: 3 }])).toEqual(['full', 'raised']);
    expect(getQuoteList()).toHaveLength(QUOTE_LIST_MAX_LINES);
    expect(getQuoteList()[7]!.quantity).toBe(3);
  });

  it('writes the WhatsApp text as part number × quantity per line, cut to fit with a count of what was left out', () => {
    addProduct(part(1), 2);
    addProduct(part(2), 1);
    addText('Seal kit for 320D boom', 3);
    expect(quoteListWhatsappText(getQuoteList())).toBe(
      'Hello! I would like a quote for these parts:\n1R-0001 (Caterpillar) × 2\n1R-0002 × 1\nSeal kit for 320D boom × 3\nPlease share price, availability and shipping options.',
    );
    for (let i = 3; i < 200; i++) addProduct(part(i), i);
    const text = quoteListWhatsappText(getQuoteList());
    expect(text.length).toBeLessThanOrEqual(1500);
    const shown = text.split('\n').filter((l) => / × \d+$/.test(l)).length;
    expect(text).toContain(`…and ${200 - shown} more lines`);
    expect(text.endsWith('Please share price, availability and shipping options.')).toBe(true);
  });
});
