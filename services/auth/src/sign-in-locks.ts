import type { Logger } from '@forgeline/service-kit/logger';
import { HttpError } from '@forgeline/service-kit/errors';
import type { SignInLock } from '@forgeline/contracts/admin-access';
import type { AuthStore } from './ports.ts';
import { current, isLocked, type SignInLockRecord } from './domain/sign-in-lock.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const toLock = (r: SignInLockRecord, now: number): SignInLock => ({
  email: r.email,
  failures: r.failures,
  since: new Date(r.windowStart).toISOString(),
  locks: r.locks,
  lockedAt: iso(r.lockedAt),
  lockedUntil: iso(r.lockedUntil),
  locked: isLocked(r, now),
  resetsAt: new Date(r.forgetAt).toISOString(),
});

/**
 * What staff see of the sign-in counts and locks, and the lift. Only admin addresses are shown: the store counts
 * every address (so a guesser cannot tell an admin's from another by its answers), but only an admin's lock
 * keeps anyone out.
 */
export function createSignInLocks(deps: { store: AuthStore; logger: Logger; adminEmails: string[]; now: () => number }) {
  const { store, logger, now } = deps;
  const admins = new Set(deps.adminEmails);
  return {
    async list(): Promise<SignInLock[]> {
      const t = now();
      return (await store.listSignInLocks())
        .filter((r) => admins.has(r.email) && current(r, t) !== null)
        .map((r) => toLock(r, t))
        .sort((a, b) => Number(b.locked) - Number(a.locked) || a.email.localeCompare(b.email));
    },

    /**
     * Ends `email`'s lock and forgets its count, for another member of staff: an admin cannot lift the lock on
     * their own address (a second person vouches that the one locked out is who they say).
     */
    async lift(email: string, by: string): Promise<SignInLock> {
      if (email === by) throw new HttpError(403, 'You cannot lift the lock on your own address: another admin can, or it ends by itself');
      const t = now();
      const lifted = admins.has(email)
        ? await store.changeSignInLock(email, (stored) => ({ next: stored === null ? undefined : null, result: current(stored, t) }))
        : null;
      if (!lifted) throw new HttpError(404, `No sign-in count or lock for ${email}`);
      logger.info({ email, by, wasLocked: isLocked(lifted, t) }, 'sign-in lock lifted');
      return toLock(lifted, t);
    },
  };
}
export type SignInLocks = ReturnType<typeof createSignInLocks>;
