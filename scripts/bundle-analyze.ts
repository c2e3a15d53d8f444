/**
 * npm run analyze: builds the web app (web/vite.config.ts, into a temp folder: web/dist is left alone) with
 * rollup-plugin-visualizer, writes its treemap (every chunk and the modules in it, sizes raw and gzipped) as HTML,
 * and prints the modules of the entry (what every first visit loads, as scripts/bundle-budget.ts counts it) by
 * gzipped size, biggest first. ANALYZE_OUT=folder keeps the build and the report there (default: a temp folder);
 * ANALYZE_TOP=n prints n modules (default 25).
 * The gzip figures are per module, each compressed alone: they rank modules, they do not add up to the chunk's size.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { visualizer } from 'rollup-plugin-visualizer';
import { build } from 'vite';
import { kB, readGroups } from './bundle-budget.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDir = path.join(repoRoot, 'web');

/** rollup-plugin-visualizer's raw-data output, the parts read here. */
interface RawData {
  nodeParts: Record<string, { renderedLength: number; gzipLength: number }>;
  nodeMetas: Record<string, { id: string; moduleParts: Record<string, string> }>;
}

async function main() {
  const out = process.env.ANALYZE_OUT ? path.resolve(process.env.ANALYZE_OUT) : fs.mkdtempSync(path.join(os.tmpdir(), 'forgeline-analyze-'));
  const distDir = path.join(out, 'dist');
  const html = path.join(out, 'bundle-treemap.html');
  const raw = path.join(out, 'bundle-modules.json');
  // A production build whoever asks (as scripts/lib/stack.ts builds it).
  process.env.NODE_ENV = 'production';
  await build({
    root: webDir,
    configFile: path.join(webDir, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: distDir, emptyOutDir: true },
    plugins: [
      visualizer({ filename: html, template: 'treemap', gzipSize: true, title: 'Forgeline web bundle' }),
      visualizer({ filename: raw, template: 'raw-data', gzipSize: true }),
    ],
  });
  const data = JSON.parse(fs.readFileSync(raw, 'utf8')) as RawData;
  const entry = new Set(readGroups(distDir).find((g) => g.kind === 'entry')!.js);
  const modules: { id: string; rendered: number; gzip: number }[] = [];
  for (const meta of Object.values(data.nodeMetas)) {
    let rendered = 0;
    let gzip = 0;
    for (const [file, part] of Object.entries(meta.moduleParts)) {
      if (!entry.has(file)) continue;
      rendered += data.nodeParts[part]!.renderedLength;
      gzip += data.nodeParts[part]!.gzipLength;
    }
    if (rendered) modules.push({ id: meta.id.replace(/^.*\/node_modules\//, 'node_modules/').replace(`${repoRoot}/`, '').replace(/^\//, ''), rendered, gzip });
  }
  modules.sort((a, b) => b.gzip - a.gzip);
  const top = modules.slice(0, Number(process.env.ANALYZE_TOP ?? 25));
  const w = Math.max(...top.map((m) => m.id.length));
  console.log(`The entry's ${modules.length} modules, biggest first (gzipped alone; minified):\n`);
  for (const m of top) console.log(`${m.id.padEnd(w)}  ${kB(m.gzip).padStart(8)}  ${kB(m.rendered).padStart(9)}`);
  console.log(`\nTreemap: ${html}\nBuild: ${distDir}`);
}

main().catch((err: unknown) => {
  console.error(`analyze: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
});
