/**
 * Webhook deliveries to the seller's ERP: Stripe-style signatures, refusing URLs that point into our own network
 * (SSRF), and real deliveries over sockets to node:http receivers on 127.0.0.1. DNS is injected where a test needs a
 * host name to resolve a certain way, so no test depends on the real DNS.
 */
import { createHmac } from 'node:crypto';
import type { lookup as dnsLookup } from 'node:dns/promises';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkWebhookUrl,
  deliverWebhook,
  newWebhookSecret,
  signWebhook,
  verifyWebhookSignature,
  WEBHOOK_DELIVERY_HEADER,
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WebhookUrlError,
} from '../src/domain/webhook-delivery.ts';

type Lookup = typeof dnsLookup;

/** A stand-in DNS that answers these addresses for any name, counting how often it is asked. */
function answering(...addresses: string[]): Lookup & { calls: string[] } {
  const calls: string[] = [];
  const fn = async (hostname: string) => {
    calls.push(hostname);
    return addresses.map((address) => ({ address, family: isIP(address) }));
  };
  return Object.assign(fn as unknown as Lookup, { calls });
}

/** A stand-in DNS that must not be asked: a refusal that needs no name lookup makes none. */
const noDns = (async (hostname: string) => {
  throw new Error(`DNS asked for ${hostname}`);
}) as unknown as Lookup;

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The address the connection reached (the receiver's end of the socket). */
  localAddress: string;
}

/** A real HTTP receiver on 127.0.0.1; `answer` replies (or, by not calling res.end, never does). */
async function startReceiver(answer: (req: Received, res: ServerResponse) => void = (_req, res) => res.end('ok')) {
  const requests: Received[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), localAddress: req.socket.localAddress ?? '' };
      requests.push(received);
      answer(received, res);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const receiver = {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  opened.push(receiver);
  return receiver;
}

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((r) => r.close()));
});

const SECRET = 'whsec_test-secret';
const BODY = JSON.stringify({ id: 'evt_1', type: 'quote.accepted', data: { quoteId: 'q-42', total: '1234.50' } });
const base = { secret: SECRET, event: 'quote.accepted', deliveryId: 'dlv_1', body: BODY, timeoutMs: 5_000 };

describe('webhook signatures', () => {
  const t = 1_767_225_600;

  it('signs as Stripe does: t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
    const expected = createHmac('sha256', SECRET).update(`${t}.${BODY}`).digest('hex');
    expect(signWebhook(SECRET, t, BODY)).toBe(`t=${t},v1=${expected}`);
  });

  it('verifies its own signature within the tolerance, either side of now', () => {
    const header = signWebhook(SECRET, t, BODY);
    expect(verifyWebhookSignature(SECRET, header, BODY, 300, t)).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, BODY, 300, t + 300)).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, BODY, 300, t - 300)).toBe(true);
  });

  it('refuses a tampered body, another secret, an old or a future timestamp', () => {
    const header = signWebhook(SECRET, t, BODY);
    expect(verifyWebhookSignature(SECRET, header, BODY.replace('1234.50', '1.00'), 300, t)).toBe(false);
    expect(verifyWebhookSignature('whsec_other', header, BODY, 300, t)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, BODY, 300, t + 301)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, BODY, 300, t - 301)).toBe(false);
  });

  it('refuses a signature moved to another timestamp, and malformed headers', () => {
    const v1 = signWebhook(SECRET, t, BODY).split(',v1=')[1];
    expect(verifyWebhookSignature(SECRET, `t=${t + 1},v1=${v1}`, BODY, 300, t)).toBe(false);
    for (const header of ['', `v1=${v1}`, `t=${t}`, `t=${t},v1=${v1?.slice(0, 10)}`, `t=${t},t=${t + 1},v1=${v1}`, `t=abc,v1=${v1}`]) {
      expect(verifyWebhookSignature(SECRET, header, BODY, 300, t), header).toBe(false);
    }
  });

  it('accepts a header that also carries a signature with an older secret (rotation)', () => {
    const old = createHmac('sha256', 'whsec_old').update(`${t}.${BODY}`).digest('hex');
    const current = signWebhook(SECRET, t, BODY).split(',v1=')[1];
    expect(verifyWebhookSignature(SECRET, `t=${t},v1=${old},v1=${current}`, BODY, 300, t)).toBe(true);
  });

  it('makes a new secret of 32 random bytes, whsec_ + base64url', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.slice(6), 'base64url')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(a);
  });
});

