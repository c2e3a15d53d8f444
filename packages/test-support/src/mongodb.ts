import { spawnSync } from 'node:child_process';

export interface RunningMongoDb {
  /** mongodb://<host>:<port> (no database: append `/<db>` per test for isolation). */
  url: string;
  stop: () => Promise<void>;
}

/**
 * A real MongoDB (mongo:8) in a container through testcontainers, where a Docker engine answers. Returns `{ skip }`
 * with the reason where none does (no Docker here: FerretDB, `ferretdb.ts`, speaks the protocol but plans nothing
 * as MongoDB does, so what only MongoDB can tell, its query plans, is asked of this one).
 */
export async function startMongoDb(): Promise<RunningMongoDb | { skip: string }> {
  const docker = spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 15_000 });
  if (docker.status !== 0) return { skip: 'no Docker engine (`docker info` failed), so no MongoDB container' };
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer('mongo:8')
    .withExposedPorts(27017)
    .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
    .start();
  return {
    url: `mongodb://${container.getHost()}:${container.getMappedPort(27017)}`,
    stop: async () => {
      await container.stop();
    },
  };
}
