import type { AuditEntry } from '@forgeline/contracts/admin-access';
import { RefreshCw, ScrollText, TriangleAlert } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { StateMessage } from '../../../components/ui/state-message.tsx';
import { serverMessage } from '../../../lib/api-error.ts';
import { formatDateTime } from '../../../lib/format-date-time.ts';
import { AdminTable } from './admin-table.tsx';
import { useAuditLog, type AuditFilters } from '../api/admin-access.ts';
import { useAdminSession } from '../hooks/use-admin-session.tsx';
import { SignInLocks } from './sign-in-locks.tsx';

/** The action names staff filter on most (any text is accepted too: a name or its start, e.g. "catalog."). */
export const AUDIT_ACTIONS = [
  'sign-in',
  'sign-in.refused',
  'sign-in.locked',
  'sign-in.unlocked',
  'sign-out',
  'catalog.',
  'catalog.import',
  'catalog.export',
  'product.',
  'product.create',
  'product.update',
  'media.upload',
  'quote.',
  'quote.update',
  'quote.reply',
  'api-key.',
] as const;

const EMPTY: AuditFilters = { actor: '', action: '', from: '', to: '' };
const KIND_LABEL: Record<AuditEntry['actorKind'], string> = { admin: 'staff', api_key: 'API key', anonymous: 'anonymous' };

/** Who did what, when and from where: sign-ins, uploads, imports, edits, quote changes, keys and their calls. */
export default function AuditLogTab() {
  const ids = useId();
  const { session } = useAdminSession();
  const [draft, setDraft] = useState<AuditFilters>(EMPTY);
  const [filters, setFilters] = useState<AuditFilters>(EMPTY);
  const log = useAuditLog(filters);
  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilters({ ...draft });
  };
  const field = (key: keyof AuditFilters) => ({
    id: `${ids}-${key}`,
    value: draft[key],
    onChange: (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value })),
  });

  return (
    <div className="space-y-6">
      <SignInLocks me={session?.email ?? ''} />
      <h2 className="font-display text-xl font-bold uppercase text-ink">Audit log</h2>
      <form onSubmit={apply} aria-label="Audit log filters" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <label className="text-sm font-semibold text-ink" htmlFor={`${ids}-actor`}>
          Who
          <input {...field('actor')} type="search" maxLength={300} placeholder="e-mail or key name" className={`${formControlClass} w-full`} />
        </label>
        <label className="text-sm font-semibold text-ink" htmlFor={`${ids}-action`}>
          Action
          <input {...field('action')} list={`${ids}-actions`} maxLength={100} placeholder="e.g. catalog.import" className={`${formControlClass} w-full`} />
          <datalist id={`${ids}-actions`}>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a} />
            ))}
          </datalist>
        </label>
        <label className="text-sm font-semibold text-ink" htmlFor={`${ids}-from`}>
          From
          <input {...field('from')} type="date" className={`${formControlClass} w-full`} />
        </label>
        <label className="text-sm font-semibold text-ink" htmlFor={`${ids}-to`}>
          To
          <input {...field('to')} type="date" className={`${formControlClass} w-full`} />
        </label>
        <div className="flex items-end gap-2">
          <Button type="submit">Apply</Button>
          <Button
            variant="outline"
            onClick={() => {
              setDraft(EMPTY);
              setFilters(EMPTY);
            }}
          >
            Clear
          </Button>
        </div>
      </form>

      <div className="flex items-center justify-between gap-3">
        <p className="text-sm text-steel" aria-live="polite">
          {log.data ? `${entries.length}${log.hasNextPage ? '+' : ''} entr${entries.length === 1 ? 'y' : 'ies'}` : ''}
        </p>
        <Button variant="outline" size="sm" onClick={() => void log.refetch()}>
          <RefreshCw className="size-4" aria-hidden="true" /> Refresh
        </Button>
      </div>

      {log.isPending ? (
        <Spinner label="Loading the audit log..." />
      ) : log.isError ? (
        <StateMessage icon={TriangleAlert} tone="error" title="The audit log did not load" actions={<Button onClick={() => void log.refetch()}>Retry</Button>}>
          {serverMessage(log.error) ?? 'Something went wrong. Please try again.'}
        </StateMessage>
      ) : entries.length === 0 ? (
        <StateMessage icon={ScrollText} title="Nothing recorded">
          {filters === EMPTY ? 'Staff actions appear here as they happen.' : 'No entry matches these filters.'}
        </StateMessage>
      ) : (
        <>
          <AdminTable
            caption="Audit log"
            minWidth="56rem"
            columns={[{ label: 'When' }, { label: 'Who' }, { label: 'Action' }, { label: 'Target' }, { label: 'From' }, { label: 'Status' }]}
          >
              <tbody className="divide-y divide-zinc-200">
                {entries.map((e) => (
                  <tr key={e.id}>
                    <td className="whitespace-nowrap px-3 py-2">
                      <time dateTime={e.at} title={e.at}>
                        {formatDateTime(e.at, { seconds: true })}
                      </time>
                    </td>
                    <td className="px-3 py-2">
                      <span className="font-semibold">{e.actor}</span>
                      <span className="block text-xs text-steel">{KIND_LABEL[e.actorKind]}</span>
                    </td>
                    <td className="px-3 py-2 font-mono">{e.action}</td>
                    <td className="max-w-[22rem] truncate px-3 py-2 font-mono text-xs" title={e.target ?? undefined}>
                      {e.target ?? '—'}
                    </td>
                    <td className="px-3 py-2 font-mono text-xs">{e.ip ?? '—'}</td>
                    <td className={`px-3 py-2 font-mono ${e.status !== null && e.status >= 400 ? 'text-red-700' : ''}`}>{e.status ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
          </AdminTable>
          {log.hasNextPage ? (
            <div className="text-center">
              <Button variant="outline" disabled={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
                {log.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </div>
  );
}
