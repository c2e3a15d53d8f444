import type { MailMessage, Mailer } from './mailer.ts';
import { retryDelayMs } from './backoff.ts';

/** A mail the outbox store holds, as a claim hands it out. */
export interface ClaimedMail {
  id: string;
  /** The record it belongs to (a quote request, a code request), for logs. */
  refId?: string;
  message: MailMessage;
  /** Attempts started so far, this one included. */
  attempts: number;
}

/**
 * Where a service keeps the mails it has yet to send: its own storage (SQLite or MongoDB), behind its
 * ports. A mail is written there before the request that made it is answered, so it survives a crash or
 * a restart; the outbox claims, sends and marks it.
 */
export interface MailOutboxStore {
  /**
   * Claims up to `limit` pending mails due at `now` for `leaseMs`: each claimed mail's attempts grow by one and no
   * other claimer gets it until the lease ends or it is marked. The claim is atomic across processes.
   */
  claimDueMails(now: Date, limit: number, leaseMs: number): Promise<ClaimedMail[]>;
  markSent(id: string, at: Date): Promise<void>;
  markFailed(id: string, nextAttemptAt: Date, error: string): Promise<void>;
  /** What waits (#37): mails not yet sent, those of them that failed at least once, and the oldest one's creation. */
  backlog?(): Promise<OutboxBacklog>;
}

export interface OutboxBacklog {
  pending: number;
  failing: number;
  oldestAt: Date | null;
}

/** The part of a pino logger the outbox uses. */
export interface OutboxLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface OutboxOptions {
  /** First retry waits this long, then 2x, 4x, ... up to maxDelayMs (less up to 20% jitter). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** How often the outbox looks for due mail when nothing wakes it (a retry coming due, another process's mail). */
  pollMs: number;
  /** How long a claimed mail is kept from other claimers; a process that dies holding it leaves it for this long. */
  leaseMs: number;
  batchSize?: number;
  /** Mails sent at once within a batch. */
  concurrency?: number;
  /** The clock mails are due by (a service with its own clock, e.g. in tests). */
  now?: () => Date;
  /** Each attempt's outcome (the service's metrics count them): sent, refused by the server, or the server unreachable. */
  onAttempt?: (outcome: 'sent' | 'refused' | 'unreachable') => void;
}

/** SMTP reply codes that mean the server as a whole is unavailable, not that it refused this one mail. */
const SERVER_UNAVAILABLE_REPLIES = new Set([421]);

/**
 * The mail server cannot be reached or will take nothing: no connection, a timeout, TLS or greeting failure
 * (nodemailer's ECONNECTION, ETIMEDOUT, ESOCKET, EDNS, ...), or a 421 "service not available". Any other SMTP
 * reply (a 451 or 550 for this recipient) is about the one mail.
 */
export function isServerOutage(err: unknown): boolean {
  const responseCode = (err as { responseCode?: unknown } | null)?.responseCode;
  return typeof responseCode !== 'number' || SERVER_UNAVAILABLE_REPLIES.has(responseCode);
}

/**
 * Sends the mails the store holds, in the background of the service: each pass claims due mails (a lease, so two
 * processes never send the same one), sends them, then marks each sent or schedules its retry with exponential
 * backoff. Nothing is ever given up: a mail keeps retrying at the longest delay until the mail server takes it.
 * A restart resumes from the store. Delivery is at least once: a process that dies between the mail server's
 * acceptance and marking the mail sends it again after the lease, with the same Message-ID.
 *
 * An outage of the mail server is logged once when it starts (error) and once when mail goes again (info),
 * with how long it lasted and how many mails waited; the attempts in between log at debug. A mail the server
 * refuses by itself (an SMTP reply about that mail) is logged on each attempt, as a warning.
 */
export class Outbox {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private kicked = false;
  private readonly passes = new Set<Promise<number>>();
  private outage: { since: number; reason: string; failures: number } | undefined;

  constructor(
    private readonly store: MailOutboxStore,
    private readonly mailer: Mailer,
    private readonly logger: OutboxLogger,
    private readonly opts: OutboxOptions,
  ) {}

  private now(): Date {
    return this.opts.now?.() ?? new Date();
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** New mail is waiting: run a pass now instead of at the next poll. */
  kick(): void {
    this.kicked = true;
    this.wake?.();
  }

  /** Stops after the pass in progress; mails claimed by it are marked before this resolves. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.all([...this.passes]);
  }

  /** True while the mail server is out (from the first failed connection to the next mail it takes). */
  get serverDown(): boolean {
    return this.outage !== undefined;
  }

  /**
   * Resolves once every mail due now has been tried: waits for the passes under way, then runs passes until one
   * claims nothing. Mails that failed wait for their retry; this does not wait for those.
   */
  async flush(): Promise<void> {
    for (;;) {
      await Promise.all([...this.passes]);
      if ((await this.pass()) === 0 && this.passes.size === 0) return;
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      let claimed = 0;
      try {
        claimed = await this.pass();
      } catch (err) {
        this.logger.error({ err }, 'outbox pass failed; retrying at the next poll');
      }
      if (!this.running) break;
      // A full batch means more may be due: go again at once. Otherwise sleep until the poll or a kick.
      if (claimed < (this.opts.batchSize ?? 25) && !this.kicked) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.opts.pollMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = undefined;
      }
      this.kicked = false;
    }
  }

  /** One pass: returns how many mails it claimed. */
  pass(): Promise<number> {
    const run = this.passOnce();
    this.passes.add(run);
    const forget = () => this.passes.delete(run);
    run.then(forget, forget);
    return run;
  }

  private async passOnce(): Promise<number> {
    const batch = await this.store.claimDueMails(this.now(), this.opts.batchSize ?? 25, this.opts.leaseMs);
    const concurrency = this.opts.concurrency ?? 5;
    for (let i = 0; i < batch.length; i += concurrency) {
      await Promise.all(batch.slice(i, i + concurrency).map((m) => this.deliver(m)));
    }
    return batch.length;
  }

  private async deliver(mail: ClaimedMail): Promise<void> {
    try {
      await this.mailer.send(mail.message);
    } catch (err) {
      const delay = retryDelayMs(mail.attempts, this.opts.baseDelayMs, this.opts.maxDelayMs);
      const reason = err instanceof Error ? err.message : String(err);
      const about = { mailId: mail.id, refId: mail.refId, attempts: mail.attempts, retryInMs: delay, reason };
      this.opts.onAttempt?.(isServerOutage(err) ? 'unreachable' : 'refused');
      if (!isServerOutage(err)) {
        this.logger.warn(about, 'mail refused by the mail server; will retry');
      } else if (!this.outage) {
        this.outage = { since: Date.now(), reason, failures: 1 };
        this.logger.error(about, 'mail server unreachable: mail is kept in the outbox and retried until it goes');
      } else {
        this.outage.failures += 1;
        this.logger.debug(about, 'mail server still unreachable; will retry');
      }
      await this.store.markFailed(mail.id, new Date(this.now().getTime() + delay), reason);
      return;
    }
    await this.store.markSent(mail.id, this.now());
    this.opts.onAttempt?.('sent');
    if (this.outage) {
      const { since, reason, failures } = this.outage;
      this.outage = undefined;
      this.logger.info({ downForMs: Date.now() - since, failedAttempts: failures, lastReason: reason }, 'mail server reachable again: outbox delivering');
    }
    this.logger.info({ mailId: mail.id, refId: mail.refId, attempts: mail.attempts }, 'mail sent');
  }
}
