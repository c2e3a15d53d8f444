/**
 * Media workers: a generated bulk ZIP of 1,000 SKUs x 3 photos (1024x768 JPEGs) is uploaded to a
 * media API, and the time until every photo is processed (6 variants each, catalog told) is measured
 * with 1 worker process and with 2, each worker limited to one libvips thread
 * (MEDIA_IMAGE_THREADS=1). Prints images/s, images/s per worker, the scaling ratio and each
 * worker's peak RSS (VmHWM) with its RSS early and late in the run (flat = not growing with the ZIP).
 *
 * BENCH_MEDIA_SKUS, BENCH_MEDIA_IMAGES_PER_SKU and BENCH_MEDIA_WORKERS ("1,2") change the run.
 * The catalogue (data/bench-media-<n>) is seeded once and reused; the ZIP is cached beside it.
 * Each run gets a fresh media DATA_DIR (empty object store and queue) and its own processes; the
 * stack's own media process stays idle.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import yazl from 'yazl';
import type { ProductListResponse } from '@forgeline/contracts/products';
import type { BulkZipResult, MediaJobStatus } from '@forgeline/contracts/media';
import { freePort } from '@forgeline/test-support/net';
import { gatewayAssertionHeaders } from '../../packages/service-kit/src/gateway-assertion.ts';
import { repoRoot, startStack } from '../lib/stack.ts';
import { processCpu } from './lib/proc-cpu.ts';

const skuCount = Number(process.env.BENCH_MEDIA_SKUS ?? 1000);
const perSku = Number(process.env.BENCH_MEDIA_IMAGES_PER_SKU ?? 3);
const workerCounts = (process.env.BENCH_MEDIA_WORKERS ?? '1,2').split(',').map(Number);
const dataDir = path.join(repoRoot, 'data', `bench-media-${Math.max(skuCount, 1000)}`);
const zipFile = path.join(dataDir, `bulk-${skuCount}x${perSku}.zip`);

const stack = await startStack({ dataDir, port: 0, quiet: true, seedProducts: Math.max(skuCount, 1000), env: { LOG_LEVEL: 'warn' } });
const catalogUrl = stack.serviceUrls.catalog!;

type Seeded = Pick<ProductListResponse['products'][number], 'id' | 'sku' | 'images' | 'imageUrl'>;

async function listProducts(n: number): Promise<Seeded[]> {
  const out: Seeded[] = [];
  for (let offset = 0; out.length < n; offset += 100) {
    const res = await fetch(`${catalogUrl}/api/catalog/products?limit=100&offset=${offset}`);
    const body = (await res.json()) as ProductListResponse;
    if (body.products.length === 0) break;
    out.push(...body.products.map(({ id, sku, images, imageUrl }) => ({ id, sku, images, imageUrl })));
  }
  if (out.length < n) throw new Error(`the catalogue has ${out.length} products; ${n} are needed`);
  return out.slice(0, n);
}

/** Put the seeded pictures back, so every run tells the catalog the same news (a fair comparison). */
async function restoreImages(products: Seeded[]) {
  for (let i = 0; i < products.length; i += 20) {
    await Promise.all(
      products.slice(i, i + 20).map(async (p) => {
        const res = await fetch(`${catalogUrl}/internal/products/${p.id}/images`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', 'x-service-token': stack.env.SERVICE_TOKEN! },
          body: JSON.stringify({ images: p.images, imageUrl: p.imageUrl }),
        });
        if (!res.ok) throw new Error(`restoring ${p.sku} answered ${res.status}`);
      }),
    );
  }
}

