import { REQUEST_ID_HEADER, SERVICE_TOKEN_HEADER } from '@forgeline/contracts/common';
import type { RecordAuditRequest } from '@forgeline/contracts/admin-access';
import type { Logger } from '@forgeline/service-kit/logger';
import { toReplicaPool, type ReplicaPool } from './replica-pool.ts';

export type AuditInput = RecordAuditRequest['entries'][number];

/** What a staff call did, by method and path: names the audit log's readers filter on. */
export function auditAction(method: string, path: string): string {
  const m = method.toUpperCase();
  const write = m !== 'GET' && m !== 'HEAD';
  const rules: [RegExp, string, string][] = [
    // [path, action of a write, action of a read]
    [/^\/api\/admin\/catalog\/imports\/[^/]+\/errors\.csv$/, 'catalog.import', 'catalog.import-errors'],
    [/^\/api\/admin\/catalog\/imports(\/[^/]+)?$/, 'catalog.import', 'catalog.import-status'],
    [/^\/api\/admin\/catalog\/export\.csv$/, 'catalog.export', 'catalog.export'],
    [/^\/api\/admin\/products\/[^/]+\/upload-image$/, 'media.upload', 'media.read'],
    [/^\/api\/admin\/products\/[^/]+$/, 'product.update', 'product.read'],
    [/^\/api\/admin\/products$/, 'product.create', 'product.list'],
    [/^\/api\/admin\/search-products-by-code$/, 'product.search', 'product.search'],
    // Parts diagrams (#38): the editor's saves, the CSV in and out, and new drawings.
    [/^\/api\/admin\/assemblies\/import$/, 'diagram.import', 'diagram.import'],
    [/^\/api\/admin\/assemblies\/export\.csv$/, 'diagram.export', 'diagram.export'],
    [/^\/api\/admin\/assemblies(\/[^/]+(\/history)?)?$/, m === 'DELETE' ? 'diagram.delete' : m === 'POST' ? 'diagram.create' : 'diagram.update', 'diagram.read'],
    [/^\/api\/admin\/diagrams\/[^/]+$/, 'diagram.upload', 'diagram.read'],
    [/^\/api\/admin\/search\/aliases(\.csv|\/[^/]+)?$/, m === 'DELETE' ? 'search.alias-remove' : 'search.alias', 'search.aliases'],
    [/^\/api\/admin\/search\/synonyms(\.csv|\/[^/]+)?$/, m === 'DELETE' ? 'search.synonym-remove' : 'search.synonym', 'search.synonyms'],
    [/^\/api\/admin\/search\/queries\/status$/, 'search.query-status', 'search.query-status'],
    [/^\/api\/admin\/search\/(insights|demand(\.csv)?)$/, 'search.insights', 'search.insights'],
    [/^\/api\/admin\/(upload-[\w-]+|process-sku-images)$/, 'media.upload', 'media.read'],
    [/^\/api\/admin\/media-jobs\//, 'media.job', 'media.job'],
    [/^\/api\/admin\/quotes\/[^/]+\/reply$/, 'quote.reply', 'quote.read'],
    [/^\/api\/admin\/quotes\/export\.csv$/, 'quote.export', 'quote.export'],
    [/^\/api\/admin\/quotes\/[^/]+\/revoke-links$/, 'quote.revoke-links', 'quote.read'],
    [/^\/api\/admin\/quotes(\/.*)?$/, 'quote.update', 'quote.read'],
    [/^\/api\/admin\/orders\/export\.csv$/, 'order.export', 'order.export'],
    [/^\/api\/admin\/orders\/[^/]+\/po-document$/, 'order.po-document', 'order.po-document'],
    [/^\/api\/admin\/webhooks(\/[^/]+)?$/, m === 'DELETE' ? 'webhook.remove' : 'webhook.add', 'webhook.list'],
    [/^\/api\/admin\/orders(\/[^/]+)?$/, 'order.update', 'order.read'],
    [/^\/api\/admin\/api-keys(\/[^/]+)?$/, m === 'DELETE' ? 'api-key.revoke' : 'api-key.create', 'api-key.list'],
    [/^\/api\/admin\/audit$/, 'audit.read', 'audit.read'],
    [/^\/api\/admin\/sign-in-locks(\/[^/]+)?$/, 'sign-in.unlock', 'sign-in-lock.list'],
  ];
  for (const [re, ofWrite, ofRead] of rules) if (re.test(path)) return write ? ofWrite : ofRead;
  return `${m.toLowerCase()} ${path.split('/').slice(0, 4).join('/')}`.slice(0, 100);
}

/**
 * The gateway's audit entries on their way to the auth service, which keeps the log. Entries are sent in batches
 * (at most every second); when auth cannot take them they wait and are sent again, up to `maxPending` (then the
 * oldest are dropped and that is logged as an error: the log must say when it is incomplete).
 */
export function createAuditSink(opts: {
  /** The auth service's replicas (a URL, a list, or the pool the proxy uses). */
  authUrl: string | ReplicaPool;
  serviceToken: string;
  logger: Logger;
  flushMs?: number;
  maxPending?: number;
}) {
  const auth = toReplicaPool(opts.authUrl, 'auth', opts.logger);
  const flushMs = opts.flushMs ?? 1_000;
  const maxPending = opts.maxPending ?? 20_000;
  let pending: AuditInput[] = [];
  let timer: NodeJS.Timeout | null = null;
  let sending: Promise<void> | null = null;
  let failures = 0;

  const schedule = (ms: number) => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      void flush();
    }, ms);
    timer.unref();
  };

  async function sendBatch(batch: AuditInput[]): Promise<boolean> {
    try {
      // Not idempotent (a batch sent twice is recorded twice): another replica takes it only when the first never got it.
      const res = await auth.fetch('/internal/audit', {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SERVICE_TOKEN_HEADER]: opts.serviceToken, [REQUEST_ID_HEADER]: 'audit-sink' },
        body: JSON.stringify({ entries: batch } satisfies RecordAuditRequest),
        signal: AbortSignal.timeout(5_000),
      });
      if (res.ok) return true;
      const text = await res.text().catch(() => '');
      if (res.status === 400) {
        // A batch auth refuses would be refused forever: log it whole (the log line is the record) and move on.
        opts.logger.error({ status: res.status, body: text.slice(0, 500), entries: batch }, 'audit entries refused by auth');
        return true;
      }
      opts.logger.warn({ status: res.status, body: text.slice(0, 200) }, 'audit entries not taken; will retry');
    } catch (err) {
      opts.logger.warn({ err: (err as Error).message }, 'audit entries not sent; will retry');
    }
    return false;
  }

  async function flush(): Promise<void> {
    if (sending) return sending;
    sending = (async () => {
      while (pending.length) {
        const batch = pending.slice(0, 500);
        if (!(await sendBatch(batch))) {
          failures++;
          schedule(Math.min(30_000, flushMs * 2 ** Math.min(failures, 5)));
          return;
        }
        failures = 0;
        pending = pending.slice(batch.length);
      }
    })().finally(() => {
      sending = null;
    });
    return sending;
  }

  return {
    record(entry: AuditInput): void {
      pending.push(entry);
      if (pending.length > maxPending) {
        const dropped = pending.length - maxPending;
        pending = pending.slice(dropped);
        opts.logger.error({ dropped }, 'audit entries dropped: auth has not taken them for too long');
      }
      if (pending.length >= 500) void flush();
      else schedule(flushMs);
    },
    /** Sends what is waiting now (shutdown, tests). */
    flush,
    pendingCount: () => pending.length,
  };
}
export type AuditSink = ReturnType<typeof createAuditSink>;
