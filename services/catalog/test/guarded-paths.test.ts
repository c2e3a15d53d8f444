import { afterAll, beforeAll, describe, it } from 'vitest';
import { assertGuardedPaths, guardedRoutesOf } from '@forgeline/test-support/guarded-paths';
import { startCatalog, type CatalogUnderTest } from './harness.ts';

/** Every admin and internal route of the catalog, spelled every way a caller might: refused or no route, never served. */
describe('catalog: admin and internal routes, however their path is spelled', () => {
  let catalog: CatalogUnderTest;
  beforeAll(async () => {
    catalog = await startCatalog();
  });
  afterAll(() => catalog?.stop());

  it('answers 401 or 404 to every spelling of every guarded route without a credential', async () => {
    await assertGuardedPaths({ port: Number(new URL(catalog.url).port), routes: guardedRoutesOf(catalog.app) });
  }, 120_000);
});
