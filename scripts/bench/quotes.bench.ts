/**
 * Quote submissions through the gateway: 30 s at 20 concurrent connections (BENCH_QUOTES_SECONDS / _CONNECTIONS to change),
 * with the rate limits raised for the run. Prints requests per second and latency, then checks that every
 * accepted request is stored exactly once and that both of its mails reached the dev mailbox.
 *
 * The catalogue is seeded once into data/bench-quotes and reused; the quotes data and mailbox start empty each run.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { repoRoot, startStack } from '../lib/stack.ts';
import { fmt, percentile } from './lib/stats.ts';

const seconds = Number(process.env.BENCH_QUOTES_SECONDS ?? 30);
const connections = Number(process.env.BENCH_QUOTES_CONNECTIONS ?? 20);
const dataDir = path.join(repoRoot, 'data', 'bench-quotes');
const MESSAGE_DOMAIN = 'forgeline.parts'; // the domain of the default MAIL_FROM

fs.mkdirSync(dataDir, { recursive: true });
for (const f of fs.readdirSync(dataDir)) if (f.startsWith('quotes.sqlite')) fs.rmSync(path.join(dataDir, f));
fs.rmSync(path.join(dataDir, 'mail'), { recursive: true, force: true });

const stack = await startStack({
  dataDir,
  port: 0,
  seedProducts: 2_000,
  quiet: true,
  // Per-request info logs would measure the log pipe, not the service: warnings only for the run.
  env: { RATE_LIMIT_MULTIPLIER: '1000000', LOG_LEVEL: 'warn' },
});

let failed = false;
try {
  const list = (await (await fetch(`${stack.url}/api/catalog/products?limit=48`)).json()) as { products: { id: string }[] };
  const productIds = list.products.map((p) => p.id);
  if (productIds.length === 0) throw new Error('the catalogue is empty');

  const run = randomUUID().slice(0, 8);
  let seq = 0;
  const accepted = new Map<string, number>(); // quote id -> times answered (must be 1)
  const statuses = new Map<number, number>();
  const latencies: number[] = [];

  // 20 workers, each sending its next request as soon as the last is answered (keep-alive connections via undici).
  // Latency is measured around each fetch; throughput from the wall clock.
  let errors = 0;
  const body = (n: number) =>
    JSON.stringify({
      productId: productIds[n % productIds.length],
      customerName: `Bench Buyer ${n}`,
      customerEmail: `bench-${run}-${n}@example.com`,
      customerPhone: '+1 312 555 0100',
      customerCountry: 'United States',
      quantity: 1 + (n % 50),
      message: `Benchmark request ${n} of run ${run}. Please quote <urgent> & include shipping.`,
    });
  const loadStarted = Date.now();
  const deadline = loadStarted + seconds * 1000;
  const worker = async () => {
    while (Date.now() < deadline) {
      const n = ++seq;
      const t0 = performance.now();
      try {
        const res = await fetch(`${stack.url}/api/quote-requests`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: body(n),
        });
        const text = await res.text();
        latencies.push(performance.now() - t0);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 201) {
          const id = (JSON.parse(text) as { id: string }).id;
          accepted.set(id, (accepted.get(id) ?? 0) + 1);
        }
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const wallSeconds = (Date.now() - loadStarted) / 1000;
  const loadEnded = Date.now();

  // Wait for the outbox to drain (mail is sent after the response), then verify.
  const db = new Database(path.join(dataDir, 'quotes.sqlite'), { readonly: true, fileMustExist: true });
  const pending = () => (db.prepare(`SELECT count(*) AS n FROM outbox WHERE status = 'pending'`).get() as { n: number }).n;
  const drainDeadline = Date.now() + 10 * 60_000;
  while (pending() > 0 && Date.now() < drainDeadline) await new Promise((r) => setTimeout(r, 250));
  const drainMs = Date.now() - loadEnded;

  const rows = db.prepare('SELECT id, customer_email AS email FROM quote_requests').all() as { id: string; email: string }[];
  const inFlight = rows.filter((r) => !accepted.has(r.id)).length; // stored but unanswered: only after network errors
  const storedIds = new Map<string, number>();
  const storedEmails = new Set<string>();
  for (const r of rows) {
    storedIds.set(r.id, (storedIds.get(r.id) ?? 0) + 1);
    storedEmails.add(r.email);
  }
  const sentRows = db.prepare(`SELECT ref_id AS ref, count(*) AS n FROM outbox WHERE status = 'sent' GROUP BY ref_id`).all() as { ref: string; n: number }[];
  const sentByRef = new Map(sentRows.map((r) => [r.ref, r.n]));
  db.close();

  const files = fs.readdirSync(path.join(dataDir, 'mail')).filter((f) => f.endsWith('.eml'));
  const fileIds = new Set(files.map((f) => /-([0-9a-f]{16})\.eml$/.exec(f)?.[1]));
  const shortId = (messageId: string) => createHash('sha256').update(messageId).digest('hex').slice(0, 16);

  const problems: string[] = [];
  const answeredTwice = [...accepted.values()].filter((n) => n !== 1).length;
  if (answeredTwice) problems.push(`${answeredTwice} ids answered more than once`);
  const notStored = [...accepted.keys()].filter((id) => storedIds.get(id) !== 1);
  if (notStored.length) problems.push(`${notStored.length} accepted requests not stored exactly once`);
  if (inFlight > connections) problems.push(`${inFlight} rows stored beyond the ${accepted.size} accepted requests (more than ${connections} in flight)`);
  if (storedEmails.size !== rows.length) problems.push(`${rows.length - storedEmails.size} requests stored twice (same buyer address)`);
  const missingMail = rows.map((r) => r.id).filter(
    (id) =>
      sentByRef.get(id) !== 2 ||
      !fileIds.has(shortId(`<quote-${id}-buyer@${MESSAGE_DOMAIN}>`)) ||
      !fileIds.has(shortId(`<quote-${id}-seller@${MESSAGE_DOMAIN}>`)),
  );
  if (missingMail.length) problems.push(`${missingMail.length} stored requests without both mails`);
  if (files.length !== 2 * rows.length) problems.push(`${files.length} .eml files for ${2 * rows.length} expected mails`);

  latencies.sort((a, b) => a - b);
  const statusText = [...statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}: ${n.toLocaleString('en-US')}`)
    .join(', ');
  console.log(
    `POST /api/quote-requests through the gateway, ${connections} connections, ${seconds} s asked, ${fmt(wallSeconds)} s measured ` +
      `(rate limits raised; SQLite, dev mailbox; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores)\n`,
  );
  console.log('| requests | accepted (201) | req/s (wall clock) | p50 ms | p95 ms | p99 ms | max ms | network errors | statuses |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  console.log(
    `| ${latencies.length.toLocaleString('en-US')} | ${accepted.size.toLocaleString('en-US')} | ${fmt(latencies.length / wallSeconds)} | ` +
      `${fmt(percentile(latencies, 50))} | ${fmt(percentile(latencies, 95))} | ${fmt(percentile(latencies, 99))} | ${fmt(latencies.at(-1) ?? NaN)} | ` +
      `${errors} | ${statusText} |`,
  );
  console.log('\n| check after the run | result |');
  console.log('|---|---|');
  console.log(`| accepted requests stored exactly once | ${notStored.length === 0 && answeredTwice === 0 && storedEmails.size === rows.length ? 'yes' : 'NO'} (${rows.length.toLocaleString('en-US')} rows: ${accepted.size.toLocaleString('en-US')} answered + ${inFlight} unanswered) |`);
  console.log(`| every stored request has its 2 mails (outbox sent + .eml by Message-ID) | ${missingMail.length === 0 && files.length === 2 * rows.length ? 'yes' : 'NO'} (${files.length.toLocaleString('en-US')} files) |`);
  console.log(`| outbox drained after the load ended | ${fmt(drainMs / 1000)} s |`);
  if (problems.length) {
    failed = true;
    console.log(`\nFAILED: ${problems.join('; ')}`);
  }
} finally {
  await stack.stop();
}
process.exit(failed ? 1 : 0);