/** 24 base photos; each ZIP entry gets a unique JPEG comment so every file has its own content hash. */
async function buildZip(skus: string[]): Promise<void> {
  const bases: Buffer[] = [];
  for (let i = 0; i < 24; i++) {
    const shapes = await Promise.all(
      [0, 1, 2].map(async (k) => ({
        input: await sharp({ create: { width: 200 + k * 60, height: 160, channels: 3, background: { r: (i * 40 + k * 80) % 256, g: 90 + k * 40, b: 200 } } })
          .png()
          .toBuffer(),
        left: 60 + k * 220,
        top: 80 + k * 170,
      })),
    );
    bases.push(
      await sharp({ create: { width: 1024, height: 768, channels: 3, background: { r: (i * 37) % 256, g: (i * 71) % 256, b: 120 } } })
        .composite(shapes)
        .jpeg({ quality: 88 })
        .toBuffer(),
    );
  }
  const zip = new yazl.ZipFile();
  let n = 0;
  for (const sku of skus) {
    for (let k = 1; k <= perSku; k++) {
      const base = bases[n++ % bases.length]!;
      const text = Buffer.from(`forgeline bench ${sku} ${k}`);
      const com = Buffer.from([0xff, 0xfe, (text.length + 2) >> 8, (text.length + 2) & 0xff]);
      zip.addBuffer(Buffer.concat([base.subarray(0, 2), com, text, base.subarray(2)]), `${sku}/${k}.jpg`, { compress: false });
    }
  }
  zip.end();
  await new Promise<void>((resolve, reject) => zip.outputStream.pipe(createWriteStream(`${zipFile}.partial`)).on('finish', resolve).on('error', reject));
  fs.renameSync(`${zipFile}.partial`, zipFile);
}

function spawnMedia(role: 'api' | 'worker', port: number, mediaDir: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'services/media/src/main.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...stack.env,
      DATA_DIR: mediaDir,
      PORT: String(port),
      MEDIA_ROLE: role,
      MEDIA_IMAGE_THREADS: '1',
      MEDIA_WORKER_CONCURRENCY: '1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

async function waitReady(port: number) {
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`media on port ${port} was not ready`);
}

const procStatus = (pid: number, field: 'VmRSS' | 'VmHWM') => {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
};

/** CPU seconds a process has used (its libvips threads included); NaN once it has ended. */
const cpuSeconds = (pid: number) => processCpu(pid)?.seconds ?? NaN;

interface RunResult {
  workers: number;
  images: number;
  ingestS: number;
  processS: number;
  failed: number;
  peakRss: number[];
  earlyRss: number[];
  lateRss: number[];
  /** CPU seconds each worker spent on this run. */
  cpu: number[];
}

async function run(workers: number): Promise<RunResult> {
  const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-media-'));
  const apiPort = await freePort();
  const children: ChildProcess[] = [spawnMedia('api', apiPort, mediaDir)];
  const workerProcs: ChildProcess[] = [];
  try {
    for (let i = 0; i < workers; i++) {
      const port = await freePort();
      const w = spawnMedia('worker', port, mediaDir);
      children.push(w);
      workerProcs.push(w);
      await waitReady(port);
    }
    await waitReady(apiPort);
    const form = new FormData();
    form.append('zip', await fs.openAsBlob(zipFile, { type: 'application/zip' }), 'bulk.zip');
    const cpuBefore = workerProcs.map((w) => cpuSeconds(w.pid!));
    const t0 = performance.now();
    const res = await fetch(`http://127.0.0.1:${apiPort}/api/admin/upload-bulk-zip`, { method: 'POST', body: form, headers: await gatewayAssertionHeaders(stack.env.SERVICE_TOKEN!, 'bench@example.com') });
    const result = (await res.json()) as BulkZipResult;
    if (!res.ok) throw new Error(`upload answered ${res.status}: ${JSON.stringify(result)}`);
    const t1 = performance.now();
    let early: number[] = [];
    let late: number[] = [];
    let status: MediaJobStatus;
    for (;;) {
      status = (await (await fetch(`http://127.0.0.1:${apiPort}/api/admin/media-jobs/${result.jobId}`, { headers: await gatewayAssertionHeaders(stack.env.SERVICE_TOKEN!, 'bench@example.com') })).json()) as MediaJobStatus;
      const rss = workerProcs.map((w) => procStatus(w.pid!, 'VmRSS'));
      if (early.length === 0 && status.progress >= 10) early = rss;
      if (status.progress >= 90 && status.progress < 100) late = rss;
      if (['completed', 'completed_with_errors', 'failed'].includes(status.state)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const t2 = performance.now();
    const peakRss = workerProcs.map((w) => procStatus(w.pid!, 'VmHWM'));
    const cpu = workerProcs.map((w, i) => cpuSeconds(w.pid!) - cpuBefore[i]!);
    if (late.length === 0) late = workerProcs.map((w) => procStatus(w.pid!, 'VmRSS'));
    return {
      workers,
      images: status.images.processed,
      ingestS: (t1 - t0) / 1000,
      processS: (t2 - t1) / 1000,
      failed: status.images.failed,
      peakRss,
      earlyRss: early,
      lateRss: late,
      cpu,
    };
  } finally {
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null) return resolve();
            c.once('exit', () => resolve());
            c.kill('SIGTERM');
            setTimeout(() => c.kill('SIGKILL'), 10_000).unref();
          }),
      ),
    );
    fs.rmSync(mediaDir, { recursive: true, force: true });
  }
}

