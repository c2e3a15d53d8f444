import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { QuoteView, QuoteViewLine, QuoteViewVersion } from '@forgeline/contracts/quote-view';
import { siteConfig } from '@forgeline/site-config/site';
import { pdfText, renderQuotePdf, type QuoteSeller } from '../src/domain/quote-pdf.ts';

/**
 * The quote PDF read back without a PDF library: each page's content stream is inflated and the text of its TJ
 * operators decoded (pdfkit writes the built-in fonts' text as WinAnsi hex strings), one entry per drawn line. A real
 * reader is not needed for that, and unpdf's current releases want Node 22.
 */
const winAnsi = new TextDecoder('windows-1252');
const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
/** A literal string's text: escapes undone, UTF-16 when it starts with a byte order mark. */
const literal = (s: string) => {
  const bytes = Buffer.from(s.replace(/\\([nrtbf()\\])/g, (_, c: string) => ESCAPES[c] ?? c), 'latin1');
  return bytes[0] === 0xfe && bytes[1] === 0xff ? new TextDecoder('utf-16be').decode(bytes.subarray(2)) : bytes.toString('latin1');
};
interface ReadPdf {
  raw: string;
  /** Per page, the text of each drawn line, in drawing order. */
  pages: string[][];
  /** Per page, each of those lines' baseline, in points above the page's foot. */
  baselines: number[][];
  info: Record<string, string>;
}
function readPdf(pdf: Buffer): ReadPdf {
  const raw = pdf.toString('latin1');
  const objects = new Map<string, { dict: string; start: number }>();
  for (const m of raw.matchAll(/(\d+) 0 obj\n<<([\s\S]*?)>>\n(?:stream\n|endobj)/g)) objects.set(m[1]!, { dict: m[2]!, start: m.index + m[0].length });
  const ref = (dict: string, key: string) => new RegExp(`/${key} (\\d+) 0 R`).exec(dict)?.[1];
  const stream = (id: string) => {
    const o = objects.get(id)!;
    const bytes = pdf.subarray(o.start, o.start + Number(/\/Length (\d+)/.exec(o.dict)![1]));
    return (o.dict.includes('/FlateDecode') ? inflateSync(bytes) : bytes).toString('latin1');
  };
  // pdfkit sets each line's position (`x y Tm`, y the baseline from the page's foot) and font just before its TJ.
  const lines = (content: string) =>
    [...content.matchAll(/1 0 0 1 [-\d.]+ ([-\d.]+) Tm\n\/F\d+ [\d.]+ Tf\n\[((?:<[0-9a-f]*>|[-\d. ])*)\] TJ/g)].map((tj) => ({
      baseline: Number(tj[1]),
      text: [...tj[2]!.matchAll(/<([0-9a-f]*)>/g)].map((h) => winAnsi.decode(Buffer.from(h[1]!, 'hex'))).join(''),
    }));
  const root = [...objects.values()].find((o) => o.dict.includes('/Type /Catalog'))!;
  const kids = /\/Kids \[([^\]]*)\]/.exec(objects.get(ref(root.dict, 'Pages')!)!.dict)![1]!;
  const drawn = [...kids.matchAll(/(\d+) 0 R/g)].map((k) => lines(stream(ref(objects.get(k[1]!)!.dict, 'Contents')!)));
  const pages = drawn.map((page) => page.map((l) => l.text));
  const baselines = drawn.map((page) => page.map((l) => l.baseline));
  const info: Record<string, string> = {};
  for (const m of objects.get(/\/Info (\d+) 0 R/.exec(raw)![1]!)!.dict.matchAll(/\/(\w+) (\d+) 0 R/g)) {
    info[m[1]!] = literal(new RegExp(`\\n${m[2]} 0 obj\\n\\((.*)\\)\\nendobj`).exec(raw)![1]!);
  }
  return { raw, pages, baselines, info };
}

const SELLER: QuoteSeller = { name: 'Forgeline Parts', phone: '+1 (312) 555-0147', email: 'sales@forgelineparts.com', address: ['400 W Lake St', 'Chicago, IL 60606, USA'] };
const LONG_NAME = 'Heavy-duty track roller assembly with double flange and sealed bearings for CAT D9 and Komatsu D275';

