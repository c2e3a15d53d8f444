import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll } from 'vitest';
import { startFerretDb } from '@forgeline/test-support/ferretdb';
import { MongoProductRepository } from '../src/adapters/mongo/mongo-product-repository.ts';
import { describeProductRepository } from './product-repository.contract.ts';

/** Each test gets its own database on the shared server, so tests never see each other's rows. */
const freshDatabase = (url: string) => () => MongoProductRepository.connect(`${url}/catalog_${randomUUID().replaceAll('-', '')}`);

// FerretDB v1.24 (MongoDB's wire protocol on SQLite), built by scripts/build-test-servers.sh.
const ferret = await startFerretDb();
if ('skip' in ferret) console.warn(`[catalog] skipping the mongo contract suite on FerretDB: ${ferret.skip}`);
else afterAll(() => ferret.stop());
describeProductRepository(
  'mongo on FerretDB',
  freshDatabase('skip' in ferret ? 'mongodb://unused' : ferret.url),
  'skip' in ferret ? { skip: ferret.skip } : {},
);

// A real MongoDB through testcontainers, where a Docker engine answers.
const docker = spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 15_000 });
const dockerSkip = docker.status === 0 ? undefined : 'no Docker engine (`docker info` failed), so no MongoDB container';
let mongoUrl = 'mongodb://unused';
if (dockerSkip) {
  console.warn(`[catalog] skipping the mongo contract suite on MongoDB: ${dockerSkip}`);
} else {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer('mongo:8')
    .withExposedPorts(27017)
    .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
    .start();
  mongoUrl = `mongodb://${container.getHost()}:${container.getMappedPort(27017)}`;
  afterAll(() => container.stop());
}
describeProductRepository('mongo on MongoDB (testcontainers)', () => MongoProductRepository.connect(`${mongoUrl}/catalog_${randomUUID().replaceAll('-', '')}`), {
  skip: dockerSkip,
});
