import type { ContactMessage, QuoteRequest } from '@forgeline/contracts/quotes';
import type { OutboxMail, QuotedLine } from '../ports.ts';

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

/** Every detail of a request, for the seller's notification. */
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
/** A cell of a parts table, escaped. */
const cell = (v: string, tag = 'td') => `<${tag} align="left" style="padding:4px 10px;border-bottom:1px solid #ddd;vertical-align:top">${escapeHtml(v || '-')}</${tag}>`;
const lineCells = (q: QuoteRequest) =>
  (q.lines ?? []).map((l, i) => [String(i + 1), l.productId ? l.productName : `${l.text} (not matched to a catalogue part)`, l.productSku, l.partNumber, String(l.quantity), l.note]);

/** A multi-part request's lines as a table for the seller: text (one line each) and HTML (escaped). Empty for a single product. */
function linesTable(q: QuoteRequest): { text: string; html: string } {
  const cells = lineCells(q);
  if (!cells.length) return { text: '', html: '' };
  const text = `\n\nParts:\n${cells.map((c) => `${c[0]}. ${c[1]}${c[2] ? ` | SKU ${c[2]}` : ''}${c[3] ? ` | ${c[3]}` : ''} | qty ${c[4]}${c[5] ? ` | ${c[5]}` : ''}`).join('\n')}`;
  const html = `<h3>Parts</h3><table cellspacing="0" cellpadding="0"><tr>${LINE_HEAD.map((h) => cell(h, 'th')).join('')}</tr>${cells.map((c) => `<tr>${c.map((v) => cell(v)).join('')}</tr>`).join('')}</table>`;
  return { text, html };
}

/** What a request asks for, in the seller's subject: the product, or how many lines. */
const askedFor = (q: QuoteRequest) => (q.lines && q.lines.length > 1 ? `${q.lines.length} parts` : `${q.productName} (SKU ${q.productSku || '-'})`);

/** What the buyer's confirmation may say about a line: the catalogue's name and SKU, or only that it is not one. */
const NOT_IN_CATALOGUE = 'A part not in our catalogue (as you described it)';

/**
 * The lines of a request in the seller's words only: a catalogue part's name and SKU as the catalogue has them, a
 * line the buyer described as `NOT_IN_CATALOGUE`, and each quantity (a whole number). No note, no typed text.
 */
function confirmedParts(q: QuoteRequest): { inCatalogue: boolean; name: string; sku: string; quantity: number }[] {
  // A single-product request always names a catalogue product (an unknown one is refused).
  if (!q.lines) return [{ inCatalogue: true, name: q.productName, sku: q.productSku, quantity: q.quantity }];
  return q.lines.map((l) =>
    l.productId
      ? { inCatalogue: true, name: l.productName, sku: l.productSku, quantity: l.quantity }
      : { inCatalogue: false, name: NOT_IN_CATALOGUE, sku: '', quantity: l.quantity },
  );
}

/**
 * The buyer's confirmation. Nobody has verified that `customerEmail` is the sender's (there are no buyer accounts),
 * so it carries nothing the sender wrote: not their name, company, phone, country, message, a line's text or note,
 * and its headers neither (`to` is the bare address, no display name; reply-to is the seller). Only the seller's
 * own words, the catalogue's part names and SKUs, the quantities and the reference: sent to a stranger's address it
 * is a receipt for a request they did not make, not a message from whoever made it.
 */
/** The id (and Message-ID) of a request's buyer confirmation. */
export const buyerConfirmationId = (quoteId: string) => `quote-${quoteId}-buyer`;

