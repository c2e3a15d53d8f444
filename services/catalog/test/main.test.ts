import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@forgeline/service-kit/config';
import { freePort, tempDir } from '@forgeline/test-support/net';
import { SqliteProductRepository } from '../src/adapters/sqlite/sqlite-product-repository.ts';
import { CatalogConfigSchema } from '../src/config.ts';
import { catalogPaths } from '../src/stores.ts';
import { gatewayAssertionHeaders } from '@forgeline/service-kit/gateway-assertion';

const SERVICE_TOKEN = 'test-service-token-0123456789';
import { PRODUCTS, id } from './fixtures.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The real catalog (main.ts) on `dataDir`, ready; its stderr kept for failure messages. */
async function startCatalog(dataDir: string) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/catalog/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', MONGO_URL: '', MEILI_URL: '', SERVICE_TOKEN },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = `http://127.0.0.1:${port}`;
  let ready = false;
  for (let attempt = 0; attempt < 600 && !ready; attempt++) {
    if (child.exitCode !== null) throw new Error(`catalog exited early: ${stderr}`);
    ready = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    if (!ready) await new Promise((r) => setTimeout(r, 100));
  }
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`catalog not ready within 60 s: ${stderr}`);
  }
  return { child, url, exited, stderr: () => stderr };
}

describe('catalog configuration', () => {
  it('defaults to the embedded adapters on port 4001', () => {
    const config = loadConfig(CatalogConfigSchema, { DATA_DIR: '/tmp/x', MONGO_URL: '', MEILI_URL: '' });
    expect(config).toMatchObject({ PORT: 4001, DATA_DIR: '/tmp/x', MONGO_URL: undefined, MEILI_URL: undefined, MEILI_INDEX: 'products' });
  });

  it('gives SQLite a 64 MB page cache and no memory map unless told, and names a bad size', () => {
    expect(loadConfig(CatalogConfigSchema, {})).toMatchObject({ SQLITE_CACHE_MB: 64, SQLITE_MMAP_MB: 0, IMPORT_CACHE_MB: 256 });
    expect(loadConfig(CatalogConfigSchema, { SQLITE_CACHE_MB: '128', SQLITE_MMAP_MB: '512' })).toMatchObject({ SQLITE_CACHE_MB: 128, SQLITE_MMAP_MB: 512 });
    expect(() => loadConfig(CatalogConfigSchema, { SQLITE_CACHE_MB: 'lots' })).toThrow(/SQLITE_CACHE_MB/);
    expect(() => loadConfig(CatalogConfigSchema, { SQLITE_MMAP_MB: '-1' })).toThrow(/SQLITE_MMAP_MB/);
  });

  it('names a bad MONGO_URL', () => {
    expect(() => loadConfig(CatalogConfigSchema, { MONGO_URL: 'http://localhost:27017' })).toThrow(ConfigError);
    expect(() => loadConfig(CatalogConfigSchema, { MONGO_URL: 'http://localhost:27017' })).toThrow(/MONGO_URL/);
  });

  it('refuses a Meilisearch key without a Meilisearch URL, naming the missing variable', () => {
    expect(() => loadConfig(CatalogConfigSchema, { MEILI_MASTER_KEY: 'secret-key' })).toThrow(/MEILI_URL/);
    expect(loadConfig(CatalogConfigSchema, { MEILI_URL: 'http://127.0.0.1:7700' }).MEILI_URL).toBe('http://127.0.0.1:7700');
  });
});

