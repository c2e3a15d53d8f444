import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, post, PRODUCT, SELLER, startCatalogStub, startService, validQuote, type TestService } from './harness.ts';

const SEAL = { id: 'p-2', name: 'Seal Kit <6I-2503>', sku: 'SK-6I2503', partNumber: '6I-2503' };

describe('a quote request for a list of parts (lines), over HTTP', () => {
  let catalog: Awaited<ReturnType<typeof startCatalogStub>>;
  let svc: TestService;

  beforeAll(async () => {
    catalog = await startCatalogStub([PRODUCT, SEAL]);
    svc = await startService({ catalogUrl: catalog.url });
  });
  afterAll(async () => {
    await svc?.close();
    await catalog?.close();
  });

  const body = (lines: unknown) => {
    const { productId: _p, quantity: _q, ...rest } = validQuote();
    return { ...rest, lines };
  };

  it('stores every line with the product as it is now, or the buyer\'s text, and mails both sides a table of them', async () => {
    const res = await post(`${svc.url}/api/quote-requests`, body([
      { productId: PRODUCT.id, quantity: 2 },
      { productId: SEAL.id, quantity: 6, note: 'for the boom cylinder' },
      { text: 'CAT 9X-1234 <not found>', quantity: 3 },
    ]));
    expect(res.status).toBe(201);
    const stored = await svc.store.getQuoteRequest(res.body.id);
    expect(stored).toMatchObject({ productId: PRODUCT.id, productSku: PRODUCT.sku, quantity: 2 });
    expect(stored!.lines).toEqual([
      { productId: PRODUCT.id, productName: PRODUCT.name, productSku: PRODUCT.sku, partNumber: PRODUCT.partNumber, text: null, quantity: 2, note: '' },
      { productId: SEAL.id, productName: SEAL.name, productSku: SEAL.sku, partNumber: SEAL.partNumber, text: null, quantity: 6, note: 'for the boom cylinder' },
      { productId: null, productName: '', productSku: '', partNumber: '', text: 'CAT 9X-1234 <not found>', quantity: 3, note: '' },
    ]);
    const inbox = await svc.store.getInbox(res.body.id);
    expect(inbox).toMatchObject({ lineCount: 3, firstLine: { productSku: PRODUCT.sku, quantity: 2 } });
    expect(inbox!.lines[2]).toMatchObject({ productName: 'CAT 9X-1234 <not found>', quantity: 3 });

    const mails: string[] = [];
    await eventually(async () => {
      mails.length = 0;
      for (const f of (await readdir(svc.mailDir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml'))) {
        const text = await readFile(path.join(svc.mailDir, f), 'utf8');
        if (text.includes(`quote-${res.body.id}-`)) mails.push(text.replace(/=\r?\n/g, ''));
      }
      return mails.length === 2;
    });
    const buyer = mails.find((m) => /^To: ada@example\.com/m.test(m))!;
    const seller = mails.find((m) => new RegExp(`^To: ${SELLER.replace('.', '\\.')}`, 'm').test(m))!;
    expect(buyer).toMatch(/^Subject: Quote request received: 3 parts/m);
    expect(seller).toMatch(/^Subject: New quote request: 3 parts/m);
    expect(seller).toContain('2. Seal Kit <6I-2503> | SKU SK-6I2503 | 6I-2503 | qty 6 | for the boom cylinder');
    expect(seller).toContain('3. CAT 9X-1234 <not found> (not matched to a catalogue part) | qty 3');
    // the buyer's address is unverified: the catalogue's names and the quantities, none of the buyer's text
    expect(buyer).toContain('2. Seal Kit <6I-2503> | SKU SK-6I2503 | qty 6');
    expect(buyer).toContain('3. A part not in our catalogue (as you described it) | qty 3');
    expect(buyer).not.toContain('boom cylinder');
    expect(buyer).not.toContain('CAT 9X-1234');
    for (const m of [buyer, seller]) {
      // the HTML part escapes what the buyer and the catalogue wrote
      expect(m).toContain('Seal Kit &lt;6I-2503&gt;');
      expect(m).not.toContain('<td align="left" style="padding:4px 10px;border-bottom:1px solid #ddd;vertical-align:top">Seal Kit <6I');
    }
  });

  it('refuses a bad list with a 400 naming the line, and stores nothing', async () => {
    const before = await svc.store.countQuoteRequests();
    const cases: [unknown, string, RegExp?][] = [
      [Array.from({ length: 201 }, () => ({ productId: PRODUCT.id })), 'lines', /at most 200 lines/],
      [[], 'lines', /at least one line/],
      [[{ text: 'x'.repeat(10_000) }], 'lines.0.text'],
      [[{ productId: PRODUCT.id, quantity: 0 }], 'lines.0.quantity'],
      [[{ productId: PRODUCT.id, quantity: 1_000_000_000 }], 'lines.0.quantity'],
      [[{ quantity: 2 }], 'lines.0.productId', /needs a productId or a text/],
      [[{ productId: PRODUCT.id }, { productId: 'nope' }], 'lines.1.productId', /no product has the id "nope" \(line 2\)/],
    ];
    for (const [lines, field, message] of cases) {
      const res = await post(`${svc.url}/api/quote-requests`, body(lines));
      expect(res.status, field).toBe(400);
      expect(res.body.issues.map((i: { path: string }) => i.path), field).toContain(field);
      if (message) expect(res.body.message).toMatch(message);
    }
    const both = await post(`${svc.url}/api/quote-requests`, { ...validQuote(), lines: [{ productId: PRODUCT.id }] });
    expect(both.status).toBe(400);
    expect(both.body.issues[0].path).toBe('lines');
    expect(await svc.store.countQuoteRequests()).toBe(before);
  });

  it('keeps the single-product body of the specification as it was', async () => {
    const res = await post(`${svc.url}/api/quote-requests`, validQuote({ quantity: 4 }));
    expect(res.status).toBe(201);
    const stored = await svc.store.getQuoteRequest(res.body.id);
    expect(stored).toMatchObject({ productId: PRODUCT.id, productName: PRODUCT.name, quantity: 4 });
    expect(stored!.lines).toBeUndefined();
    const missing = await post(`${svc.url}/api/quote-requests`, { ...validQuote(), productId: undefined });
    expect(missing.status).toBe(400);
    expect(missing.body.issues[0]).toEqual({ path: 'productId', message: 'is required' });
  });
});
