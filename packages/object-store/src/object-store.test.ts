import { execFileSync } from 'node:child_process';
import { describe, it } from 'vitest';
import { startMinio } from '@forgeline/test-support/minio';
import { tempDir } from '@forgeline/test-support/net';
import { createLocalObjectStore } from './local-fs.ts';
import { createMinioObjectStore } from './minio.ts';
import { describeObjectStore } from './object-store.contract.ts';

describeObjectStore('local folder', async () => {
  const tmp = tempDir('media-store-');
  return { store: createLocalObjectStore(tmp.dir), cleanup: async () => tmp.remove() };
});

// MinIO built from Go's module proxy (npm run test-servers), started on a free port.
const minio = await startMinio();
if ('skip' in minio) {
  console.warn(`[object-store] MinIO object-store suite skipped: ${minio.skip}`);
  describe.skip(`ObjectStore contract: minio (skipped: ${minio.skip})`, () => it('needs MinIO', () => {}));
} else {
  let n = 0;
  describeObjectStore('minio', async () => ({
    store: createMinioObjectStore({ endpoint: minio.endpoint, accessKey: minio.accessKey, secretKey: minio.secretKey, bucket: `media-test-${n++}` }),
    cleanup: () => minio.stop(),
  }));
}

// MinIO's own image through testcontainers, where a Docker engine answers.
const docker = (() => {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 10_000 });
    return null;
  } catch {
    return 'no Docker engine answers `docker info`';
  }
})();
if (docker) {
  console.warn(`[object-store] MinIO testcontainers suite skipped: ${docker}`);
  describe.skip(`ObjectStore contract: minio container (skipped: ${docker})`, () => it('needs Docker', () => {}));
} else {
  const { GenericContainer, Wait } = await import('testcontainers');
  describeObjectStore('minio container', async () => {
    const container = await new GenericContainer('minio/minio:RELEASE.2025-09-07T16-13-09Z')
      .withCommand(['server', '/data'])
      .withEnvironment({ MINIO_ROOT_USER: 'forgeline-test', MINIO_ROOT_PASSWORD: 'forgeline-test-secret-key' })
      .withExposedPorts(9000)
      .withWaitStrategy(Wait.forHttp('/minio/health/ready', 9000))
      .start();
    return {
      store: createMinioObjectStore({
        endpoint: `http://${container.getHost()}:${container.getMappedPort(9000)}`,
        accessKey: 'forgeline-test',
        secretKey: 'forgeline-test-secret-key',
        bucket: 'media-test',
      }),
      cleanup: async () => void (await container.stop()),
    };
  });
}
