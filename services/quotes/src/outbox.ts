import type { Logger } from '@forgeline/service-kit/logger';
import type { Mailer } from '@forgeline/mailer/mailer';
import { retryDelayMs } from './domain/backoff.ts';
import type { OutboxEntry, QuoteStore } from './ports.ts';

export interface OutboxOptions {
  baseDelayMs: number;
  maxDelayMs: number;
  pollMs: number;
  leaseMs: number;
  batchSize?: number;
  /** Mails sent at once within a batch. */
  concurrency?: number;
}

/**
 * Sends the mails the store holds, in the background of the service: each pass claims due mails (a lease, so two
 * processes never send the same one), sends them, then marks each sent or schedules its retry with exponential
 * backoff. Nothing is ever given up: a mail keeps retrying at the longest delay until the mail server takes it.
 * A restart resumes from the store. Delivery guarantee: see the README of this service ("Mail delivery").
 */
export class Outbox {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private kicked = false;

  constructor(
    private readonly store: QuoteStore,
    private readonly mailer: Mailer,
    private readonly logger: Logger,
    private readonly opts: OutboxOptions,
  ) {}

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

  /** One pass: returns how many mails it claimed. Exposed for tests and scripts. */
  async pass(): Promise<number> {
    const batch = await this.store.claimDueMails(new Date(), this.opts.batchSize ?? 25, this.opts.leaseMs);
    const concurrency = this.opts.concurrency ?? 5;
    for (let i = 0; i < batch.length; i += concurrency) {
      await Promise.all(batch.slice(i, i + concurrency).map((m) => this.deliver(m)));
    }
    return batch.length;
  }

  private async deliver(mail: OutboxEntry): Promise<void> {
    try {
      await this.mailer.send(mail.message);
    } catch (err) {
      const delay = retryDelayMs(mail.attempts, this.opts.baseDelayMs, this.opts.maxDelayMs);
      const reason = err instanceof Error ? err.message : String(err);
      this.logger[mail.attempts >= 5 ? 'error' : 'warn'](
        { mailId: mail.id, refId: mail.refId, attempts: mail.attempts, retryInMs: delay, reason },
        'mail not sent; will retry',
      );
      await this.store.markFailed(mail.id, new Date(Date.now() + delay), reason);
      return;
    }
    await this.store.markSent(mail.id, new Date());
    this.logger.info({ mailId: mail.id, refId: mail.refId, attempts: mail.attempts }, 'mail sent');
  }
}
