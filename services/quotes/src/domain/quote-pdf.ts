import type { QuoteView, QuoteViewLine } from '@forgeline/contracts/quote-view';
import PDFDocument from 'pdfkit';

/**
 * Who sends the quote: a subset of site-config's `SiteConfig`, so `siteConfig` (or `overrideSiteConfig(env)`) can be
 * passed as it is. site-config keeps no postal address yet, hence `address` is optional (one line per entry).
 *
 * No logo: site-config's logoPath is web/public/logo.svg, pdfkit draws no SVG files and there is no PNG variant, so
 * the name is set as text (a redrawn copy of the mark would drift from the SVG).
 */
export interface QuoteSeller {
  name: string;
  phone: string;
  email: string;
  address?: readonly string[];
}

const MARGIN = 40;
const BOTTOM = 60; // room under the body for the footer
const TABLE_SIZE = 8.5;
const CELL_PAD = 4;
const HEADER_HEIGHT = TABLE_SIZE + 2 * CELL_PAD + 3;
// A cell longer than this is cut with an ellipsis: a row must fit on one page whatever the text.
const MAX_CELL_LINES = 8;
const INK = '#17191c';
const MUTED = '#5b6068';
const RULE = '#c9ccd1';
const STRIPE = '#f3f4f6';

interface Column {
  head: string;
  width: number;
  align: 'left' | 'right';
  cell: (l: QuoteViewLine, i: number) => string;
}

