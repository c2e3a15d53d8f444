import { emailDomain, type InboxStatus } from '@forgeline/contracts/quote-inbox';
import type { ContactMessage, QuoteRequest } from '@forgeline/contracts/quotes';
import type { InboxRecord } from '../ports.ts';

/** A new quote request as an inbox entry (one line: the product asked for). */
export function inboxFromQuote(q: QuoteRequest): InboxRecord {
  const lines = q.lines
    ? q.lines.map((l) => ({ productId: l.productId ?? '', productName: l.productId ? l.productName : (l.text ?? ''), productSku: l.productSku, quantity: l.quantity }))
    : [{ productId: q.productId, productName: q.productName, productSku: q.productSku, quantity: q.quantity }];
  const line = lines[0]!;
  return {
    id: q.id,
    kind: 'quote',
    status: (q.status as InboxStatus) ?? 'pending',
    customerName: q.customerName,
    customerEmail: q.customerEmail,
    emailDomain: emailDomain(q.customerEmail),
    country: q.customerCountry,
    firstLine: line,
    lineCount: lines.length,
    subject: q.productName,
    assignee: null,
    createdAt: q.createdAt,
    updatedAt: q.createdAt,
    firstReplyAt: null,
    version: 0,
    lines,
    customerPhone: q.customerPhone,
    message: q.message,
  };
}

/** A new contact message as an inbox entry (no parts). */
export function inboxFromContact(c: ContactMessage): InboxRecord {
  return {
    id: c.id,
    kind: 'contact',
    status: 'pending',
    customerName: c.name,
    customerEmail: c.email,
    emailDomain: emailDomain(c.email),
    country: c.countryCode,
    firstLine: null,
    lineCount: 0,
    subject: c.subject,
    assignee: null,
    createdAt: c.createdAt,
    updatedAt: c.createdAt,
    firstReplyAt: null,
    version: 0,
    lines: [],
    customerPhone: c.phone,
    message: c.message,
  };
}

/** What the inbox's text search looks through: name, e-mail, part numbers and names, subject and message. */
export function inboxSearchText(r: InboxRecord): string {
  return [r.customerName, r.customerEmail, ...r.lines.flatMap((l) => [l.productSku, l.productName]), r.subject, r.message].join('\n').toLowerCase();
}

/** The words of a search, lower-cased (at most 8, so one query cannot ask for hundreds of scans). */
export const searchTerms = (q: string) => q.toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);

/** The median of a list of numbers (null when empty). */
export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export const DAY_MS = 86_400_000;

/** Spreadsheet cells that start like a formula are prefixed with ' (formula injection: =HYPERLINK(...) and the like). */
export const safeCell = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

export const INBOX_CSV_HEADER = [
  'id', 'kind', 'status', 'created_at', 'customer_name', 'customer_email', 'email_domain', 'phone', 'country',
  'subject', 'parts', 'quantities', 'assignee', 'first_reply_at', 'message',
];

/** One CSV row of the export (the parts' SKUs and quantities `|`-separated, in the same order). */
export function inboxCsvRow(r: InboxRecord): string[] {
  return [
    r.id, r.kind, r.status, r.createdAt, r.customerName, r.customerEmail, r.emailDomain, r.customerPhone, r.country,
    r.subject, r.lines.map((l) => l.productSku).join('|'), r.lines.map((l) => String(l.quantity)).join('|'),
    r.assignee ?? '', r.firstReplyAt ?? '', r.message,
  ].map(safeCell);
}
