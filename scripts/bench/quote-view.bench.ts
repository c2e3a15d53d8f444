/**
 * The buyer's quote page (issue 34) through the gateway, on the embedded stack (`npm start`'s adapters):
 *  - the server-rendered page, /quote/view/<token>: every request a distinct quote (the page is no-store, so nothing
 *    caches it anyway), gzip as browsers ask; one at a time, then BENCH_QUOTE_VIEW_CONNECTIONS (50) at once;
 *  - the PDF of a 200-line quote over HTTP;
 *  - 50 buyers accepting at once: 50 tabs on one quote (one order, 49 "already accepted"), and 50 quotes accepted
 *    at the same moment (50 orders, 50 distinct numbers).
 * Goals: page p95 and PDF < 300 ms on this machine; 0 duplicate orders.
 *
 *   npm run bench -- quote-view
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gatewayAssertionHeaders } from '@forgeline/service-kit/gateway-assertion';
import { repoRoot, startStack } from '../lib/stack.ts';
import { fmt, machineLoad, percentile } from './lib/stats.ts';

const QUOTES = Number(process.env.BENCH_QUOTE_VIEW_QUOTES ?? 300);
const CONNECTIONS = Number(process.env.BENCH_QUOTE_VIEW_CONNECTIONS ?? 50);
const dataDir = path.join(repoRoot, 'data', 'bench-quote-view');
const ADMIN = 'admin@forgeline-parts.example';

fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });
const stack = await startStack({
  dataDir,
  port: 0,
  seedProducts: 2_000,
  quiet: true,
  env: { RATE_LIMIT_MULTIPLIER: '1000000', LOG_LEVEL: 'warn', ADMIN_EMAILS: ADMIN },
});

const summary = (name: string, ms: number[], extra = '') => {
  const s = [...ms].sort((a, b) => a - b);
  return `| ${name} | ${s.length} | ${fmt(percentile(s, 50))} | ${fmt(percentile(s, 95))} | ${fmt(percentile(s, 99))} | ${fmt(s.at(-1) ?? NaN)} | ${extra} |`;
};

try {
  const serviceToken = fs.readFileSync(path.join(dataDir, '.service-token'), 'utf8').trim();
  const quotesUrl = stack.serviceUrls.quotes!;
  const products = ((await (await fetch(`${stack.url}/api/catalog/products?limit=48`)).json()) as { products: { id: string }[] }).products;
  const admin = async (extra: Record<string, string> = {}) => ({ ...(await gatewayAssertionHeaders(serviceToken, ADMIN)), 'content-type': 'application/json', ...extra });

  /** A request of `lines` parts, replied with prices; answers the token its reply mail carries. */
  async function quotedRequest(n: number, lines: number): Promise<string> {
    const email = `bench-${n}@quote-view.example`;
    const res = await fetch(`${stack.url}/api/quote-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        customerName: `Bench Buyer ${n}`,
        customerEmail: email,
        customerCountry: 'Chile',
        message: 'Benchmark',
        lines: Array.from({ length: lines }, (_, i) => ({ productId: products[(n + i) % products.length]!.id, quantity: 1 + (i % 9) })),
      }),
    });
    if (res.status !== 201) throw new Error(`quote request: ${res.status} ${await res.text()}`);
    const { id } = (await res.json()) as { id: string };
    const reply = await fetch(`${quotesUrl}/api/admin/quotes/${id}/reply`, {
      method: 'POST',
      headers: await admin({ 'if-match': '"v0"' }),
      body: JSON.stringify({
        message: 'Our prices, ex works.',
        lines: Array.from({ length: lines }, (_, i) => ({ unitPrice: 10 + i, currency: i % 5 ? 'USD' : 'EUR', leadTime: '3 days' })),
      }),
    });
    if (reply.status !== 200) throw new Error(`reply: ${reply.status} ${await reply.text()}`);
    return id;
  }

  /** The link of each quote, read from the dev mailbox (tokens exist only there and as hashes). */
  async function tokensOf(ids: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const mailDir = path.join(dataDir, 'mail');
    for (let tries = 0; found.size < ids.length && tries < 600; tries++) {
      if (tries) await new Promise((r) => setTimeout(r, 100));
      if (!fs.existsSync(mailDir)) continue;
      for (const name of fs.readdirSync(mailDir)) {
        const text = fs.readFileSync(path.join(mailDir, name), 'utf8').replace(/=\r?\n/g, '');
        const token = /\/quote\/view\/([A-Za-z0-9_-]{43})/.exec(text)?.[1];
        const id = ids.find((x) => text.includes(`Reference: ${x}`));
        if (token && id) found.set(id, token);
      }
    }
    if (found.size < ids.length) throw new Error(`only ${found.size} of ${ids.length} quote links reached the mailbox`);
    return found;
  }

  process.stdout.write(`Creating ${QUOTES} quoted requests (10 lines each) and a 200-line one...\n`);
  const ids: string[] = [];
  for (let n = 0; n < QUOTES; n++) ids.push(await quotedRequest(n, 10));
  const bigId = await quotedRequest(QUOTES, 200);
  const tokens = await tokensOf([...ids, bigId]);
  const list = ids.map((id) => tokens.get(id)!);

  const page = async (token: string) => {
    const t = performance.now();
    const res = await fetch(`${stack.url}/quote/view/${token}`, { headers: { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' } });
    const body = await res.text();
    if (res.status !== 200 || !body.includes('Accept and order')) throw new Error(`page: ${res.status}`);
    return performance.now() - t;
  };
  // Warm-up on a few (first render of the page's code), then each measured page a distinct quote.
  for (const token of list.slice(0, 5)) await page(token);
  const sequential: number[] = [];
  for (const token of list.slice(5, 105)) sequential.push(await page(token));
  const concurrent: number[] = [];
  const queue = list.slice(105);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      for (let token = queue.shift(); token; token = queue.shift()) concurrent.push(await page(token));
    }),
  );
  const rate = (concurrent.length / (performance.now() - started)) * 1000;

  const pdf: number[] = [];
  const bigToken = tokens.get(bigId)!;
  let pdfKb = 0;
  for (let i = 0; i < 12; i++) {
    const t = performance.now();
    const res = await fetch(`${stack.url}/api/quote-view/${bigToken}/pdf`);
    const bytes = await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`pdf: ${res.status}`);
    if (i >= 2) pdf.push(performance.now() - t);
    pdfKb = bytes.byteLength / 1024;
  }

  const acceptBody = (version = 1) =>
    JSON.stringify({ version, poNumber: 'PO-BENCH', delivery: { company: 'Bench', address: 'Pit 1', contactName: 'Ana', contactPhone: '' } });
  const accept = async (token: string) => {
    const t = performance.now();
    const res = await fetch(`${stack.url}/api/quote-view/${token}/accept`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: acceptBody() });
    const body = (await res.json()) as { order?: { number: string } };
    return { ms: performance.now() - t, status: res.status, number: body.order?.number };
  };
  // 50 tabs on one quote.
  const oneQuote = list[0]!;
  const tabs = await Promise.all(Array.from({ length: 50 }, () => accept(oneQuote)));
  const tabsCreated = tabs.filter((a) => a.status === 201).length;
  const tabsRefused = tabs.filter((a) => a.status === 409).length;
  // 50 quotes at once.
  const many = await Promise.all(list.slice(1, 51).map((t) => accept(t)));
  const numbers = new Set(many.filter((a) => a.status === 201).map((a) => a.number));
  // Accepts with a 9 MB PO document: through the API (multipart), and through the quote page's form as a browser
  // without JavaScript posts it (the gateway streams it to a temp file and passes it on). The gateway's memory after.
  const po = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(9 * 1024 * 1024, 0x20), Buffer.from('\n%%EOF\n')]);
  const gatewayPid = stack.processes().find((p) => p.name === 'gateway')?.pid;
  const rssMb = () => (gatewayPid ? Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${gatewayPid}/status`, 'utf8'))?.[1] ?? 0) / 1024 : 0);
  const rssBefore = rssMb();
  const withPo = async (token: string, via: 'api' | 'form') => {
    const form = new FormData();
    if (via === 'api') form.set('body', acceptBody());
    else {
      for (const [k, v] of Object.entries({ version: '1', poNumber: 'PO-BENCH', company: 'Bench', address: 'Pit 1', contactName: 'Ana' })) form.set(k, v);
      for (let i = 0; i < 10; i++) form.set(`qty-${i}`, '1'); // one of each of the 10 quoted lines, as the form's fields
    }
    form.set('poDocument', new Blob([po], { type: 'application/pdf' }), 'po.pdf');
    const url = via === 'api' ? `${stack.url}/api/quote-view/${token}/accept` : `${stack.url}/quote/view/${token}/accept`;
    const t = performance.now();
    const res = await fetch(url, { method: 'POST', body: form, redirect: 'manual' });
    await res.arrayBuffer();
    if (res.status !== (via === 'api' ? 201 : 303)) throw new Error(`accept with a PO document (${via}): ${res.status}`);
    return performance.now() - t;
  };
  const poApi: number[] = [];
  for (const token of list.slice(51, 61)) poApi.push(await withPo(token, 'api'));
  const poForm: number[] = [];
  for (const token of list.slice(61, 71)) poForm.push(await withPo(token, 'form'));
  const rssAfter = rssMb();
  // Orders as the service has them: one per request, never two.
  const orders = (await (await fetch(`${quotesUrl}/api/admin/orders?limit=100`, { headers: await admin() })).json()) as { pagination: { total: number } };

  const table = [
    '| measure | requests | p50 ms | p95 ms | p99 ms | max ms | |',
    '|---|---:|---:|---:|---:|---:|---|',
    summary('quote page, one at a time (server-rendered, distinct quotes, gzip)', sequential),
    summary(`quote page, ${CONNECTIONS} at once`, concurrent, `${fmt(rate)} pages/s`),
    summary('PDF of a 200-line quote over HTTP', pdf, `${fmt(pdfKb)} kB`),
    summary('50 tabs accept one quote at once', tabs.map((a) => a.ms), `${tabsCreated} order, ${tabsRefused} refused (409)`),
    summary('50 quotes accepted at once', many.map((a) => a.ms), `${many.filter((a) => a.status === 201).length} orders, ${numbers.size} distinct numbers`),
    summary('accept with a 9 MB PO document, API (multipart)', poApi),
    summary('accept with a 9 MB PO document, the page form (no JavaScript)', poForm, `gateway RSS ${fmt(rssBefore)} → ${fmt(rssAfter)} MB`),
  ].join('\n');
  process.stdout.write(`\nThe buyer's quote page, ${new Date().toISOString()}, ${os.cpus().length} cores, load ${machineLoad()}\n\n${table}\n\n`);
  process.stdout.write(`Orders stored: ${orders.pagination.total} (expected 71: one per accepted quote)\n`);
  const duplicates = tabsCreated !== 1 || numbers.size !== 50 || orders.pagination.total !== 71;
  if (duplicates) {
    process.stderr.write('quote-view bench: duplicate or missing orders\n');
    process.exitCode = 1;
  }
} finally {
  await stack.stop();
}