/** Amounts as the buyer's quote page shows them ("USD 1,234.50"), with a plain space so text search finds them. */
const formatters = new Map<string, Intl.NumberFormat>();
function money(n: number, currency: string | null): string {
  const key = currency ?? '';
  let f = formatters.get(key);
  if (!f) {
    try {
      f = new Intl.NumberFormat('en', key ? { style: 'currency', currency: key, currencyDisplay: 'code' } : { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    } catch {
      // Not an ISO 4217 code (free text typed by staff): its name before plain two-decimal digits.
      const plain = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      f = { format: (x: number) => `${key} ${plain.format(x)}` } as Intl.NumberFormat;
    }
    formatters.set(key, f);
  }
  return f.format(n).replace(/\u00a0/g, ' ');
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const date = (iso: string) => {
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso}T00:00:00Z` : iso);
  return Number.isNaN(d.getTime()) ? iso : dateFormat.format(d);
};

// What Helvetica's WinAnsi encoding holds beyond Latin-1 (pdfkit's WIN_ANSI_MAP).
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const encodable = (c: string) => {
  const code = c.charCodeAt(0);
  return c.length === 1 && ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(c));
};
/**
 * Text the built-in fonts can show. pdfkit writes a character outside WinAnsi as 3+ hex digits, which shifts every
 * byte after it in the string (garbage, not just one bad glyph); so accents come off where that helps and the rest
 * becomes "?". Names in other scripts need an embedded Unicode font.
 */
export function pdfText(s: string): string {
  if (/^[\x20-\x7e\n]*$/.test(s)) return s;
  let out = '';
  for (const c of s.replace(/\r\n?/g, '\n').replace(/[\t\v\f]/g, ' ')) {
    if (c === '\n' || encodable(c)) out += c;
    else if (c.charCodeAt(0) < 0x20 || (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) < 0xa0)) continue;
    else {
      const bare = c.normalize('NFKD').replace(/\p{M}/gu, '');
      out += [...bare].every(encodable) && bare ? bare : '?';
    }
  }
  return out;
}

const COLUMNS: Column[] = [
  { head: '#', width: 26, align: 'right', cell: (_l, i) => String(i + 1) },
  { head: 'Part', width: 154, align: 'left', cell: (l) => l.productName },
  { head: 'SKU', width: 72, align: 'left', cell: (l) => l.productSku || '-' },
  { head: 'Qty', width: 42, align: 'right', cell: (l) => l.quantity.toLocaleString('en') },
  { head: 'Unit price', width: 74, align: 'right', cell: (l) => (l.unitPrice === null ? 'on request' : money(l.unitPrice, l.currency)) },
  { head: 'Line total', width: 80, align: 'right', cell: (l) => (l.lineTotal === null ? '-' : money(l.lineTotal, l.currency)) },
  { head: 'Lead time', width: 67, align: 'left', cell: (l) => l.leadTime || '-' },
];

/**
 * One version of a buyer's quote as an A4 PDF: the seller, the quote's facts and message, its lines (the header
 * repeated on each page, a row never split), totals per currency and "Page X of Y". The same input gives the same
 * bytes: the creation date is the version's quote date.
 */
export async function renderQuotePdf(view: QuoteView, version: number, seller: QuoteSeller): Promise<Buffer> {
  const v = view.versions.find((x) => x.version === version);
  if (!v) throw new RangeError(`quote ${view.reference} has no version ${version}`);
  const title = `Quotation ${view.reference}`;
  const quotedAt = new Date(v.quotedAt);

  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: BOTTOM },
    bufferPages: true, // the footer needs the page count, known only at the end
    lang: 'en',
    displayTitle: true,
    info: {
      // Metadata strings are written as UTF-16 when needed: no pdfText here.
      Title: title,
      Author: seller.name,
      Subject: `${title}, version ${v.version}, for ${view.customerName}`,
      ...(Number.isNaN(quotedAt.getTime()) ? {} : { CreationDate: quotedAt }),
    },
  });
  const chunks: Uint8Array[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Uint8Array) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = MARGIN;
  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - BOTTOM;

  // The seller: name on the left, address and contacts on the right.
  const contact = [...(seller.address ?? []), seller.phone, seller.email].filter(Boolean).map(pdfText).join('\n');
  doc.font('Helvetica').fontSize(9).fillColor(MUTED).text(contact, left + width / 2, MARGIN, { width: width / 2, align: 'right' });
  const contactBottom = doc.y;
  doc.font('Helvetica-Bold').fontSize(18).fillColor(INK).text(pdfText(seller.name), left, MARGIN, { width: width / 2 });
  let y = Math.max(doc.y, contactBottom) + 10;
  doc.moveTo(left, y).lineTo(left + width, y).lineWidth(0.75).strokeColor(RULE).stroke();

  doc.font('Helvetica-Bold').fontSize(16).fillColor(INK).text(pdfText(title), left, y + 14, { width });
  y = doc.y + 6;
  const facts: [string, string][] = [
    ['Customer', view.customerName],
    ['Version', String(v.version)],
    ['Quoted', date(v.quotedAt)],
    ['Valid until', `${date(v.validUntil)} (end of day, UTC)`],
  ];
  if (v.version < view.latestVersion) facts.push(['Note', `Replaced by version ${view.latestVersion}: these prices no longer apply.`]);
  for (const [label, value] of facts) {
    doc.font('Helvetica-Bold').fontSize(10).fillColor(MUTED).text(label, left, y, { width: 80 });
    doc.font('Helvetica').fillColor(INK).text(pdfText(value), left + 80, y, { width: width - 80 });
    y = doc.y + 2;
  }
  if (v.message.trim()) {
    // May run over pages for a long message; pdfkit flows it (the table below starts wherever it ends).
    doc.font('Helvetica').fontSize(10).fillColor(INK).text(pdfText(v.message.trim()), left, y + 10, { width, lineGap: 1.5 });
    y = doc.y;
  }
  y += 16;

  // The lines.
  const cellOptions = (c: Column) => ({ width: c.width - 2 * CELL_PAD, align: c.align, lineGap: 1 });
  doc.font('Helvetica').fontSize(TABLE_SIZE);
  const maxCell = doc.heightOfString(Array(MAX_CELL_LINES).fill('X').join('\n'), { lineGap: 1 });
  const header = () => {
    doc.font('Helvetica-Bold').fontSize(TABLE_SIZE).fillColor(INK);
    let x = left;
    for (const c of COLUMNS) {
      doc.text(c.head, x + CELL_PAD, y + CELL_PAD, cellOptions(c));
      x += c.width;
    }
    y += HEADER_HEIGHT;
    doc.moveTo(left, y).lineTo(left + width, y).lineWidth(0.75).strokeColor(INK).stroke();
  };
  const newPage = () => {
    doc.addPage();
    y = MARGIN;
    doc.font('Helvetica').fontSize(8).fillColor(MUTED).text(pdfText(`${title}, version ${v.version} (continued)`), left, y, { width });
    y = doc.y + 6;
  };
  // The header goes with the first row under it: never alone at a page's foot.
  let needHeader = true;
  v.lines.forEach((line, i) => {
    const cells = COLUMNS.map((c) => pdfText(c.cell(line, i)));
    doc.font('Helvetica').fontSize(TABLE_SIZE);
    const h = Math.max(...cells.map((t, j) => Math.min(maxCell, doc.heightOfString(t, cellOptions(COLUMNS[j]!))))) + 2 * CELL_PAD;
    if (y + (needHeader ? HEADER_HEIGHT : 0) + h > bottom()) {
      newPage();
      needHeader = true;
    }
    if (needHeader) {
      header();
      needHeader = false;
      doc.font('Helvetica').fontSize(TABLE_SIZE);
    }
    if (i % 2 === 1) doc.rect(left, y, width, h).fillColor(STRIPE).fill();
    doc.fillColor(INK);
    let x = left;
    cells.forEach((t, j) => {
      const c = COLUMNS[j]!;
      doc.text(t, x + CELL_PAD, y + CELL_PAD, { ...cellOptions(c), height: maxCell, ellipsis: true });
      x += c.width;
    });
    y += h;
  });
  if (!v.lines.length) {
    doc.font('Helvetica').fontSize(10).fillColor(MUTED).text('This version has no lines.', left, y, { width });
    y = doc.y;
  }

  // Totals, kept together under the table.
  const onRequest = v.lines.filter((l) => l.lineTotal === null).length;
  const totals: [string, string][] = v.totals.length ? v.totals.map((t) => [`Total${t.currency ? ` ${t.currency}` : ''}`, money(t.total, t.currency || null)]) : [['Total', 'on request']];
  const note = onRequest && v.totals.length ? `${onRequest} ${onRequest === 1 ? 'line is' : 'lines are'} on request and not included in the totals.` : '';
  if (y + 8 + totals.length * 15 + (note ? 14 : 0) > bottom()) newPage();
  doc.moveTo(left, y).lineTo(left + width, y).lineWidth(0.75).strokeColor(INK).stroke();
  y += 8;
  for (const [label, amount] of totals) {
    doc.font('Helvetica-Bold').fontSize(10).fillColor(INK).text(pdfText(label), left + width - 260, y, { width: 100, align: 'right' });
    doc.text(pdfText(amount), left + width - 155, y, { width: 155 - CELL_PAD, align: 'right' });
    y += 15;
  }
  if (note) doc.font('Helvetica').fontSize(8.5).fillColor(MUTED).text(note, left, y + 2, { width: width - CELL_PAD, align: 'right' });

  // Footers, once the page count is known; the bottom margin is lifted so writing there adds no page.
  const { start, count } = doc.bufferedPageRange();
  for (let p = start; p < start + count; p++) {
    doc.switchToPage(p);
    doc.page.margins.bottom = 0;
    const fy = doc.page.height - BOTTOM + 22;
    doc.moveTo(left, fy - 6).lineTo(left + width, fy - 6).lineWidth(0.5).strokeColor(RULE).stroke();
    doc.font('Helvetica').fontSize(8).fillColor(MUTED);
    doc.text(pdfText(`${seller.name} · ${title}, version ${v.version}`), left, fy, { width: width - 90, height: 10, ellipsis: true });
    doc.text(`Page ${p - start + 1} of ${count}`, left + width - 80, fy, { width: 80, align: 'right' });
    doc.page.margins.bottom = BOTTOM;
  }
  doc.end();
  return done;
}

/** Draws one throw-away 20-line quote: the process's first PDF is several times slower than the next (see main.ts). */
export async function warmQuotePdf(): Promise<void> {
  const lines = Array.from({ length: 20 }, (_, i) => ({
    productId: `p-${i}`,
    productSku: `SKU-${i}`,
    productName: `Warm-up part ${i} with a name long enough to wrap in its column of the table`,
    quantity: i + 1,
    unitPrice: i % 5 === 0 ? null : 10 + i,
    currency: 'USD',
    lineTotal: i % 5 === 0 ? null : (10 + i) * (i + 1),
    leadTime: '3 days',
  }));
  const at = new Date(0).toISOString();
  await renderQuotePdf(
    {
      reference: 'WARMUP00',
      customerName: 'Warm-up',
      status: 'open',
      requestedAt: at,
      versions: [{ version: 1, quotedAt: at, message: 'Warm-up', validUntil: '1970-01-31', lines, totals: [{ currency: 'USD', total: 1 }] }],
      latestVersion: 1,
      canAccept: true,
      canAskChanges: true,
      canDecline: true,
      canReopen: false,
      history: [],
      order: null,
      declined: null,
    },
    1,
    { name: 'Warm-up', phone: '', email: '' },
  );
}
