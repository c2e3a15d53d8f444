import type { ContactMessage, QuoteRequest } from '@forgeline/contracts/quotes';
import type { OutboxMail } from '../ports.ts';

/** Every piece of user text goes through this before it reaches an HTML body. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Subjects are one line: a newline in user text must never start a header. */
const oneLine = (text: string, max = 120) => text.replace(/[\r\n\t]+/g, ' ').trim().slice(0, max);

export interface MailSettings {
  siteName: string;
  sellerEmail: string;
  /** The domain of Message-IDs, e.g. forgeline.parts */
  messageDomain: string;
}

const row = (label: string, value: string) =>
  `<tr><th align="left" style="padding:4px 12px 4px 0;vertical-align:top">${escapeHtml(label)}</th>` +
  `<td style="padding:4px 0;white-space:pre-wrap">${escapeHtml(value || '-')}</td></tr>`;
const table = (rows: [string, string][]) => `<table cellspacing="0" cellpadding="0">${rows.map(([l, v]) => row(l, v)).join('')}</table>`;
const textRows = (rows: [string, string][]) => rows.map(([l, v]) => `${l}: ${v || '-'}`).join('\n');
const page = (title: string, inner: string) =>
  `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#111"><h2>${escapeHtml(title)}</h2>${inner}</body></html>`;

export function quoteRows(q: QuoteRequest): [string, string][] {
  const product: [string, string][] = q.lines
    ? [['Parts', `${q.lines.length} line${q.lines.length === 1 ? '' : 's'} (below)`]]
    : [
        ['Product', q.productName],
        ['SKU', q.productSku],
        ['Product id', q.productId],
        ['Quantity', String(q.quantity)],
      ];
  return [
    ['Reference', q.id],
    ...product,
    ['Name', q.customerName],
    ['E-mail', q.customerEmail],
    ['Phone', q.customerPhone],
    ['Country', q.customerCountry],
    ['Message', q.message],
    ['Received', q.createdAt],
  ];
}

const LINE_HEAD = ['#', 'Part', 'SKU', 'Part number', 'Qty', 'Note'];
const lineCells = (q: QuoteRequest) =>
  (q.lines ?? []).map((l, i) => [String(i + 1), l.productId ? l.productName : `${l.text} (not matched to a catalogue part)`, l.productSku, l.partNumber, String(l.quantity), l.note]);

/** A multi-part request's lines as a table: text (one line each) and HTML (escaped). Empty for a single product. */
function linesTable(q: QuoteRequest): { text: string; html: string } {
  const cells = lineCells(q);
  if (!cells.length) return { text: '', html: '' };
  const text = `\n\nParts:\n${cells.map((c) => `${c[0]}. ${c[1]}${c[2] ? ` | SKU ${c[2]}` : ''}${c[3] ? ` | ${c[3]}` : ''} | qty ${c[4]}${c[5] ? ` | ${c[5]}` : ''}`).join('\n')}`;
  const cell = (v: string, tag = 'td') => `<${tag} align="left" style="padding:4px 10px;border-bottom:1px solid #ddd;vertical-align:top">${escapeHtml(v || '-')}</${tag}>`;
  const html = `<h3>Parts</h3><table cellspacing="0" cellpadding="0"><tr>${LINE_HEAD.map((h) => cell(h, 'th')).join('')}</tr>${cells.map((c) => `<tr>${c.map((v) => cell(v)).join('')}</tr>`).join('')}</table>`;
  return { text, html };
}

/** What a request asks for, in a subject: the product, or how many lines. */
const askedFor = (q: QuoteRequest) => (q.lines && q.lines.length > 1 ? `${q.lines.length} parts` : `${q.productName} (SKU ${q.productSku || '-'})`);

/** A quote request's two mails: the buyer's confirmation and the seller's notification with every detail. */
export function quoteMails(q: QuoteRequest, s: MailSettings): OutboxMail[] {
  const rows = quoteRows(q);
  const parts = linesTable(q);
  const buyerId = `quote-${q.id}-buyer`;
  const sellerId = `quote-${q.id}-seller`;
  const greeting = `Dear ${q.customerName},`;
  const intro = `Thank you for your quote request. We have received it and will reply within 24 hours.`;
  return [
    {
      id: buyerId,
      refId: q.id,
      message: {
        to: q.customerEmail,
        replyTo: s.sellerEmail,
        subject: oneLine(`Quote request received: ${askedFor(q)}`),
        text: `${greeting}\n\n${intro}\n\n${textRows(rows)}${parts.text}\n\n${s.siteName}`,
        html: page(
          'Quote request received',
          `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)}</p>${table(rows)}${parts.html}<p>${escapeHtml(s.siteName)}</p>`,
        ),
        messageId: `<${buyerId}@${s.messageDomain}>`,
      },
    },
    {
      id: sellerId,
      refId: q.id,
      message: {
        to: s.sellerEmail,
        replyTo: q.customerEmail,
        subject: oneLine(q.lines && q.lines.length > 1 ? `New quote request: ${askedFor(q)}` : `New quote request: ${q.productName} (SKU ${q.productSku}) x ${q.quantity}`),
        text: `New quote request\n\n${textRows(rows)}${parts.text}`,
        html: page('New quote request', `${table(rows)}${parts.html}`),
        messageId: `<${sellerId}@${s.messageDomain}>`,
      },
    },
  ];
}