describe('catalog main', () => {
  it('starts on a filled store with no search index, rebuilds the index, reports ready, runs an import in its own process, and stops on SIGTERM', async () => {
    const tmp = tempDir('catalog-main-');
    try {
      const repo = SqliteProductRepository.open(catalogPaths(tmp.dir).sqlite);
      await repo.upsertMany(PRODUCTS);
      await repo.close();

      const { child, url, exited, stderr: logs } = await startCatalog(tmp.dir);
      try {
        const found = (await (await fetch(`${url}/api/products?search=Water%20Pump&limit=10`)).json()) as { products: { id: string }[] };
        expect(found.products.map((p: { id: string }) => p.id)).toContain(id(7));
        expect((await fetch(`${url}/api/products/${id(1)}`)).status).toBe(200);

        // A catalogue import runs in a process of its own (SQLite): written there, indexed here, searchable at once.
        const form = new FormData();
        const rows = ['sku,name,part_number,category,brand', ...Array.from({ length: 1200 }, (_, i) => `WRK-${i},Worker Gasket ${i},WG-${i},Gaskets,Zeta Hydraulics`)];
        form.append('file', new Blob([rows.join('\n')]), 'worker.csv');
        const started = await fetch(`${url}/api/admin/catalog/imports`, { method: 'POST', body: form, headers: await gatewayAssertionHeaders(SERVICE_TOKEN, 'ops@example.com') });
        expect(started.status).toBe(202);
        const { id: importId } = (await started.json()) as { id: string };
        let job: { state: string; created: number } = { state: 'queued', created: 0 };
        for (let i = 0; i < 300 && ['queued', 'running'].includes(job.state); i++) {
          await new Promise((r) => setTimeout(r, 100));
          job = (await (await fetch(`${url}/api/admin/catalog/imports/${importId}`, { headers: await gatewayAssertionHeaders(SERVICE_TOKEN, 'ops@example.com') })).json()) as typeof job;
        }
        expect(job, logs()).toMatchObject({ state: 'completed', created: 1200 });
        const hit = (await (await fetch(`${url}/api/products?search=WG-1199&limit=1`)).json()) as { products: { sku: string }[] };
        expect(hit.products[0]?.sku).toBe('WRK-1199');
      } finally {
        child.kill('SIGTERM');
      }
      expect((await exited).code).toBe(0);
    } finally {
      tmp.remove();
    }
  });

  it('runs an import in a process of its own, which stops when the catalog is killed (no writer left behind)', async () => {
    const tmp = tempDir('catalog-main-');
    const childrenOf = (pid: number) => {
      try {
        return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
      } catch {
        return [];
      }
    };
    const commandOf = (pid: number) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      } catch {
        return '';
      }
    };
    try {
      const { child, url, exited, stderr } = await startCatalog(tmp.dir);
      // Long enough to be caught running: 200,000 rows.
      const rows = ['sku,name,part_number,category,brand', ...Array.from({ length: 200_000 }, (_, i) => `BIG-${i},Big Gasket ${i},BG-${i},Gaskets,Zeta Hydraulics`)];
      const form = new FormData();
      form.append('file', new Blob([rows.join('\n')]), 'big.csv');
      const started = await fetch(`${url}/api/admin/catalog/imports`, { method: 'POST', body: form, headers: await gatewayAssertionHeaders(SERVICE_TOKEN, 'ops@example.com') });
      expect(started.status).toBe(202);
      let importPid: number | undefined;
      for (let i = 0; i < 200 && importPid === undefined; i++) {
        importPid = childrenOf(child.pid!).find((pid) => commandOf(pid).includes('import-worker.ts'));
        if (importPid === undefined) await new Promise((r) => setTimeout(r, 50));
      }
      expect(importPid, `no import process under the catalog: ${stderr()}`).toBeDefined();
      expect(importPid).not.toBe(child.pid);

      child.kill('SIGKILL');
      expect((await exited).signal).toBe('SIGKILL');
      let gone = false;
      for (let i = 0; i < 100 && !gone; i++) {
        gone = !commandOf(importPid!).includes('import-worker.ts');
        if (!gone) await new Promise((r) => setTimeout(r, 100));
      }
      expect(gone, 'the import process outlived the catalog').toBe(true);
    } finally {
      tmp.remove();
    }
  });
});