function buyerConfirmation(q: QuoteRequest, s: MailSettings): OutboxMail {
  const id = buyerConfirmationId(q.id);
  const parts = confirmedParts(q);
  const first = parts[0]!;
  const what = parts.length > 1 ? `${parts.length} parts` : first.inCatalogue ? `${first.name} (SKU ${first.sku || '-'})` : '1 part not in our catalogue';
  const intro = 'Thank you for your quote request. We have received it and will reply within 24 hours.';
  const ignore = 'If you did not send this request, you can ignore this e-mail.';
  const rows: [string, string][] = [
    ['Reference', q.id],
    ['Received', q.createdAt],
  ];
  const partText = parts.map((p, i) => `${i + 1}. ${p.name}${p.sku ? ` | SKU ${p.sku}` : ''} | qty ${p.quantity}`).join('\n');
  const partHtml =
    `<h3>Parts</h3><table cellspacing="0" cellpadding="0"><tr>${['#', 'Part', 'SKU', 'Qty'].map((h) => cell(h, 'th')).join('')}</tr>` +
    parts.map((p, i) => `<tr>${[String(i + 1), p.name, p.sku, String(p.quantity)].map((v) => cell(v)).join('')}</tr>`).join('') +
    '</table>';
  return {
    id,
    refId: q.id,
    message: {
      to: q.customerEmail,
      replyTo: s.sellerEmail,
      subject: oneLine(`Quote request received: ${what}`),
      text: `Hello,\n\n${intro}\n\n${textRows(rows)}\n\nParts:\n${partText}\n\n${ignore}\n\n${s.siteName}`,
      html: page(
        'Quote request received',
        `<p>Hello,</p><p>${escapeHtml(intro)}</p>${table(rows)}${partHtml}<p>${escapeHtml(ignore)}</p><p>${escapeHtml(s.siteName)}</p>`,
      ),
      messageId: `<${id}@${s.messageDomain}>`,
    },
  };
}

/**
 * A quote request's mails: the buyer's confirmation (`buyerConfirmationId`; the store queues it only while the
 * recipient's daily count allows) and the seller's notification with every detail.
 */
export function quoteMails(q: QuoteRequest, s: MailSettings): OutboxMail[] {
  const rows = quoteRows(q);
  const parts = linesTable(q);
  const sellerId = `quote-${q.id}-seller`;
  const seller: OutboxMail = {
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
  };
  return [buyerConfirmation(q, s), seller];
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

type ReplyLine = QuotedLine;

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
  /** The buyer's quote page (a quote's reply): where they accept, ask for changes or decline. */
  link?: string,
  /** The quote as a PDF, attached. */
  pdf?: { filename: string; content: Buffer },
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
    ...(link ? ['', `To accept this quote, ask for changes or decline it, open your quote page:`, link] : []),
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
      `${valid ? `<p>${escapeHtml(valid)}</p>` : ''}` +
      (link
        ? `<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#f5b301;color:#17191c;font-weight:bold;text-decoration:none;border-radius:4px">View, accept or change this quote</a></p>`
        : '') +
      `<p>Reference: ${escapeHtml(r.id)}<br>${escapeHtml(s.siteName)}</p>`,
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
      ...(pdf ? { attachments: [{ filename: pdf.filename, contentType: 'application/pdf', content: pdf.content.toString('base64'), encoding: 'base64' as const }] } : {}),
    },
  };
}

/**
 * What a buyer answered on their quote page, told to the seller (and, for an accept, confirmed to the buyer). `n` is
 * the request's version after the change: the mails' ids stay unique and stable.
 */
