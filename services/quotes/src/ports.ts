import type { ContactMessage, QuoteRequest } from '@forgeline/contracts/quotes';
import type { MailMessage } from '@forgeline/mailer/mailer';

/** What a quote needs to know about a product. */
export interface ProductRef {
  id: string;
  name: string;
  sku: string;
  partNumber: string;
}

/** Thrown by a ProductCatalog that cannot answer (down, timing out, 5xx): the request is refused with 503. */
export class CatalogUnavailableError extends Error {
  override name = 'CatalogUnavailableError';
}

/** The catalogue, asked whether a product exists. */
export interface ProductCatalog {
  /** The product, or null when the catalogue says it does not exist; throws CatalogUnavailableError otherwise. */
  find(id: string, requestId?: string): Promise<ProductRef | null>;
}

/** A mail waiting in the outbox. Its id is stable (e.g. `quote-<id>-buyer`) and doubles as the Message-ID. */
export interface OutboxMail {
  id: string;
  /** The quote request or contact message it belongs to. */
  refId: string;
  message: MailMessage;
}

export interface OutboxEntry extends OutboxMail {
  status: 'pending' | 'sent';
  /** Attempts started so far (a claimed mail counts its current attempt). */
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  sentAt: Date | null;
}

/**
 * The quotes service's storage: quote requests, contact messages, the mail outbox and the used captcha tokens.
 * A record and its mails are stored together: once save* resolves, both survive a crash.
 */
export interface QuoteStore {
  saveQuoteRequest(quote: QuoteRequest, mails: OutboxMail[]): Promise<void>;
  saveContactMessage(contact: ContactMessage, mails: OutboxMail[]): Promise<void>;
  getQuoteRequest(id: string): Promise<QuoteRequest | null>;
  getContactMessage(id: string): Promise<ContactMessage | null>;
  countQuoteRequests(): Promise<number>;
  countContactMessages(): Promise<number>;

  /** Records a captcha token as used. False when it was used before (a replay). Expired entries may be pruned. */
  useCaptchaToken(id: string, expiresAt: Date): Promise<boolean>;

  /**
   * Claims up to `limit` pending mails due at `now` for `leaseMs`: each claimed mail's attempts grow by one and no
   * other claimer gets it until the lease ends or it is marked. The claim is atomic across processes.
   */
  claimDueMails(now: Date, limit: number, leaseMs: number): Promise<OutboxEntry[]>;
  markSent(id: string, at: Date): Promise<void>;
  markFailed(id: string, nextAttemptAt: Date, error: string): Promise<void>;
  /** Every outbox entry (of one record when refId is given), oldest first. */
  listMails(refId?: string): Promise<OutboxEntry[]>;
  outboxCounts(): Promise<{ pending: number; sent: number }>;

  ping(): Promise<boolean>;
  close(): Promise<void>;
}
