/**
 * A buyer's "my quotes" and "my orders" (issue 35) for a company whose 5 members sent 5,000 quote requests (one in ten
 * priced, one in twenty ordered), among 50,000 requests of other buyers (BENCH_BUYER_REQUESTS, _NOISE to change): the
 * first page, the newest pages, pages deep in the list, a status filter and the orders, each request a distinct page,
 * 10 s at 4 connections per row (BENCH_BUYER_SECONDS, _CONNECTIONS), twice: straight to the quotes service with a buyer
 * assertion signed as the gateway signs it (the service's own cost), and through the gateway with a real buyer session
 * (the gateway asks auth and signs the assertion on every call). Goal: p95 < 50 ms.
 *
 * The requests are written straight into the bench's data folder through the SQLite adapter once, and reused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buyerAssertionHeaders } from '../../packages/service-kit/src/buyer-assertion.ts';
import { SqliteQuoteStore } from '../../services/quotes/src/adapters/sqlite/sqlite-quote-store.ts';
import type { OrderRecord } from '../../services/quotes/src/ports.ts';
import { repoRoot, startStack } from '../lib/stack.ts';
import { runLoad } from './lib/load.ts';
import { fmt } from './lib/stats.ts';

const COMPANY = Number(process.env.BENCH_BUYER_REQUESTS ?? 5_000);
const NOISE = Number(process.env.BENCH_BUYER_NOISE ?? 50_000);
const seconds = Number(process.env.BENCH_BUYER_SECONDS ?? 10);
const connections = Number(process.env.BENCH_BUYER_CONNECTIONS ?? 4);
const dataDir = path.join(repoRoot, 'data', 'bench-buyer-history');
const DOMAIN = 'quarry-bench.example';
const MEMBERS = ['planner', 'buyer', 'tech', 'stores', 'manager'].map((n) => `${n}@${DOMAIN}`);
const DAY = 86_400_000;
const now = Date.now();
const PARTS = ['Fuel Filter', 'Bucket Tooth', 'Track Roller', 'Hydraulic Pump', 'Alternator', 'Turbocharger'];

async function seed() {
  fs.mkdirSync(dataDir, { recursive: true });
  const store = SqliteQuoteStore.inDataDir(dataDir);
  const total = COMPANY + NOISE;
  try {
    const have = await store.countQuoteRequests();
    if (have === total) return console.log(`Reusing ${fmt(total, 0)} stored requests in ${dataDir}`);
    if (have) throw new Error(`${dataDir} holds ${have} requests, not ${total}: remove the folder to reseed`);
    const t0 = Date.now();
    let ordered = 0;
    for (let start = 0; start < total; start += 2_000) {
      const saves: Promise<unknown>[] = [];
      for (let n = start; n < Math.min(total, start + 2_000); n++) {
        // The company's requests spread through the year among the others (every 11th, while they last).
        const ours = n % 11 === 0 && n / 11 < COMPANY;
        const email = ours ? MEMBERS[(n / 11) % MEMBERS.length]!.replace('planner', n % 2 ? 'Planner' : 'planner') : `buyer-${n % 9_973}@other-${n % 97}.example`;
        const part = PARTS[n % PARTS.length]!;
        saves.push(
          store.saveQuoteRequest(
            {
              id: `bench-${String(n).padStart(7, '0')}`,
              productId: `p-${n % 5_000}`,
              productName: `${part} ${n % 1_000}`,
              productSku: `SKU-${n % 5_000}`,
              customerName: ours ? 'Quarry Buyer' : `Buyer ${n % 9_973}`,
              customerEmail: email,
              customerPhone: '+1 312 555 0100',
              customerCountry: 'Chile',
              quantity: 1 + (n % 40),
              message: `Request ${n}`,
              status: 'pending',
              createdAt: new Date(now - (total - n) * ((365 * DAY) / total)).toISOString(),
            },
            [],
          ),
        );
      }
      await Promise.all(saves);
      // One in ten of the company's requests priced, one in twenty ordered: their history and orders are read per row.
      for (let n = start; n < Math.min(total, start + 2_000); n++) {
        if (!(n % 11 === 0 && n / 11 < COMPANY) || (n / 11) % 10 !== 0) continue;
        const id = `bench-${String(n).padStart(7, '0')}`;
        const at = new Date(now - (total - n) * ((365 * DAY) / total) + DAY).toISOString();
        const line = { productSku: `SKU-${n % 5_000}`, productName: `Part ${n}`, quantity: 2, unitPrice: 120, currency: 'USD', leadTime: '3 days' };
        await store.updateInbox(id, 0, { status: 'quoted', updatedAt: at, events: [{ at, actor: 'bench', type: 'reply', from: null, to: null, text: 'Prices', reply: { lines: [line], validUntil: null } }], mails: [] });
        if ((n / 11) % 20 !== 0) continue;
        const order: OrderRecord = {
          id: `order-${id}`,
          number: await store.nextOrderNumber(at.slice(0, 4)),
          quoteId: id,
          quoteVersion: 1,
          status: 'confirmed',
          poNumber: `PO-${n}`,
          poDocument: null,
          delivery: { company: 'Quarry Co', address: '1 Pit Road', contactName: 'Ada', contactPhone: '' },
          note: '',
          lines: [{ ...line, productId: `p-${n % 5_000}` }],
          customerName: 'Quarry Buyer',
          customerEmail: MEMBERS[0]!,
          shipment: null,
          cancelReason: null,
          createdAt: at,
          updatedAt: at,
          version: 0,
        };
        await store.updateInbox(id, 1, { status: 'won', order, updatedAt: at, events: [], mails: [] });
        ordered++;
      }
    }
    console.log(`Stored ${fmt(total, 0)} requests (${fmt(COMPANY, 0)} the company's, ${ordered} ordered) in ${fmt((Date.now() - t0) / 1000)} s`);
  } finally {
    await store.close();
  }
}

/** The code auth mailed for one code request, from the stack's dev mailbox. */
async function mailedCode(sessionId: string): Promise<string> {
  const mailDir = path.join(dataDir, 'mail');
  for (let i = 0; i < 200; i++) {
    for (const f of fs.existsSync(mailDir) ? fs.readdirSync(mailDir) : []) {
      const text = fs.readFileSync(path.join(mailDir, f), 'utf8');
      const code = text.includes(`otp-${sessionId}@`) ? /sign-in code is (\d{6})/.exec(text)?.[1] : undefined;
      if (code) return code;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no sign-in code arrived in the dev mailbox');
}

/** A buyer signed in as a person does; answers the cookie, and a call in their session. */
async function signIn(url: string, email: string) {
  const post = (p: string, body: unknown, cookie = '') =>
    fetch(`${url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: url, ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
  const { sessionId } = (await (await post('/api/account/sign-in/code', { email })).json()) as { sessionId: string };
  const verified = await post('/api/account/sign-in/verify', { sessionId, otp: await mailedCode(sessionId) });
  const cookie = /(fl_buyer=[^;]+)/.exec(verified.headers.get('set-cookie') ?? '')?.[1];
  if (!cookie) throw new Error(`buyer sign-in failed: ${verified.status}`);
  return { cookie, post: (p: string, body: unknown) => post(p, body, cookie) };
}

await seed();
const stack = await startStack({ dataDir, port: 0, seedProducts: 200, quiet: true, env: { LOG_LEVEL: 'warn', RATE_LIMIT_MULTIPLIER: '1000' } });
try {
  // The company as its people make it: the first member signs up, invites the others, who sign in.
  const first = await signIn(stack.url, MEMBERS[0]!);
  for (const email of MEMBERS.slice(1)) await first.post('/api/account/company/invites', { email, role: 'buyer' });
  for (const email of MEMBERS.slice(1)) await signIn(stack.url, email);
  const headers = { cookie: first.cookie };
  const check = await fetch(`${stack.url}/api/account/quotes?limit=1`, { headers });
  const total = ((await check.json()) as { pagination?: { total: number } }).pagination?.total;
  if (check.status !== 200 || total !== COMPANY) throw new Error(`my quotes answered ${check.status} with ${total} requests, not ${COMPANY}`);
  const rnd = (n: number) => 1 + Math.floor(Math.random() * n);
  const pages = COMPANY / 25;
  const rows: [string, () => string][] = [
    ['my quotes, page 1', () => `/api/account/quotes?page=1&limit=25&_=${rnd(1e9)}`],
    ['my quotes, newest pages (1-20)', () => `/api/account/quotes?page=${rnd(20)}&limit=25`],
    [`my quotes, deep pages (${fmt(pages * 0.75 + 1, 0)}-${fmt(pages, 0)})`, () => `/api/account/quotes?page=${pages * 0.75 + rnd(pages / 4)}&limit=25`],
    [`my quotes, any page (1-${fmt(pages, 0)})`, () => `/api/account/quotes?page=${rnd(pages)}&limit=25`],
    ['my quotes, status "quoted" (1 in 10), any page', () => `/api/account/quotes?status=quoted&page=${rnd(pages / 10)}&limit=25`],
    ['my orders, any page', () => `/api/account/orders?page=${rnd(10)}&limit=25`],
  ];
  // The quotes service as the gateway calls it: the assertion the gateway would sign for the first member's session.
  const buyer = { email: MEMBERS[0]!, companyId: 'bench-company', role: 'admin' as const, memberEmails: MEMBERS };
  const routes: [string, string, () => Promise<Record<string, string>>][] = [
    ['quotes service', stack.serviceUrls.quotes!, () => buyerAssertionHeaders(stack.env.SERVICE_TOKEN!, buyer)],
    ['gateway', stack.url, async () => headers],
  ];
  if (seconds > 50) console.warn('Rows over 50 s outlive the buyer assertion (60 s): the direct rows will answer 401 at the end.');
  const table = ['| call (each request distinct, 25 a page) | via | requests | req/s | p50 ms | p95 ms | p99 ms | non-200 |', '| --- | --- | --- | --- | --- | --- | --- | --- |'];
  let worst = 0;
  for (const [name, nextPath] of rows) {
    for (const [via, url, sign] of routes) {
      // Signed afresh per row: an assertion lasts a minute.
      const r = await runLoad({ url, connections, seconds, nextPath, headers: await sign() });
      worst = Math.max(worst, r.p95);
      table.push(`| ${name} | ${via} | ${fmt(r.requests, 0)} | ${fmt(r.rps, 0)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${r.bad} |`);
      console.log(`  ${name} via ${via}: p95 ${fmt(r.p95)} ms`);
    }
  }
  console.log(`\nA buyer's quotes and orders, a company of ${MEMBERS.length} with ${fmt(COMPANY, 0)} requests among ${fmt(COMPANY + NOISE, 0)}, ${connections} connections, ${seconds} s per row\n`);
  console.log(table.join('\n'));
  console.log(`\nGoal: p95 < 50 ms. ${worst < 50 ? 'Met' : `Missed: worst p95 ${fmt(worst)} ms`}.`);
} finally {
  await stack.stop();
}