export function buyerAnswerMails(
  r: { id: string; customerName: string; customerEmail: string; subject: string },
  answer: { what: string; details: [string, string][]; order?: { number: string; lines: ReplyLine[]; poNumber: string } },
  n: number,
  s: MailSettings,
  link: string,
): OutboxMail[] {
  const mails: OutboxMail[] = [];
  const rows: [string, string][] = [['Reference', r.id], ['Buyer', `${r.customerName} <${r.customerEmail}>`], ...answer.details];
  const sellerId = `quote-${r.id}-answer-${n}-seller`;
  mails.push({
    id: sellerId,
    refId: r.id,
    message: {
      to: s.sellerEmail,
      replyTo: r.customerEmail,
      subject: oneLine(`${answer.what}: ${r.subject} (ref ${r.id.slice(0, 8)})`),
      text: [`${answer.what}.`, '', textRows(rows)].join('\n'),
      html: page(answer.what, table(rows)),
      messageId: `<${sellerId}@${s.messageDomain}>`,
    },
  });
  if (answer.order) {
    const o = answer.order;
    const id = `quote-${r.id}-order-${n}`;
    const lineText = o.lines.map((l) => `${l.quantity} x ${l.productName} (${l.productSku})${l.unitPrice === null ? '' : ` at ${money(l.unitPrice, l.currency)}`}`);
    const text = [`Dear ${r.customerName},`, '', `Thank you for your order ${o.number} (your PO ${o.poNumber}).`, '', ...lineText, '', `Your quote page: ${link}`, '', s.siteName].join('\n');
    const html = page(
      `Order ${o.number} confirmed`,
      `<p>Dear ${escapeHtml(r.customerName)},</p><p>Thank you for your order ${escapeHtml(o.number)} (your PO ${escapeHtml(o.poNumber)}).</p>` +
        `<ul>${lineText.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul><p><a href="${escapeHtml(link)}">Your quote page</a></p><p>${escapeHtml(s.siteName)}</p>`,
    );
    mails.push({
      id,
      refId: r.id,
      message: { to: r.customerEmail, replyTo: s.sellerEmail, subject: oneLine(`Order ${o.number} confirmed (ref ${r.id.slice(0, 8)})`), text, html, messageId: `<${id}@${s.messageDomain}>` },
    });
  }
  return mails;
}

/** The buyer told of their order's new status: shipped (with carrier and tracking number), delivered or cancelled. */
export function orderStatusMail(
  o: { id: string; number: string; poNumber: string; quoteId: string; customerName: string; customerEmail: string },
  change: { status: 'shipped' | 'delivered' | 'cancelled' | 'confirmed'; shipment?: { carrier: string; trackingNumber: string } | null; reason?: string },
  version: number,
  s: MailSettings,
): OutboxMail {
  const id = `order-${o.id}-${version}`;
  const what =
    change.status === 'shipped'
      ? `has shipped with ${change.shipment?.carrier ?? '-'}, tracking number ${change.shipment?.trackingNumber ?? '-'}`
      : change.status === 'delivered'
        ? 'has been delivered'
        : change.status === 'cancelled'
          ? `has been cancelled: ${change.reason ?? ''}`
          : 'is confirmed';
  const line = `Your order ${o.number} (your PO ${o.poNumber}) ${what}.`;
  const text = [`Dear ${o.customerName},`, '', line, '', `Reference: ${o.quoteId}`, s.siteName].join('\n');
  return {
    id,
    refId: o.quoteId,
    message: {
      to: o.customerEmail,
      replyTo: s.sellerEmail,
      subject: oneLine(`Order ${o.number} ${change.status}`),
      text,
      html: page(`Order ${o.number}`, `<p>Dear ${escapeHtml(o.customerName)},</p><p>${escapeHtml(line)}</p><p>Reference: ${escapeHtml(o.quoteId)}<br>${escapeHtml(s.siteName)}</p>`),
      messageId: `<${id}@${s.messageDomain}>`,
    },
  };
}

/** A few days before a quote expires: one reminder to the buyer, with a link to their quote page. `id` is stable per validity. */
export function expiryReminderMail(
  q: { id: string; customerName: string; customerEmail: string; subject: string; validUntil: string },
  id: string,
  link: string,
  s: MailSettings,
): OutboxMail {
  const line = `Our quotation for ${q.subject || 'your parts'} (ref ${q.id.slice(0, 8)}) is valid until ${q.validUntil}.`;
  const text = [`Dear ${q.customerName},`, '', line, 'To accept it, ask for changes or decline it, open your quote page:', link, '', s.siteName].join('\n');
  const html = page(
    'Your quotation expires soon',
    `<p>Dear ${escapeHtml(q.customerName)},</p><p>${escapeHtml(line)}</p>` +
      `<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#f5b301;color:#17191c;font-weight:bold;text-decoration:none;border-radius:4px">Open your quote</a></p>` +
      `<p>${escapeHtml(s.siteName)}</p>`,
  );
  return {
    id,
    refId: q.id,
    message: { to: q.customerEmail, replyTo: s.sellerEmail, subject: oneLine(`Your quotation expires on ${q.validUntil} (ref ${q.id.slice(0, 8)})`), text, html, messageId: `<${id}@${s.messageDomain}>` },
  };
}
