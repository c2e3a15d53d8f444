import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { afterAll, describe } from 'vitest';
import { startFerretDb, type RunningFerretDb } from '@forgeline/test-support/ferretdb';
import { startMongoDb, type RunningMongoDb } from '@forgeline/test-support/mongodb';
import { describeIndexChecks, MongoQueryRecorder } from '@forgeline/test-support/mongo-queries';
import { describeAuthStore } from './auth-store.contract.ts';
import { createMongoAuthStore, UNINDEXED_QUERIES } from '../src/adapters/mongo/mongo-auth-store.ts';

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
  const recorder = new MongoQueryRecorder();
  describeAuthStore('mongo', async () => ({
    store: await createMongoAuthStore(`${running.url}/auth-${randomUUID().slice(0, 8)}`, { onCommand: recorder.onCommand }),
    cleanup: async () => undefined,
  }));
  // FerretDB scans where MongoDB would use an index, so what is proven here is the shapes against the indexes.
  describeIndexChecks('auth on FerretDB', recorder, UNINDEXED_QUERIES);
});

// A real MongoDB through testcontainers, where a Docker engine answers: the contract, the same check, and MongoDB's own plans.
const mongo = await startMongoDb();
const mongoSkip = 'skip' in mongo ? mongo.skip : null;
if (mongoSkip) console.warn(`[auth mongo store] on MongoDB skipped: ${mongoSkip}`);

describe.skipIf(mongoSkip !== null)(`mongo auth store on MongoDB (testcontainers)${mongoSkip ? ` (skipped: ${mongoSkip})` : ''}`, () => {
  const running = mongo as RunningMongoDb;
  afterAll(async () => {
    await running.stop();
  });
  const recorder = new MongoQueryRecorder();
  describeAuthStore('mongo on MongoDB', async () => ({
    store: await createMongoAuthStore(`${running.url}/auth-${randomUUID().slice(0, 8)}`, { onCommand: recorder.onCommand }),
    cleanup: async () => undefined,
  }));
  describeIndexChecks('auth on MongoDB (testcontainers)', recorder, UNINDEXED_QUERIES, {
    explainOn: async () => {
      const conn = await mongoose.createConnection(running.url).asPromise();
      return { client: conn.getClient(), close: () => conn.close() };
    },
  });
});
