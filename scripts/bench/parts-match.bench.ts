/**
 * Pasted parts lists at 500,000 products (BENCH_MATCH_PRODUCTS to change; the catalogue in data/bench-500k is seeded
 * once and shared with the search benchmark):
 * - accuracy on a generated 1,000-line list: 900 real parts written seven ways (as printed, lower case without
 *   separators, brand in front, quantities before or after, columns, numbering), one in ten with a typing mistake,
 *   and 100 lines of nonsense. Goals: ≥ 97 % of the real parts matched to the right product first, 0 % of nonsense
 *   matched;
 * - latency of 500-line lists (each a different draw), 20 sequential calls in the catalog process and through the
 *   gateway. Goals: p95 < 300 ms in the catalog, < 400 ms through the gateway.
 * The expected products come from the same deterministic generator the seed uses; only parts whose number no other
 * part shares are asked for (a shared number is the buyer's choice, not a mistake).
 */
import path from 'node:path';
import type { PartsMatchResponse } from '../../packages/contracts/src/parts-match.ts';
import { normalizeCode } from '@forgeline/search-engine/text/normalize';
import { listLineShapes, withTypo } from '../../services/catalog/src/seed/parts-list-samples.ts';
import { createRng, generateProducts } from '../../services/catalog/src/seed/generate.ts';
import { repoRoot, startStack } from '../lib/stack.ts';
import { fmt, percentile } from './lib/stats.ts';

const PRODUCTS = Number(process.env.BENCH_MATCH_PRODUCTS ?? 500_000);
const dataDir = path.join(repoRoot, 'data', PRODUCTS === 500_000 ? 'bench-500k' : `bench-match-${PRODUCTS}`);

interface Sample {
  id: string;
  partNumber: string;
  brandName: string;
  name: string;
  category: string;
}

// One pass over the generator: how often each number occurs, and every 97th product as a candidate.
const seen = new Map<string, number>();
const candidates: Sample[] = [];
let n = 0;
for (const p of generateProducts({ count: PRODUCTS })) {
  const code = normalizeCode(p.partNumber ?? '');
  seen.set(code, (seen.get(code) ?? 0) + 1);
  if (n++ % 97 === 0 && p.partNumber) candidates.push({ id: p.id, partNumber: p.partNumber, brandName: p.brandName ?? '', name: p.name, category: p.category });
}
const unique = candidates.filter((c) => seen.get(normalizeCode(c.partNumber)) === 1 && normalizeCode(c.partNumber).length >= 5);


const JUNK = ['asdf qwerty', 'hello there', '???', 'please call me back', 'thanks!!', 'lorem ipsum dolor sit', 'N/A', 'tbd', 'see attached', 'urgent!!!'];

/** A list of `real` parts and `junk` nonsense lines, and what each line should come back as. */
function makeList(real: number, junk: number, seed: number) {
  const rnd = createRng(seed);
  const rows: string[] = [];
  const expect: { line: number; id: string | null; typo: boolean }[] = [];
  for (let i = 0; i < real + junk; i++) {
    if (i % Math.round((real + junk) / junk) === 0 && expect.filter((e) => e.id === null).length < junk) {
      rows.push(`${JUNK[Math.floor(rnd() * JUNK.length)]} ${Math.floor(rnd() * 1000)}`.replace(/ \d+$/, rnd() < 0.5 ? '' : ' zz'));
      expect.push({ line: rows.length, id: null, typo: false });
      continue;
    }
    const p = unique[Math.floor(rnd() * unique.length)]!;
    const q = 1 + Math.floor(rnd() * 20);
    const t = rnd() < 0.1 ? withTypo(p.partNumber, rnd, (c) => seen.has(normalizeCode(c))) : null;
    const code = t ?? p.partNumber;
    const shapes = listLineShapes(p, code, q, i + 1);
    rows.push(t ? `${code} x ${q}` : shapes[Math.floor(rnd() * shapes.length)]!);
    expect.push({ line: rows.length, id: p.id, typo: Boolean(t) });
  }
  return { text: rows.join('\n'), expect };
}

const stack = await startStack({ dataDir, port: 0, seedProducts: PRODUCTS, quiet: true, env: { LOG_LEVEL: 'warn', RATE_LIMIT_MULTIPLIER: '1000' } });
try {
  const catalogUrl = stack.serviceUrls.catalog!;
  const match = async (base: string, text: string) => {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/parts/match`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text }) });
    const body = (await res.json()) as PartsMatchResponse;
    if (res.status !== 200) throw new Error(`match answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
    return { ms: performance.now() - t0, body };
  };

  // Accuracy: 1,000 lines, sent as two lists of 500 (the limit of one call).
  let real = 0;
  let right = 0;
  let rightFirst = 0;
  let typos = 0;
  let typosRight = 0;
  let junk = 0;
  let junkMatched = 0;
  const misses: string[] = [];
  for (const seed of [1, 2]) {
    const list = makeList(450, 50, seed);
    const { body } = await match(catalogUrl, list.text);
    const byLine = new Map(body.lines.map((l) => [l.line, l]));
    for (const e of list.expect) {
      const got = byLine.get(e.line);
      if (e.id === null) {
        junk++;
        if (got?.status === 'matched') junkMatched++;
        continue;
      }
      real++;
      if (e.typo) typos++;
      const ok = got?.status === 'matched' && got.match?.product.id === e.id;
      if (ok) right++;
      // The right product first: taken, or the first of the choices offered.
      if (ok || (got?.status === 'ambiguous' && got.alternatives[0]?.id === e.id)) rightFirst++;
      if (ok && e.typo) typosRight++;
      if (!ok && misses.length < 8) misses.push(`"${got?.input}" → ${got?.status}${got?.match ? ` ${got.match.product.partNumber}` : ''}`);
    }
  }

  // Latency: 20 different 500-line lists, one at a time, each side.
  const lists = Array.from({ length: 20 }, (_, i) => makeList(450, 50, 100 + i).text);
  const rows: string[] = [];
  for (const [name, base] of [
    ['catalog process', catalogUrl],
    ['through the gateway', stack.url],
  ] as const) {
    const ms: number[] = [];
    for (const text of lists) ms.push((await match(base, text)).ms);
    ms.sort((a, b) => a - b);
    rows.push(`| ${name} | ${ms.length} | ${fmt(percentile(ms, 50))} | ${fmt(percentile(ms, 95))} | ${fmt(ms.at(-1)!)} |`);
  }

  console.log(`\nParts-list match at ${fmt(PRODUCTS, 0)} products\n`);
  console.log('| 500-line list | calls | p50 ms | p95 ms | max ms |\n| --- | --- | --- | --- | --- |');
  console.log(rows.join('\n'));
  console.log(`\nAccuracy over ${fmt(real + junk, 0)} lines:`);
  console.log(`- real parts with the right product first: ${rightFirst} of ${real} (${fmt((100 * rightFirst) / real)} %)`);
  console.log(`- real parts taken without asking (matched): ${right} of ${real} (${fmt((100 * right) / real)} %); with a typing mistake: ${typosRight} of ${typos}`);
  console.log(`- nonsense lines matched: ${junkMatched} of ${junk} (${fmt((100 * junkMatched) / junk)} %)`);
  if (misses.length) console.log(`- misses, first ${misses.length}: ${misses.join('; ')}`);
  console.log('\nGoals: p95 < 300 ms in the catalog, < 400 ms through the gateway; ≥ 97 % right; 0 % nonsense matched.');
} finally {
  await stack.stop();
}