function line(i: number, over: Partial<QuoteViewLine> = {}): QuoteViewLine {
  const unitPrice = 10 + i * 1.5;
  const quantity = 1 + (i % 7);
  return {
    productId: `p-${i}`,
    productSku: `SKU-${String(i + 1).padStart(4, '0')}`,
    productName: i % 3 === 0 ? `${LONG_NAME} (row ${i + 1})` : `Hydraulic pump ${i + 1}`,
    quantity,
    unitPrice,
    currency: 'USD',
    lineTotal: Math.round(unitPrice * quantity * 100) / 100,
    leadTime: '2-3 weeks',
    ...over,
  };
}

function version(n: number, lines: QuoteViewLine[], totals: QuoteViewVersion['totals']): QuoteViewVersion {
  return { version: n, quotedAt: '2026-03-02T10:15:00.000Z', message: 'Thank you for your request.\nPrices are ex works, excluding VAT.', validUntil: '2026-03-31', lines, totals };
}

function view(versions: QuoteViewVersion[], over: Partial<QuoteView> = {}): QuoteView {
  return {
    reference: 'Q-7f3a9c21',
    customerName: 'Ada Okafor',
    status: 'open',
    requestedAt: '2026-03-01T09:00:00.000Z',
    versions,
    latestVersion: versions.length,
    canAccept: true,
    canAskChanges: true,
    canDecline: true,
    canReopen: false,
    history: [],
    order: null,
    declined: null,
    ...over,
  };
}

const threeLines = [
  line(0, { productSku: 'FF-5052', productName: 'Fuel filter', quantity: 4, unitPrice: 308.625, lineTotal: 1234.5 }),
  line(1, { productSku: 'BT-2210', productName: 'Bucket tooth', quantity: 2, unitPrice: 49.5, currency: 'EUR', lineTotal: 99 }),
  line(2, { productSku: 'AL-0007', productName: 'Alternator 24 V', quantity: 1, unitPrice: null, currency: null, lineTotal: null, leadTime: null }),
];
const small = view([version(1, threeLines, [{ currency: 'USD', total: 1234.5 }, { currency: 'EUR', total: 99 }])]);

const many = Array.from({ length: 200 }, (_, i) => (i % 10 === 9 ? line(i, { unitPrice: null, currency: null, lineTotal: null }) : line(i)));
const big = view([version(1, many, [{ currency: 'USD', total: 98765.43 }])]);

/**
 * Only the footer (each page's last two drawn lines) sits in the 60 pt kept at the page's foot: a glyph's lowest point
 * (its baseline less Helvetica's descent, about 2 pt) stays above it, so no row and no total runs over.
 */
function expectFooterClear({ pages, baselines }: Pick<ReadPdf, 'pages' | 'baselines'>) {
  pages.forEach((text, p) => {
    expect(text.at(-1), `page ${p + 1}'s last line`).toBe(`Page ${p + 1} of ${pages.length}`);
    const body = baselines[p]!.slice(0, -2);
    const lowest = Math.min(...body);
    expect(lowest - 2, `page ${p + 1} of ${pages.length}: "${text[body.indexOf(lowest)]}"`).toBeGreaterThanOrEqual(60);
  });
}

const pageCount = (raw: string) => raw.match(/\/Type \/Page(?!s)/g)?.length ?? 0;

