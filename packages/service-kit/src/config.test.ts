import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, DEV_SERVICE_TOKEN, PUBLISHED_SECRETS, baseEnv, isProductionEnv, loadConfig, productionSecrets } from './config.ts';

/** A service's schema as the services write theirs: baseEnv, a secret of its own, one used only with its server. */
const schema = z
  .object({ ...baseEnv, OTP_SECRET: z.string().optional(), MEILI_URL: z.string().optional(), MEILI_MASTER_KEY: z.string().optional() })
  .superRefine(productionSecrets(['SERVICE_TOKEN', 'OTP_SECRET', { name: 'MEILI_MASTER_KEY', when: (env) => Boolean(env.MEILI_URL) }]));

const STRONG = 'k'.repeat(32);
const strong = { SERVICE_TOKEN: STRONG, OTP_SECRET: STRONG };
const PRODUCTION = { NODE_ENV: 'production' };

function refusal(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(schema, env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('productionSecrets: published and weak secrets refused outside development', () => {
  it('refuses a secret that is not set, naming the variable and how to make one', () => {
    const message = refusal({ ...PRODUCTION, SERVICE_TOKEN: STRONG });
    expect(message).toContain('OTP_SECRET: is not set; set it to a random secret of at least 32 bytes (openssl rand -base64 48)');
    expect(message).not.toContain('SERVICE_TOKEN');
  });

  it("refuses the schema's own default when the variable is not set at all", () => {
    expect(refusal({ ...PRODUCTION, OTP_SECRET: STRONG })).toBe(
      'Invalid configuration:\n  SERVICE_TOKEN: is the published development default; set it to a random secret of at least 32 bytes (openssl rand -base64 48) (not set)',
    );
  });

  it('refuses every value the repository publishes, and change-me placeholders', () => {
    expect(PUBLISHED_SECRETS).toContain(DEV_SERVICE_TOKEN);
    expect(PUBLISHED_SECRETS).toContain('compose-dev-service-token-change-me');
    for (const published of PUBLISHED_SECRETS) {
      expect(refusal({ ...PRODUCTION, ...strong, OTP_SECRET: published })).toContain('OTP_SECRET: is the published development default');
    }
    const placeholder = 'change-me-to-a-long-random-secret-of-48-bytes!!!';
    expect(refusal({ ...PRODUCTION, ...strong, SERVICE_TOKEN: placeholder })).toContain('SERVICE_TOKEN: is a placeholder');
  });

  it('refuses 31 bytes and takes 32 (bytes, not characters)', () => {
    expect(refusal({ ...PRODUCTION, ...strong, OTP_SECRET: 'x'.repeat(31) })).toContain('OTP_SECRET: is 31 bytes, too short to be a secret;');
    expect(loadConfig(schema, { ...PRODUCTION, ...strong, OTP_SECRET: 'x'.repeat(32) }).OTP_SECRET).toBe('x'.repeat(32));
    expect(loadConfig(schema, { ...PRODUCTION, ...strong, OTP_SECRET: 'é'.repeat(16) }).OTP_SECRET).toHaveLength(16);
  });

  it('never repeats a secret in the message', () => {
    const message = refusal({ ...PRODUCTION, ...strong, SERVICE_TOKEN: 'short-but-sixteen-bytes' });
    expect(message).toContain('SERVICE_TOKEN: is 23 bytes');
    expect(message).not.toContain('short-but-sixteen-bytes');
    expect(refusal({ SERVICE_TOKEN: 'tiny-token' })).not.toContain('tiny-token'); // the development minimum too
  });

  it('checks a secret whose server is not configured only once it is', () => {
    expect(() => loadConfig(schema, { ...PRODUCTION, ...strong })).not.toThrow();
    expect(refusal({ ...PRODUCTION, ...strong, MEILI_URL: 'http://meilisearch:7700' })).toContain('MEILI_MASTER_KEY: is not set;');
    expect(refusal({ ...PRODUCTION, ...strong, MEILI_URL: 'http://meilisearch:7700', MEILI_MASTER_KEY: 'compose-dev-meili-master-key' })).toContain(
      'MEILI_MASTER_KEY: is the published development default',
    );
  });

  it('checks nothing in development: the defaults of npm start and the tests keep working', () => {
    for (const env of [{}, { NODE_ENV: 'test' }, { NODE_ENV: 'development', PUBLIC_URL: 'http://parts.example.com' }]) {
      expect(loadConfig(schema, env).SERVICE_TOKEN).toBe(DEV_SERVICE_TOKEN);
    }
  });

  it('counts NODE_ENV=production and a public https PUBLIC_URL as production, https on loopback not', () => {
    const cases: [NodeJS.ProcessEnv, boolean][] = [
      [{}, false],
      [{ NODE_ENV: 'production' }, true],
      [{ NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:8080' }, true],
      [{ PUBLIC_URL: 'https://www.forgelineparts.com' }, true],
      [{ NODE_ENV: 'test', PUBLIC_URL: 'https://parts.example.com:8443/' }, true],
      [{ PUBLIC_URL: 'http://www.forgelineparts.com' }, false],
      [{ PUBLIC_URL: 'https://localhost:8443' }, false],
      [{ PUBLIC_URL: 'https://shop.localhost' }, false],
      [{ PUBLIC_URL: 'https://127.0.0.1:8443' }, false],
      [{ PUBLIC_URL: 'https://[::1]:8443' }, false],
      [{ PUBLIC_URL: 'not a url' }, false],
    ];
    for (const [env, production] of cases) {
      expect(isProductionEnv(env), JSON.stringify(env)).toBe(production);
      const parsed = schema.safeParse(env);
      expect(parsed.success, `${JSON.stringify(env)} with the defaults`).toBe(!production);
    }
    expect(refusal({ PUBLIC_URL: 'https://www.forgelineparts.com' })).toContain('SERVICE_TOKEN: is the published development default');
    expect(loadConfig(schema, { PUBLIC_URL: 'https://www.forgelineparts.com', ...strong }).SERVICE_TOKEN).toBe(STRONG);
  });
});