try {
  const products = await listProducts(skuCount);
  const skus = products.map((p) => p.sku);
  if (!fs.existsSync(zipFile)) {
    console.log(`Generating ${skuCount} SKUs x ${perSku} photos into ${path.relative(repoRoot, zipFile)} (cached for later runs)...`);
    await buildZip(skus);
  }
  const zipMb = fs.statSync(zipFile).size / 1024 / 1024;
  console.log(`ZIP: ${skuCount} SKU folders, ${skuCount * perSku} JPEGs 1024x768, ${zipMb.toFixed(1)} MB; ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)}\n`);
  const results: RunResult[] = [];
  for (const w of workerCounts) {
    await restoreImages(products);
    results.push(await run(w));
    console.log(`  ${w} worker(s): done in ${results.at(-1)!.processS.toFixed(1)} s`);
  }
  const mb = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' / ');
  console.log(
    '\n| workers | images | ZIP ingest (s) | processing (s) | images/s | images/s per worker | worker CPU ms per image | worker CPU busy | failed | worker RSS at 10% → 90% (MB) | worker peak RSS (MB) |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|');
  for (const r of results) {
    const rate = r.images / r.processS;
    const cpuTotal = r.cpu.reduce((a, b) => a + b, 0);
    // Busy: the share of the processing time each worker had a CPU; well under 100% means the machine was short of cores.
    const busy = r.cpu.map((c) => `${Math.round((c / r.processS) * 100)}%`).join(' / ');
    console.log(
      `| ${r.workers} | ${r.images} | ${r.ingestS.toFixed(1)} | ${r.processS.toFixed(1)} | ${rate.toFixed(2)} | ${(rate / r.workers).toFixed(2)} | ${((cpuTotal / r.images) * 1000).toFixed(0)} | ${busy} | ${r.failed} | ${mb(r.earlyRss)} → ${mb(r.lateRss)} | ${mb(r.peakRss)} |`,
    );
  }
  const one = results.find((r) => r.workers === 1);
  const two = results.find((r) => r.workers === 2);
  if (one && two) {
    console.log(`\nScaling: 2 workers finish ${(one.processS / two.processS).toFixed(2)}x as fast as 1 (goal: at least 1.7x; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs while measuring).`);
    console.log(
      `CPU per image: ${((one.cpu[0]! / one.images) * 1000).toFixed(0)} ms with 1 worker, ${((two.cpu.reduce((a, b) => a + b, 0) / two.images) * 1000).toFixed(0)} ms with 2: ` +
        'when the cost per image stays about the same, workers do not slow each other down, and the wall-clock ratio above is set by how much CPU the machine gave them (the busy column).',
    );
  }
  await restoreImages(products);
} finally {
  await stack.stop();
}
