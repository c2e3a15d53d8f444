/**
 * The Meilisearch adapter against a real Meilisearch started by testcontainers. Runs only where a
 * Docker engine answers (`docker info`); elsewhere it skips and says why.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedTestContainer } from 'testcontainers';
import { MeiliSearchIndex } from '../../src/adapters/meilisearch/meili-search-index.ts';
import { batches } from './fixtures.ts';
import { measureRelevance, printReport, relevanceCatalogue } from './relevance-harness.ts';
import { buildInfixRelevanceSet } from '../../src/seed/infix-relevance-set.ts';
import { recall } from '../../src/seed/relevance-set.ts';
import { describeSearchIndex } from './search-index.contract.ts';

const MEILI_IMAGE = 'getmeili/meilisearch:v1.16';
const MASTER_KEY = 'test-master-key-0123456789';

function dockerUnavailable(): string | undefined {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 15_000 });
    return undefined;
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { status?: number };
    return e.code === 'ENOENT' ? 'the docker command is not installed' : `docker info failed (exit ${e.status ?? e.code}): no Docker engine to start ${MEILI_IMAGE}`;
  }
}

const skip = dockerUnavailable();
if (skip) console.warn(`[search] Meilisearch adapter tests skipped: ${skip}`);

let started: Promise<{ url: string; container: StartedTestContainer }> | undefined;
function meili(): Promise<{ url: string; container: StartedTestContainer }> {
  started ??= (async () => {
    const { GenericContainer, Wait } = await import('testcontainers');
    const container = await new GenericContainer(MEILI_IMAGE)
      .withEnvironment({ MEILI_MASTER_KEY: MASTER_KEY, MEILI_NO_ANALYTICS: 'true', MEILI_ENV: 'development' })
      .withExposedPorts(7700)
      .withWaitStrategy(Wait.forHttp('/health', 7700).forStatusCode(200))
      .start();
    return { url: `http://${container.getHost()}:${container.getMappedPort(7700)}`, container };
  })();
  return started;
}

afterAll(async () => {
  if (started) await (await started).container.stop();
}, 60_000);

let indexCounter = 0;
describeSearchIndex(
  'meilisearch',
  async () => {
    const { url } = await meili();
    const index = await MeiliSearchIndex.connect({ url, apiKey: MASTER_KEY, indexName: `contract-${Date.now()}-${indexCounter++}` });
    return { index, cleanup: () => index.close() };
  },
  { skip },
);

describe.skipIf(Boolean(skip))('relevance set on Meilisearch', () => {
  const catalogue = skip ? null : relevanceCatalogue();
  let index: MeiliSearchIndex;
  beforeAll(async () => {
    const { url } = await meili();
    index = await MeiliSearchIndex.connect({ url, apiKey: MASTER_KEY, indexName: `relevance-${Date.now()}` });
    await index.rebuild(batches(catalogue!.products, 5000));
  }, 600_000);

  it('finds the labelled product in the first 5 results for at least 97% of queries', async () => {
    const report = await measureRelevance(index, catalogue!.set);
    printReport('meilisearch', report);
    expect(report.recallAt5).toBeGreaterThanOrEqual(0.97);
  }, 300_000);

  it('finds a part by the last 4 to 6 characters of its part number or SKU in the first 5 for 95% (#36)', async () => {
    const set = buildInfixRelevanceSet(catalogue!.products, { targets: 500, numbers: 'own' });
    const results: string[][] = [];
    for (const q of set) results.push((await index.search(q.q, { limit: 5, offset: 0 })).hits.map((h) => h.id));
    const r5 = recall(set, results, 5);
    console.log(`[search relevance] meilisearch infix: ${set.length} queries, recall@5 ${r5.overall.toFixed(3)}`);
    expect(r5.overall).toBeGreaterThanOrEqual(0.95);
  }, 300_000);
});
