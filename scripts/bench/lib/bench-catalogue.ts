import type { Subcategory } from '@forgeline/contracts/products';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../lib/stack.ts';

/**
 * The benchmarks' shared catalogue: data/bench-<N> seeded once by `cli/seed.ts` (timed; the time is kept in
 * seed-timing.json and printed on later runs) and reused. A folder seeded by an older generator (GENERATOR_VERSION,
 * raised whenever the generator's products change: 5 has parts that agree with their names and unshared numbers)
 * or left half-made is seeded again.
 */
const GENERATOR_VERSION = 5;

export interface SeedTiming {
  products: number;
  seconds: number;
  writeSeconds?: number;
  indexSeconds?: number;
  at: string;
  generator?: number;
  /** The write pace through the seed: parts written so far and parts/s since the line before. */
  progress?: { written: number; recentPerSecond: number }[];
}

export function benchCatalogue(products: number) {
  const label = products % 1000 === 0 ? `${products / 1000}k` : String(products);
  const dataDir = path.join(repoRoot, 'data', `bench-${label}`);
  const timingFile = path.join(dataDir, 'seed-timing.json');

  async function ensureSeeded(): Promise<SeedTiming & { cached: boolean }> {
    if (fs.existsSync(timingFile)) {
      const t = JSON.parse(fs.readFileSync(timingFile, 'utf8')) as SeedTiming;
      if (t.products === products && t.generator === GENERATOR_VERSION) return { ...t, cached: true };
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true });
    console.log(`Seeding ${products.toLocaleString('en-US')} products into ${path.relative(repoRoot, dataDir)} (once; later runs reuse it)...`);
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/catalog/src/cli/seed.ts', '--products', String(products)], {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let summary: { writeSeconds?: number; indexSeconds?: number } = {};
    const progress: { written: number; recentPerSecond: number }[] = [];
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        try {
          const rec = JSON.parse(line) as { msg?: string; writeSeconds?: number; indexSeconds?: number; written?: number; recentPerSecond?: number };
          if (rec.written !== undefined && rec.recentPerSecond !== undefined) progress.push({ written: rec.written, recentPerSecond: rec.recentPerSecond });
          if (rec.msg?.startsWith('products written') || rec.msg?.startsWith('search index')) {
            console.log(`  ${rec.msg}${rec.recentPerSecond !== undefined ? ` (${rec.recentPerSecond.toLocaleString('en-US')} parts/s since the line before)` : ''}`);
          }
          if (rec.writeSeconds !== undefined) summary = rec;
        } catch {
          console.log(`  ${line}`);
        }
      }
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`cli/seed.ts exited with ${code}`);
    const timing: SeedTiming = {
      products,
      seconds: (performance.now() - started) / 1000,
      writeSeconds: summary.writeSeconds,
      indexSeconds: summary.indexSeconds,
      at: new Date().toISOString(),
      generator: GENERATOR_VERSION,
      progress,
    };
    fs.writeFileSync(timingFile, JSON.stringify(timing, null, 2));
    return { ...timing, cached: false };
  }

  return { label, dataDir, timingFile, ensureSeeded };
}

/** Each category's and each brand's part count, from `/api/subcategories` (what the listing benches pick pages from). */
export function listTotals(subs: Subcategory[]): { categories: [slug: string, total: number][]; brands: [slug: string, total: number][] } {
  const categories = new Map<string, number>();
  const brands = new Map<string, number>();
  for (const s of subs) {
    categories.set(s.categorySlug, (categories.get(s.categorySlug) ?? 0) + s.productCount);
    brands.set(s.brandSlug, (brands.get(s.brandSlug) ?? 0) + s.productCount);
  }
  return { categories: [...categories.entries()], brands: [...brands.entries()] };
}
