import { randomUUID } from 'node:crypto';
import { HttpError } from '@forgeline/service-kit/errors';
import type { AuditEntry, AuditListResponse, AuditQuery, RecordAuditRequest } from '@forgeline/contracts/admin-access';
import type { AuditRecord, AuthStore } from './ports.ts';

const toEntry = ({ at, ...r }: AuditRecord): AuditEntry => ({ ...r, at: new Date(at).toISOString() });

/** A page's position in the log: the last entry's time and id, as an opaque string. */
const encodeCursor = (r: AuditRecord) => Buffer.from(`${r.at}:${r.id}`).toString('base64url');
function decodeCursor(cursor: string): { at: number; id: string } {
  const m = /^(\d{1,15}):([\w-]{1,64})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) throw new HttpError(400, 'cursor is not one this API gave out', [{ path: 'cursor', message: 'use nextCursor of the previous page' }]);
  return { at: Number(m[1]), id: m[2]! };
}

/** A date-only `to` means the whole of that day. */
const endOf = (value: string) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T23:59:59.999Z`) : Date.parse(value));

/** The audit log of staff actions: what the gateway saw and what auth does itself (sign-in, sign-out). */
export function createAuditLog(deps: { store: AuthStore; now: () => number; retentionMs: number }) {
  const { store, now } = deps;
  return {
    async record(entries: RecordAuditRequest['entries'] | Omit<AuditRecord, 'id' | 'at'>[]): Promise<void> {
      const t = now();
      await store.appendAudit(
        entries.map((e) => ({ ...e, id: randomUUID(), at: 'at' in e && typeof e.at === 'string' ? Date.parse(e.at) || t : t })),
      );
    },

    async list(q: AuditQuery): Promise<AuditListResponse> {
      const rows = await store.listAudit({
        actor: q.actor || undefined,
        action: q.action || undefined,
        from: q.from ? Date.parse(q.from) : undefined,
        to: q.to ? endOf(q.to) : undefined,
        before: q.cursor ? decodeCursor(q.cursor) : undefined,
        limit: q.limit + 1,
      });
      const page = rows.slice(0, q.limit);
      return { entries: page.map(toEntry), nextCursor: rows.length > q.limit ? encodeCursor(page[page.length - 1]!) : null };
    },

    /** Drops entries past the retention period; returns how many went. */
    purge(): Promise<number> {
      return store.purgeAudit(now() - deps.retentionMs);
    },
  };
}
export type AuditLog = ReturnType<typeof createAuditLog>;