describe('renderQuotePdf', () => {
  it('renders a 3-line quote as one PDF page with the seller, the quote, its lines and totals', async () => {
    const pdf = await renderQuotePdf(small, 1, SELLER);
    const s = pdf.toString('latin1');
    expect(s.startsWith('%PDF-')).toBe(true);
    expect(s.trimEnd().endsWith('%%EOF')).toBe(true);

    const { raw, pages, info } = readPdf(pdf);
    expect(pageCount(raw)).toBe(1);
    const text = pages[0]!;
    for (const want of ['Forgeline Parts', '400 W Lake St', '+1 (312) 555-0147', 'sales@forgelineparts.com', 'Quotation Q-7f3a9c21', 'Ada Okafor', '2 Mar 2026', '31 Mar 2026 (end of day, UTC)', 'Thank you for your request.', 'Prices are ex works, excluding VAT.']) {
      expect(text).toContain(want);
    }
    expect(text[text.indexOf('Version') + 1]).toBe('1');
    expect(text).toEqual(expect.arrayContaining(['#', 'Part', 'SKU', 'Qty', 'Unit price', 'Line total', 'Lead time']));
    expect(text).toEqual(expect.arrayContaining(['Fuel filter', 'FF-5052', '4', 'USD 308.63', 'USD 1,234.50', '2-3 weeks']));
    expect(text).toEqual(expect.arrayContaining(['Bucket tooth', 'BT-2210', 'EUR 49.50', 'EUR 99.00']));
    // The unpriced line: "on request", no line total, no lead time.
    const alt = text.indexOf('Alternator 24 V');
    expect(text.slice(alt, alt + 6)).toEqual(['Alternator 24 V', 'AL-0007', '1', 'on request', '-', '-']);
    // Totals per currency, label then amount, and the note about the unpriced line.
    expect(text[text.indexOf('Total USD') + 1]).toBe('USD 1,234.50');
    expect(text[text.indexOf('Total EUR') + 1]).toBe('EUR 99.00');
    expect(text).toContain('1 line is on request and not included in the totals.');
    expect(text).toContain('Page 1 of 1');
    expect(info).toMatchObject({ Title: 'Quotation Q-7f3a9c21', Author: 'Forgeline Parts' });
  });

  it('paginates a 200-line quote: the header on every page, no row split, long names wrapped, "Page X of N"', async () => {
    const pdf = await renderQuotePdf(big, 1, SELLER);
    const { raw, pages, baselines } = readPdf(pdf);
    const n = pages.length;
    expect(n).toBeGreaterThan(1);
    expect(pageCount(raw)).toBe(n);
    expect(raw).toContain(`/Count ${n}`);

    expectFooterClear({ pages, baselines });
    pages.forEach((text, p) => {
      expect(text, `page ${p + 1}`).toContain(`Page ${p + 1} of ${n}`);
      expect(text, `page ${p + 1}`).toEqual(expect.arrayContaining(['Part', 'SKU', 'Qty', 'Unit price', 'Line total', 'Lead time']));
      // The header comes before the page's first row.
      const firstSku = text.findIndex((t) => /^SKU-\d{4}$/.test(t));
      expect(text.indexOf('Unit price'), `page ${p + 1}`).toBeLessThan(firstSku);
    });

    const pageOf = (t: string) => pages.findIndex((text) => text.includes(t));
    let lastPage = 0;
    many.forEach((l, i) => {
      const p = pageOf(l.productSku);
      expect(p, l.productSku).toBeGreaterThanOrEqual(lastPage);
      lastPage = p;
      // A row is drawn cell by cell: its number, its name (one entry per wrapped line), SKU, qty, prices, lead time.
      const text = pages[p]!;
      const at = text.indexOf(l.productSku);
      const num = text.lastIndexOf(String(i + 1), at);
      expect(num, `${l.productSku}'s number`).toBeGreaterThan(at - 10);
      const nameLines = text.slice(num + 1, at);
      expect(nameLines.map((t) => t.trim()).join(' ').replace(/- /g, '-'), l.productSku).toBe(l.productName);
      // Long names wrap inside the Part column, every line on the row's page.
      if (l.productName.startsWith(LONG_NAME)) expect(nameLines.length, l.productSku).toBeGreaterThan(1);
      else expect(nameLines, l.productSku).toHaveLength(1);
      expect(text.slice(at + 1, at + 5), l.productSku).toEqual(
        l.unitPrice === null ? [String(l.quantity), 'on request', '-', '2-3 weeks'] : [String(l.quantity), `USD ${l.unitPrice.toFixed(2)}`, expect.stringMatching(/^USD [\d,]+\.\d\d$/), '2-3 weeks'],
      );
    });

    const last = pages[n - 1]!;
    expect(last[last.indexOf('Total USD') + 1]).toBe('USD 98,765.43');
    expect(last).toContain('20 lines are on request and not included in the totals.');
    // Later pages say which quote they continue.
    expect(pages[1]).toContain('Quotation Q-7f3a9c21, version 1 (continued)');
  });

  it('keeps rows and totals out of the footer wherever the table ends', async () => {
    // 25 to 50 short lines: the first page fills up and the table, or only the totals, moves on to page 2.
    const pageSplits = new Set<string>();
    for (let n = 25; n <= 50; n++) {
      const lines = Array.from({ length: n }, (_, i) => line(i, { productName: `Part ${i + 1}`, ...(i % 4 === 1 ? { currency: 'EUR' } : {}), ...(i === 2 ? { unitPrice: null, currency: null, lineTotal: null } : {}) }));
      const read = readPdf(await renderQuotePdf(view([version(1, lines, [{ currency: 'USD', total: 1 }, { currency: 'EUR', total: 2 }])]), 1, SELLER));
      expectFooterClear(read);
      pageSplits.add(`${read.pages.length}:${read.pages.at(-1)!.includes(lines.at(-1)!.productSku)}`);
    }
    // The sweep did cover both: last row with the totals on page 2, and totals alone on page 2.
    expect(pageSplits).toEqual(new Set(['1:true', '2:true', '2:false']));
  });

  it('never leaves the table header alone at the foot of a page', async () => {
    // Messages of 36 to 50 lines push the table's start down across the foot of page 1.
    const starts = new Set<number>();
    for (let m = 36; m <= 50; m++) {
      const message = Array.from({ length: m }, (_, i) => `Condition ${i + 1}.`).join('\n');
      const { pages, baselines } = readPdf(await renderQuotePdf(view([{ ...small.versions[0]!, message }]), 1, SELLER));
      expectFooterClear({ pages, baselines });
      pages.forEach((text, p) => {
        const rowsUnder = text.slice(text.indexOf('Lead time')).filter((t) => threeLines.some((l) => l.productSku === t));
        if (text.includes('Lead time')) expect(rowsUnder.length, `${m} lines, page ${p + 1}`).toBeGreaterThan(0);
      });
      starts.add(pages.findIndex((text) => text.includes('Lead time')));
    }
    expect(starts).toEqual(new Set([0, 1]));
  });

  it('gives the same bytes for the same quote', async () => {
    const [a, b] = await Promise.all([renderQuotePdf(small, 1, SELLER), renderQuotePdf(small, 1, SELLER)]);
    expect(a.equals(b)).toBe(true);
  });

  it('takes site-config as the seller', async () => {
    const { pages, info } = readPdf(await renderQuotePdf(small, 1, siteConfig));
    expect(pages[0]).toEqual(expect.arrayContaining([siteConfig.name, siteConfig.phone, siteConfig.email]));
    expect(info.Author).toBe(siteConfig.name);
  });

  it('renders an older version with its own lines and says it was replaced', async () => {
    const revised = view([version(1, threeLines, [{ currency: 'USD', total: 1234.5 }]), version(2, [line(0, { productName: 'Revised part' })], [{ currency: 'USD', total: 10 }])]);
    const [old] = readPdf(await renderQuotePdf(revised, 1, SELLER)).pages;
    expect(old).toContain('Fuel filter');
    expect(old).not.toContain('Revised part');
    expect(old).toContain('Replaced by version 2: these prices no longer apply.');
    const [latest] = readPdf(await renderQuotePdf(revised, 2, SELLER)).pages;
    expect(latest).toContain('Revised part');
    expect(latest!.join('\n')).not.toContain('Replaced by');
  });

  it('prints "on request" as the total when no line has a price', async () => {
    const unpriced = view([version(1, [threeLines[2]!], [])]);
    const [text] = readPdf(await renderQuotePdf(unpriced, 1, SELLER)).pages;
    expect(text![text!.indexOf('Total') + 1]).toBe('on request');
  });

  it('refuses a version the quote does not have', async () => {
    await expect(renderQuotePdf(small, 2, SELLER)).rejects.toThrow(/no version 2/);
  });

  it('keeps text outside the built-in fonts from garbling what follows it', async () => {
    expect(pdfText('Łódź Дмитрий – “Ø” €5\tok\r\n')).toBe('?ódz ??????? – “Ø” €5 ok\n');
    const { pages, info } = readPdf(await renderQuotePdf(view(small.versions, { customerName: 'Łódź Дмитрий Ltd' }), 1, SELLER));
    expect(pages[0]).toEqual(expect.arrayContaining(['?ódz ??????? Ltd', 'Quotation Q-7f3a9c21', 'USD 1,234.50']));
    // The metadata keeps the name as given (UTF-16 there).
    expect(info.Subject).toBe('Quotation Q-7f3a9c21, version 1, for Łódź Дмитрий Ltd');
  });
});
