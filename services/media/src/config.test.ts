import { describe, expect, it } from 'vitest';
import { loadConfig } from '@forgeline/service-kit/config';
import { ConfigSchema } from './config.ts';

describe('media configuration', () => {
  it('defaults the job lock and stalled check to BullMQ production values and tolerates two lost workers', () => {
    const config = loadConfig(ConfigSchema, {});
    expect(config).toMatchObject({ MEDIA_JOB_LOCK_MS: 30_000, MEDIA_JOB_STALLED_CHECK_MS: 30_000, MEDIA_JOB_MAX_STALLED: 2 });
  });

  it('takes short locks for tests and refuses nonsense, naming the variable', () => {
    expect(loadConfig(ConfigSchema, { MEDIA_JOB_LOCK_MS: '2000', MEDIA_JOB_STALLED_CHECK_MS: '1000', MEDIA_JOB_MAX_STALLED: '0' })).toMatchObject({
      MEDIA_JOB_LOCK_MS: 2000,
      MEDIA_JOB_STALLED_CHECK_MS: 1000,
      MEDIA_JOB_MAX_STALLED: 0,
    });
    expect(() => loadConfig(ConfigSchema, { MEDIA_JOB_LOCK_MS: '10' })).toThrow(/MEDIA_JOB_LOCK_MS/);
    expect(() => loadConfig(ConfigSchema, { MEDIA_JOB_MAX_STALLED: 'many' })).toThrow(/MEDIA_JOB_MAX_STALLED/);
  });
});
