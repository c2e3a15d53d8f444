import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { afterAll } from 'vitest';
import { startFerretDb } from '@forgeline/test-support/ferretdb';
import { startMongoDb } from '@forgeline/test-support/mongodb';
import { describeIndexChecks, MongoQueryRecorder } from '@forgeline/test-support/mongo-queries';
import { MongoProductRepository, UNINDEXED_QUERIES } from '../src/adapters/mongo/mongo-product-repository.ts';
import { describeProductRepository } from './product-repository.contract.ts';

/** Each test gets its own database on the shared server, so tests never see each other's rows; every query is recorded. */
const freshDatabase = (url: string, recorder: MongoQueryRecorder) => () =>
  MongoProductRepository.connect(`${url}/catalog_${randomUUID().replaceAll('-', '')}`, { onCommand: recorder.onCommand });

// FerretDB v1.24 (MongoDB's wire protocol on SQLite), built by scripts/build-test-servers.sh.
const ferret = await startFerretDb();
if ('skip' in ferret) console.warn(`[catalog] skipping the mongo contract suite on FerretDB: ${ferret.skip}`);
else afterAll(() => ferret.stop());
const onFerret = new MongoQueryRecorder();
describeProductRepository(
  'mongo on FerretDB',
  freshDatabase('skip' in ferret ? 'mongodb://unused' : ferret.url, onFerret),
  'skip' in ferret ? { skip: ferret.skip } : {},
);
// FerretDB scans where MongoDB would use an index, so what is proven here is the shapes against the indexes.
describeIndexChecks('catalog on FerretDB', onFerret, UNINDEXED_QUERIES, 'skip' in ferret ? { skip: ferret.skip } : {});

// A real MongoDB through testcontainers, where a Docker engine answers: the contract, the same check, and MongoDB's own plans.
const mongo = await startMongoDb();
if ('skip' in mongo) console.warn(`[catalog] skipping the mongo contract suite on MongoDB: ${mongo.skip}`);
else afterAll(() => mongo.stop());
const onMongo = new MongoQueryRecorder();
describeProductRepository(
  'mongo on MongoDB (testcontainers)',
  freshDatabase('skip' in mongo ? 'mongodb://unused' : mongo.url, onMongo),
  'skip' in mongo ? { skip: mongo.skip } : {},
);
describeIndexChecks(
  'catalog on MongoDB (testcontainers)',
  onMongo,
  UNINDEXED_QUERIES,
  'skip' in mongo
    ? { skip: mongo.skip }
    : {
        explainOn: async () => {
          const conn = await mongoose.createConnection(mongo.url).asPromise();
          return { client: conn.getClient(), close: () => conn.close() };
        },
      },
);