describe('checkWebhookUrl', () => {
  it.each([
    ['http://example.com/hook', /must start with https:\/\/ \(it starts with http:\/\/\)/],
    ['ftp://example.com/hook', /must start with https:\/\//],
    ['https://user:pw@example.com/hook', /must not contain a user name or password/],
    ['not a url', /not a valid web address/],
    ['https://127.0.0.1/hook', /127\.0\.0\.1 is a loopback address/],
    ['https://2130706433/hook', /127\.0\.0\.1 is a loopback address/],
    ['https://10.1.2.3/hook', /10\.1\.2\.3 is a private network address \(10\.0\.0\.0\/8\)/],
    ['https://172.16.5.4/hook', /private network address \(172\.16\.0\.0\/12\)/],
    ['https://192.168.1.1/hook', /private network address \(192\.168\.0\.0\/16\)/],
    ['https://[::1]/hook', /::1 is a loopback address/],
    ['https://[::ffff:127.0.0.1]/hook', /IPv4-mapped form of 127\.0\.0\.1, a loopback address/],
    ['https://[::ffff:10.0.0.1]/hook', /IPv4-mapped form of 10\.0\.0\.1, a private network address/],
    ['https://[64:ff9b::192.168.0.1]/hook', /NAT64 form of 192\.168\.0\.1, a private network address/],
    ['https://169.254.169.254/latest/meta-data', /169\.254\.169\.254 is a link-local address, where cloud metadata services answer/],
    ['https://[fe80::1]/hook', /link-local address \(fe80::\/10\)/],
    ['https://100.64.0.1/hook', /100\.64\.0\.1 is a carrier-grade NAT address/],
    ['https://[fd12:3456::1]/hook', /unique-local address/],
    ['https://0.0.0.0/hook', /0\.0\.0\.0 is the unspecified address/],
    ['https://[::]/hook', /:: is the unspecified address/],
    ['https://224.0.0.251/hook', /multicast/],
    ['https://[ff02::1]/hook', /multicast/],
    ['https://192.0.2.10/hook', /documentation address/],
    ['https://[2001:db8::1]/hook', /documentation address/],
    ['https://198.18.0.1/hook', /benchmarking address/],
    ['https://255.255.255.255/hook', /reserved address \(240\.0\.0\.0\/4\)/],
    ['https://[::a00:1]/hook', /reserved address \(outside 2000::\/3\)/],
  ])('refuses %s, saying why', async (url, why) => {
    const refused = checkWebhookUrl(url, { lookup: noDns });
    await expect(refused).rejects.toBeInstanceOf(WebhookUrlError);
    await expect(refused).rejects.toThrow(why);
  });

  it('refuses a host name that resolves to a private address', async () => {
    await expect(checkWebhookUrl('https://erp.example.com/hook', { lookup: answering('10.0.0.5') })).rejects.toThrow(
      /The host name erp\.example\.com resolves to 10\.0\.0\.5, a private network address .*public internet addresses/,
    );
  });

  it('refuses a host name when any one of its addresses is not public', async () => {
    await expect(checkWebhookUrl('https://erp.example.com/hook', { lookup: answering('93.184.215.14', '::ffff:192.168.1.10') })).rejects.toThrow(
      /resolves to ::ffff:192\.168\.1\.10, an IPv4-mapped form of 192\.168\.1\.10, a private network address/,
    );
  });

  it('refuses a host name that does not resolve', async () => {
    const nxdomain = (async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND erp.example.invalid'), { code: 'ENOTFOUND' });
    }) as unknown as Lookup;
    await expect(checkWebhookUrl('https://erp.example.invalid/hook', { lookup: nxdomain })).rejects.toThrow(/erp\.example\.invalid does not resolve \(ENOTFOUND\)/);
    await expect(checkWebhookUrl('https://erp.example.invalid/hook', { lookup: answering() })).rejects.toThrow(/does not resolve \(no addresses\)/);
  });

  it('accepts a literal public address without asking DNS', async () => {
    const checked = await checkWebhookUrl('https://93.184.215.14/hook', { lookup: noDns });
    expect(checked.url.href).toBe('https://93.184.215.14/hook');
    expect(checked.addresses).toEqual(['93.184.215.14']);
    expect((await checkWebhookUrl('https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/hook', { lookup: noDns })).addresses).toEqual(['2606:2800:21f:cb07:6820:80da:af6b:8b2c']);
    expect((await checkWebhookUrl('https://[64:ff9b::93.184.215.14]/hook', { lookup: noDns })).addresses).toEqual(['64:ff9b::5db8:d70e']);
  });

  it('accepts a host name whose addresses are all public, and answers them', async () => {
    const lookup = answering('93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c');
    const checked = await checkWebhookUrl('https://ERP.example.com:8443/hooks?tenant=7', { lookup });
    expect(checked.url.hostname).toBe('erp.example.com');
    expect(checked.url.port).toBe('8443');
    expect(checked.addresses).toEqual(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']);
    expect(lookup.calls).toEqual(['erp.example.com']);
  });

  it('with allowPrivate (tests only) accepts http: and a loopback address', async () => {
    expect((await checkWebhookUrl('http://127.0.0.1:9/hook', { allowPrivate: true })).addresses).toEqual(['127.0.0.1']);
  });
});

describe('deliverWebhook', () => {
  it('posts the signed body with its event and delivery headers, and the receiver verifies it', async () => {
    let verified = false;
    const erp = await startReceiver((req, res) => {
      verified = verifyWebhookSignature(SECRET, String(req.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()]), req.body, 300);
      res.writeHead(verified ? 200 : 400).end(verified ? 'received' : 'bad signature');
    });
    const result = await deliverWebhook({ ...base, url: `${erp.url}/webhooks?tenant=7`, allowPrivate: true });
    expect(result).toEqual({ ok: true, status: 200, response: 'received' });
    expect(verified).toBe(true);
    const [req] = erp.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/webhooks?tenant=7', body: BODY });
    expect(req?.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Forgeline-Webhooks/1',
      [WEBHOOK_EVENT_HEADER.toLowerCase()]: 'quote.accepted',
      [WEBHOOK_DELIVERY_HEADER.toLowerCase()]: 'dlv_1',
    });
  });

  it('signs with the given time', async () => {
    const erp = await startReceiver();
    await deliverWebhook({ ...base, url: erp.url, allowPrivate: true, nowSec: 1_700_000_000 });
    expect(erp.requests[0]?.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()]).toBe(signWebhook(SECRET, 1_700_000_000, BODY));
  });

  it('a 500 is a failure with its status and the start of its answer (500 characters at most)', async () => {
    const erp = await startReceiver((_req, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`database is down ${'x'.repeat(100_000)}`));
    const result = await deliverWebhook({ ...base, url: erp.url, allowPrivate: true });
    expect(result).toMatchObject({ ok: false, status: 500, error: 'The endpoint answered 500.' });
    expect(result.response).toMatch(/^database is down x+$/);
    expect(result.response).toHaveLength(500);
  });

  it('does not follow a redirect: a 302 is a failure and its target is never asked', async () => {
    const elsewhere = await startReceiver();
    const erp = await startReceiver((_req, res) => res.writeHead(302, { location: `${elsewhere.url}/moved` }).end('moved'));
    const result = await deliverWebhook({ ...base, url: erp.url, allowPrivate: true });
    expect(result).toMatchObject({ ok: false, status: 302, response: 'moved' });
    expect(result.error).toMatch(/answered 302, a redirect to http:\/\/127\.0\.0\.1:\d+\/moved; redirects are not followed/);
    expect(erp.requests).toHaveLength(1);
    expect(elsewhere.connections()).toBe(0);
  });

  it('gives up on a receiver that never answers when the timeout passes', async () => {
    const erp = await startReceiver(() => {});
    const started = Date.now();
    const result = await deliverWebhook({ ...base, url: erp.url, allowPrivate: true, timeoutMs: 300 });
    expect(result).toEqual({ ok: false, status: null, response: '', error: 'The endpoint did not answer within 300 ms (timed out).' });
    expect(erp.requests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('says so when nothing listens at the address', async () => {
    const erp = await startReceiver();
    await erp.close();
    const result = await deliverWebhook({ ...base, url: erp.url, allowPrivate: true });
    expect(result).toMatchObject({ ok: false, status: null, response: '' });
    expect(result.error).toMatch(/refused the connection \(ECONNREFUSED\)/);
  });

  it('without allowPrivate refuses the same 127.0.0.1 receiver without connecting', async () => {
    const erp = await startReceiver();
    const result = await deliverWebhook({ ...base, url: erp.url.replace('http:', 'https:') });
    expect(result).toEqual({ ok: false, status: null, response: '', error: expect.stringMatching(/127\.0\.0\.1 is a loopback address/) });
    expect((await deliverWebhook({ ...base, url: erp.url })).error).toMatch(/must start with https:\/\//);
    expect(erp.connections()).toBe(0);
  });

  it('checks the URL again at delivery: a host name that now resolves inside the network is refused', async () => {
    const erp = await startReceiver();
    const result = await deliverWebhook({ ...base, url: `https://erp.example.com:${erp.port}/hook`, lookup: answering('127.0.0.1') });
    expect(result).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/erp\.example\.com resolves to 127\.0\.0\.1, a loopback address/) });
    expect(erp.connections()).toBe(0);
  });

  it('connects to an address the check approved (localhost)', async () => {
    const erp = await startReceiver();
    const url = `http://localhost:${erp.port}/hook`;
    const { addresses } = await checkWebhookUrl(url, { allowPrivate: true });
    const result = await deliverWebhook({ ...base, url, allowPrivate: true });
    expect(result.ok).toBe(true);
    expect(addresses).toContain(erp.requests[0]?.localAddress);
    expect(erp.requests[0]?.headers.host).toBe(`localhost:${erp.port}`);
  });

  it('pins the connection to the checked address: DNS is asked once, and the host name is kept', async () => {
    const erp = await startReceiver();
    // A rebinding DNS: the check sees 127.0.0.1, any later question would get a different address. The name is under
    // .test, which the real DNS never resolves, so a connection that looked the name up again would fail.
    const calls: string[] = [];
    const rebinding = (async (hostname: string) => {
      calls.push(hostname);
      return [{ address: calls.length === 1 ? '127.0.0.1' : '10.0.0.5', family: 4 }];
    }) as unknown as Lookup;
    const result = await deliverWebhook({ ...base, url: `http://erp.rebind.test:${erp.port}/hook`, allowPrivate: true, lookup: rebinding });
    expect(result).toEqual({ ok: true, status: 200, response: 'ok' });
    expect(calls).toEqual(['erp.rebind.test']);
    expect(erp.requests[0]?.localAddress).toBe('127.0.0.1');
    expect(erp.requests[0]?.headers.host).toBe(`erp.rebind.test:${erp.port}`);
  });
});
