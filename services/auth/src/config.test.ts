import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@forgeline/service-kit/config';
import { AuthConfigSchema } from './config.ts';

/** The configuration as main.ts loads it, from these variables alone (development: no production secrets needed). */
const load = (env: NodeJS.ProcessEnv) => loadConfig(AuthConfigSchema, env);

function refusal(env: NodeJS.ProcessEnv): string {
  try {
    load(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe("auth's configuration", () => {
  it('prefills the login screen by default, and not when ADMIN_EMAIL_PREFILL is false', () => {
    expect(load({}).ADMIN_EMAIL_PREFILL).toBe(true);
    expect(load({ ADMIN_EMAIL_PREFILL: 'true' }).ADMIN_EMAIL_PREFILL).toBe(true);
    expect(load({ ADMIN_EMAIL_PREFILL: 'false' }).ADMIN_EMAIL_PREFILL).toBe(false);
  });

  it('refuses an ADMIN_EMAIL_PREFILL other than true or false, naming it', () => {
    for (const bad of ['0', 'no', 'False', 'TRUE', 'yes', '']) {
      const message = refusal({ ADMIN_EMAIL_PREFILL: bad });
      expect(message, bad).toContain('ADMIN_EMAIL_PREFILL: must be true or false');
      expect(message, bad).toContain(`(got "${bad}")`);
    }
  });

  it('locks an address after 10 wrong codes for 15 minutes, doubling up to 24 hours, unless told otherwise', () => {
    expect(load({})).toMatchObject({ SIGN_IN_LOCK_AFTER_FAILURES: 10, SIGN_IN_LOCK_MINUTES: 15, SIGN_IN_LOCK_MAX_HOURS: 24 });
    expect(load({ SIGN_IN_LOCK_AFTER_FAILURES: '5', SIGN_IN_LOCK_MINUTES: '30', SIGN_IN_LOCK_MAX_HOURS: '6' })).toMatchObject({
      SIGN_IN_LOCK_AFTER_FAILURES: 5,
      SIGN_IN_LOCK_MINUTES: 30,
      SIGN_IN_LOCK_MAX_HOURS: 6,
    });
    expect(refusal({ SIGN_IN_LOCK_AFTER_FAILURES: '0' })).toContain('SIGN_IN_LOCK_AFTER_FAILURES');
    expect(refusal({ SIGN_IN_LOCK_MINUTES: 'soon' })).toContain('SIGN_IN_LOCK_MINUTES');
  });
});
