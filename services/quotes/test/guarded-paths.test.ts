import { afterAll, beforeAll, describe, it } from 'vitest';
import { assertGuardedPaths, guardedRoutesOf } from '@forgeline/test-support/guarded-paths';
import { startCatalogStub, startService, type TestService } from './harness.ts';

/** Every admin route of the quotes service (the inbox: every buyer's name, e-mail and phone), spelled every way a caller might. */
describe('quotes: admin routes, however their path is spelled', () => {
  let catalog: Awaited<ReturnType<typeof startCatalogStub>>;
  let service: TestService;
  beforeAll(async () => {
    catalog = await startCatalogStub();
    service = await startService({ catalogUrl: catalog.url });
  });
  afterAll(async () => {
    await service?.close();
    await catalog?.close();
  });

  it('answers 401 or 404 to every spelling of every guarded route without a credential', async () => {
    await assertGuardedPaths({ port: Number(new URL(service.url).port), routes: guardedRoutesOf(service.app) });
  }, 120_000);
});