/** A contact message's one mail: the seller's notification; replying answers the visitor. */
export function contactMails(c: ContactMessage, s: MailSettings): OutboxMail[] {
  const rows: [string, string][] = [
    ['Reference', c.id],
    ['Name', c.name],
    ['E-mail', c.email],
    ['Phone', [c.countryCode, c.phone].filter(Boolean).join(' ')],
    ['Subject', c.subject],
    ['Message', c.message],
    ['Received', c.createdAt],
  ];
  const id = `contact-${c.id}-seller`;
  return [
    {
      id,
      refId: c.id,
      message: {
        to: s.sellerEmail,
        replyTo: c.email,
        subject: oneLine(`Contact form: ${c.subject || 'new message'}`),
        text: `New contact form message\n\n${textRows(rows)}`,
        html: page('New contact form message', table(rows)),
        messageId: `<${id}@${s.messageDomain}>`,
      },
    },
  ];
}

export interface ReplyLine {
  productSku: string;
  productName: string;
  quantity: number;
  unitPrice: number | null;
  currency: string | null;
  leadTime: string | null;
}

const money = (n: number, currency: string | null) => `${n.toFixed(2)}${currency ? ` ${currency}` : ''}`;

/**
 * Staff's reply to a buyer: their message, then the parts with prices and lead times as a table (text and HTML), and
 * how long the prices hold. `n` (the request's version) keeps each reply's id and Message-ID distinct.
 */
export function replyMail(
  r: { id: string; kind: 'quote' | 'contact'; customerName: string; customerEmail: string; subject: string },
  reply: { message: string; lines: ReplyLine[]; validUntil: string | null },
  n: number,
  s: MailSettings,
): OutboxMail {
  const id = `${r.kind}-${r.id}-reply-${n}`;
  const head = ['Part', 'SKU', 'Qty', 'Unit price', 'Line total', 'Lead time'];
  const rows = reply.lines.map((l) => [
    l.productName,
    l.productSku,
    String(l.quantity),
    l.unitPrice === null ? 'on request' : money(l.unitPrice, l.currency),
    l.unitPrice === null ? '-' : money(l.unitPrice * l.quantity, l.currency),
    l.leadTime || '-',
  ]);
  const valid = reply.validUntil ? `Prices valid until ${reply.validUntil.slice(0, 10)}.` : '';
  const greeting = `Dear ${r.customerName},`;
  const text = [
    greeting,
    '',
    reply.message,
    ...(rows.length ? ['', ...rows.map((row) => head.map((h, i) => `${h}: ${row[i]}`).join(' | '))] : []),
    ...(valid ? ['', valid] : []),
    '',
    `Reference: ${r.id}`,
    s.siteName,
  ].join('\n');
  const cell = (v: string, tag = 'td') => `<${tag} align="left" style="padding:4px 10px;border-bottom:1px solid #ddd">${escapeHtml(v)}</${tag}>`;
  const priceTable = rows.length
    ? `<table cellspacing="0" cellpadding="0"><tr>${head.map((h) => cell(h, 'th')).join('')}</tr>${rows.map((row) => `<tr>${row.map((v) => cell(v)).join('')}</tr>`).join('')}</table>`
    : '';
  const html = page(
    r.kind === 'quote' ? 'Your quotation' : 'Our reply',
    `<p>${escapeHtml(greeting)}</p><p style="white-space:pre-wrap">${escapeHtml(reply.message)}</p>${priceTable}` +
      `${valid ? `<p>${escapeHtml(valid)}</p>` : ''}<p>Reference: ${escapeHtml(r.id)}<br>${escapeHtml(s.siteName)}</p>`,
  );
  return {
    id,
    refId: r.id,
    message: {
      to: r.customerEmail,
      replyTo: s.sellerEmail,
      subject: oneLine(r.kind === 'quote' ? `Quotation: ${r.subject} (ref ${r.id.slice(0, 8)})` : `Re: ${r.subject || 'your message'}`),
      text,
      html,
      messageId: `<${id}@${s.messageDomain}>`,
    },
  };
}
