import { afterAll, beforeAll, describe, it } from 'vitest';
import { assertGuardedPaths, guardedRoutesOf } from '@forgeline/test-support/guarded-paths';
import { startMedia, testProducts, type MediaUnderTest } from './harness.ts';

/** Every admin route of the media API, spelled every way a caller might: refused or no route, never served. */
describe('media: admin routes, however their path is spelled', () => {
  let media: MediaUnderTest;
  beforeAll(async () => {
    media = await startMedia({ products: testProducts(2) });
  });
  afterAll(() => media?.stop());

  it('answers 401 or 404 to every spelling of every guarded route without a credential', async () => {
    await assertGuardedPaths({ port: Number(new URL(media.url).port), routes: guardedRoutesOf(media.app) });
  }, 120_000);
});
