/**
 * The staff inbox with 100,000 stored requests (BENCH_INBOX_REQUESTS to change), through the gateway with a signed-in
 * admin's token: the list's first pages, pages deep in it, each filter and the text search, each query distinct
 * (random page, term or range), 10 s at 4 connections per row (BENCH_INBOX_SECONDS / _CONNECTIONS). Goal: p95 < 50 ms.
 *
 * The requests are written straight into data/bench-inbox/quotes.sqlite through the SQLite adapter once, and reused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SqliteQuoteStore } from '../../services/quotes/src/adapters/sqlite/sqlite-quote-store.ts';
import { INBOX_STATUSES } from '../../packages/contracts/src/quote-inbox.ts';
import { DEFAULT_ADMIN_EMAIL, repoRoot, startStack } from '../lib/stack.ts';
import { runLoad } from './lib/load.ts';
import { fmt } from './lib/stats.ts';

const TOTAL = Number(process.env.BENCH_INBOX_REQUESTS ?? 100_000);
const seconds = Number(process.env.BENCH_INBOX_SECONDS ?? 10);
// Four requests in flight at all times is already more than a sales team clicking through the inbox.
const connections = Number(process.env.BENCH_INBOX_CONNECTIONS ?? 4);
// (-2: customers from a pool of 4,096 people; the first data set had 192, each on 8% of all requests.)
const dataDir = path.join(repoRoot, 'data', 'bench-inbox-2');
const DAY = 86_400_000;
const NAMES = ['Ada', 'Bola', 'Chen', 'Dmitri', 'Esi', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kemal', 'Lucia', 'Mateo', 'Nia', 'Omar', 'Priya'];
// 256 surnames (16 × 16 syllables) × 16 first names: 4,096 buyers, about 24 requests each, as a seller's regulars.
const HEADS = ['Ok', 'Mw', 'Sil', 'Nov', 'Tan', 'Had', 'Kow', 'Rey', 'Lar', 'Ndl', 'Ros', 'Kh', 'Bar', 'Fen', 'Gut', 'Hol'];
const TAILS = ['afor', 'angi', 'va', 'ak', 'aka', 'dad', 'alski', 'es', 'sen', 'ovu', 'si', 'an', 'ton', 'wick', 'ierrez', 'mes'];
const SURNAMES = HEADS.flatMap((h) => TAILS.map((t) => h + t));
const DOMAINS = ['mine-co.example', 'quarry-works.example', 'agri-parts.example', 'power-gen.example', 'fleet.example'];
const PARTS = ['Fuel Filter', 'Bucket Tooth', 'Track Roller', 'Hydraulic Pump', 'Alternator', 'Turbocharger', 'Water Pump', 'Idler'];
const now = Date.now();
const pick = <T,>(a: readonly T[], n: number) => a[n % a.length]!;
const sku = (n: number) => `${pick(['1R', 'AT', 'RE', 'XK', 'P5'], n)}-${String((n * 7919) % 100_000).padStart(5, '0')}`;

async function seed() {
  fs.mkdirSync(dataDir, { recursive: true });
  const store = SqliteQuoteStore.inDataDir(dataDir);
  try {
    const have = await store.countQuoteRequests();
    if (have === TOTAL) return console.log(`Reusing ${fmt(TOTAL, 0)} stored requests in ${dataDir}`);
    if (have) throw new Error(`${dataDir} holds ${have} requests, not ${TOTAL}: remove the folder to reseed`);
    const t0 = Date.now();
    for (let start = 0; start < TOTAL; start += 2_000) {
      const saves: Promise<unknown>[] = [];
      for (let n = start; n < Math.min(TOTAL, start + 2_000); n++) {
        const buyer = (n * 7919) % (NAMES.length * SURNAMES.length);
        const name = `${pick(NAMES, buyer)} ${pick(SURNAMES, Math.floor(buyer / NAMES.length))}`;
        saves.push(
          store.saveQuoteRequest(
            {
              id: `bench-${String(n).padStart(7, '0')}`,
              productId: `p-${n % 5_000}`,
              productName: `${pick(PARTS, n)} ${sku(n)}`,
              productSku: sku(n),
              customerName: name,
              customerEmail: `${name.toLowerCase().replace(' ', '.')}@${pick(DOMAINS, buyer)}`,
              customerPhone: '+1 312 555 0100',
              customerCountry: pick(['Chile', 'Peru', 'Australia', 'Canada', 'South Africa', 'India'], n * 5),
              quantity: 1 + (n % 40),
              message: `Need ${1 + (n % 40)} for a ${pick(['CAT 793', 'Komatsu PC2000', 'John Deere 8R', 'Volvo A40'], n)}, request ${n}.`,
              // a year of requests, newest last; most settled, the recent ones still open
              status: n > TOTAL - 2_000 ? 'pending' : pick(INBOX_STATUSES, n * 13),
              createdAt: new Date(now - (TOTAL - n) * ((365 * DAY) / TOTAL)).toISOString(),
            },
            [],
          ),
        );
      }
      await Promise.all(saves);
    }
    console.log(`Stored ${fmt(TOTAL, 0)} requests in ${fmt((Date.now() - t0) / 1000)} s`);
  } finally {
    await store.close();
  }
}

/** Signs in as the stack's admin the way a person does: the code from the dev mailbox. */
async function signIn(url: string): Promise<string> {
  const post = (p: string, body: unknown) => fetch(`${url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const { sessionId } = (await (await post('/api/admin/auth/send-otp', { email: DEFAULT_ADMIN_EMAIL })).json()) as { sessionId: string };
  const mailDir = path.join(dataDir, 'mail');
  for (let i = 0; i < 100; i++) {
    for (const f of fs.existsSync(mailDir) ? fs.readdirSync(mailDir) : []) {
      const text = fs.readFileSync(path.join(mailDir, f), 'utf8');
      const code = text.includes(`otp-${sessionId}@`) ? /sign-in code is (\d{6})/.exec(text)?.[1] : undefined;
      if (code) return ((await (await post('/api/admin/auth/verify-otp', { sessionId, otp: code })).json()) as { token: string }).token;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no sign-in code arrived in the dev mailbox');
}

await seed();
const stack = await startStack({ dataDir, port: 0, seedProducts: 200, quiet: true, env: { LOG_LEVEL: 'warn', RATE_LIMIT_MULTIPLIER: '1000' } });
try {
  const token = await signIn(stack.url);
  const headers = { authorization: `Bearer ${token}` };
  const check = await fetch(`${stack.url}/api/admin/quotes?limit=1`, { headers });
  const total = ((await check.json()) as { pagination: { total: number } }).pagination.total;
  if (check.status !== 200 || total !== TOTAL) throw new Error(`the inbox answered ${check.status} with ${total} requests`);
  const rnd = (n: number) => Math.floor(Math.random() * n);
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const rows: [string, () => string][] = [
    ['newest pages (1-40), 25 per page', () => `/api/admin/quotes?page=${1 + rnd(40)}&limit=25`],
    ['any page (1-4,000)', () => `/api/admin/quotes?page=${1 + rnd(TOTAL / 25)}&limit=25`],
    ['status filter, pages 1-20', () => `/api/admin/quotes?status=${pick(INBOX_STATUSES, rnd(7))}&page=${1 + rnd(20)}`],
    ['kind + assignee (nobody yet)', () => `/api/admin/quotes?kind=quote&assignee=none&page=${1 + rnd(20)}`],
    ['text search: a part number', () => `/api/admin/quotes?q=${encodeURIComponent(sku(rnd(TOTAL)))}`],
    ['text search: a surname and a word', () => `/api/admin/quotes?q=${encodeURIComponent(`${pick(SURNAMES, rnd(SURNAMES.length))} ${pick(['CAT', 'Komatsu', 'Volvo', 'Deere'], rnd(9))}`)}`],
    ['text search: one common word (a machine make, 25% of requests)', () => `/api/admin/quotes?q=${pick(['cat', 'komatsu', 'volvo', 'deere'], rnd(9))}&page=${1 + rnd(10)}`],
    ['a week\'s date range + status', () => {
      const from = now - rnd(350) * DAY;
      return `/api/admin/quotes?from=${day(from)}&to=${day(from + 7 * DAY)}&status=${pick(INBOX_STATUSES, rnd(7))}`;
    }],
  ];
  const table = ['| query (each request distinct) | requests | req/s | p50 ms | p95 ms | p99 ms | non-200 |', '| --- | --- | --- | --- | --- | --- | --- |'];
  let worst = 0;
  for (const [name, nextPath] of rows) {
    const r = await runLoad({ url: stack.url, connections, seconds, nextPath, headers });
    worst = Math.max(worst, r.p95);
    table.push(`| ${name} | ${fmt(r.requests, 0)} | ${fmt(r.rps, 0)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${r.bad} |`);
    console.log(`  ${name}: p95 ${fmt(r.p95)} ms`);
  }
  console.log(`\nStaff inbox through the gateway, ${fmt(TOTAL, 0)} stored requests, ${connections} connections, ${seconds} s per row\n`);
  console.log(table.join('\n'));
  console.log(`\nGoal: p95 < 50 ms. ${worst < 50 ? 'Met' : `Missed: worst p95 ${fmt(worst)} ms`}.`);
} finally {
  await stack.stop();
}
