import { randomUUID } from 'node:crypto';
import { afterAll, describe } from 'vitest';
import { startFerretDb, type RunningFerretDb } from '@forgeline/test-support/ferretdb';
import { describeAuthStore } from './auth-store.contract.ts';
import { createMongoAuthStore } from '../src/adapters/mongo/mongo-auth-store.ts';

// The mongoose adapter against FerretDB (MongoDB's wire protocol); skipped, with the reason, when it cannot start.
const ferret = await startFerretDb();
const skip = 'skip' in ferret ? ferret.skip : null;
if (skip) console.warn(`[auth mongo store] skipped: ${skip}`);

describe.skipIf(skip !== null)(`mongo auth store on FerretDB${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const running = ferret as RunningFerretDb;
  afterAll(async () => {
    await running.stop();
  });
  // No `replica`: FerretDB 1.x loses concurrent updates from two connections (even a plain $inc: 19 of 25 counted),
  // which MongoDB does not; within one process the adapter's queue keeps the count exact.
  describeAuthStore('mongo', async () => ({
    store: await createMongoAuthStore(`${running.url}/auth-${randomUUID().slice(0, 8)}`),
    cleanup: async () => undefined,
  }));
});
