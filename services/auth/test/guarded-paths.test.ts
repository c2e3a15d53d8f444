import { afterAll, beforeAll, describe, it } from 'vitest';
import { assertGuardedPaths, guardedRoutesOf } from '@forgeline/test-support/guarded-paths';
import { startAuth, type AuthHarness } from './harness.ts';

/**
 * Every admin route of auth but the sign-in ones (API keys, the audit log, sign-in locks) and every internal one (the
 * gateway's session and key checks, the audit sink), spelled every way a caller might: refused or no route.
 */
describe('auth: admin and internal routes, however their path is spelled', () => {
  let auth: AuthHarness;
  beforeAll(async () => {
    auth = await startAuth();
  });
  afterAll(() => auth?.stop());

  it('answers 401 or 404 to every spelling of every guarded route without a credential', async () => {
    const routes = guardedRoutesOf(auth.app, { open: (p) => p.startsWith('/api/admin/auth/') });
    await assertGuardedPaths({ port: Number(new URL(auth.url).port), routes });
  }, 120_000);
});
