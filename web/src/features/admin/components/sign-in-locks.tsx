import type { SignInLock } from '@forgeline/contracts/admin-access';
import { LockOpen, ShieldCheck, TriangleAlert } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { StateMessage } from '../../../components/ui/state-message.tsx';
import { serverMessage } from '../../../lib/api-error.ts';
import { formatDateTime } from '../../../lib/format-date-time.ts';
import { AdminTable } from './admin-table.tsx';
import { useLiftSignInLock, useSignInLocks } from '../api/admin-access.ts';

const errorText = (err: unknown) => serverMessage(err) ?? 'Something went wrong. Please try again.';

/**
 * Admin addresses that got wrong sign-in codes: after too many in a day the address is locked, each lock twice as long
 * as the last. Another member of staff lifts a lock here (the locked admin cannot: they might be the guesser).
 */
export function SignInLocks({ me }: { me: string }) {
  const locks = useSignInLocks();
  return (
    <section aria-labelledby="sign-in-locks-heading" className="space-y-3">
      <h2 id="sign-in-locks-heading" className="font-display text-xl font-bold uppercase text-ink">
        Sign-in locks
      </h2>
      {locks.isPending ? (
        <Spinner label="Loading the sign-in locks..." />
      ) : locks.isError ? (
        <StateMessage icon={TriangleAlert} tone="error" title="The sign-in locks did not load" actions={<Button onClick={() => void locks.refetch()}>Retry</Button>}>
          {errorText(locks.error)}
        </StateMessage>
      ) : locks.data.locks.length === 0 ? (
        <StateMessage icon={ShieldCheck} title="No wrong sign-in codes counted">
          An admin address is locked for a while after too many wrong codes in a day; it would be listed here, for
          another admin to lift.
        </StateMessage>
      ) : (
        <AdminTable
          caption="Sign-in locks"
          minWidth="40rem"
          columns={[{ label: 'Address' }, { label: 'Wrong codes' }, { label: 'Status' }, { label: 'Count resets' }, { label: 'Actions', hidden: true }]}
        >
          <tbody className="divide-y divide-zinc-200">
            {locks.data.locks.map((l) => (
              <tr key={l.email}>
                <td className="px-3 py-2 font-semibold">{l.email}</td>
                <td className="px-3 py-2">
                  {l.failures} since <span title={l.since}>{formatDateTime(l.since)}</span>
                </td>
                <td className="px-3 py-2">
                  {l.locked && l.lockedUntil ? (
                    <span className="rounded bg-red-100 px-2 py-0.5 text-xs font-bold text-red-900" title={l.lockedUntil}>
                      Locked until {formatDateTime(l.lockedUntil)}
                    </span>
                  ) : (
                    <span className="rounded bg-zinc-100 px-2 py-0.5 text-xs font-bold text-zinc-800">Not locked</span>
                  )}
                </td>
                <td className="px-3 py-2">
                  <span title={l.resetsAt}>{formatDateTime(l.resetsAt)}</span>
                </td>
                <td className="px-3 py-2 text-right">{l.email === me ? <span className="text-xs text-steel">your own: another admin lifts it</span> : <LiftButton lock={l} />}</td>
              </tr>
            ))}
          </tbody>
        </AdminTable>
      )}
    </section>
  );
}

function LiftButton({ lock }: { lock: SignInLock }) {
  const lift = useLiftSignInLock();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" size="sm" aria-label={`Lift the lock of ${lock.email}`}>
          <LockOpen className="size-4" aria-hidden="true" /> {lock.locked ? 'Lift lock' : 'Clear count'}
        </Button>
      }
      title={`Let ${lock.email} sign in again?`}
      description={`${lock.failures} wrong codes were tried for this address. Lift the lock only once you know they were the admin's own (ask them): a guesser gets ten more tries. Your name goes into the audit log.`}
      confirmLabel="Lift lock"
      pendingLabel="Lifting…"
      pending={lift.isPending}
      onConfirm={(close) =>
        lift.mutate(lock.email, {
          onSuccess: () => {
            close();
            toast.success('Sign-in lock lifted', { description: lock.email });
          },
          onError: (err) => toast.error('The lock was not lifted', { description: errorText(err) }),
        })
      }
    />
  );
}
