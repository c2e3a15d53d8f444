/**
 * One webhook delivery to the seller's ERP: signed the way Stripe signs (so receivers can reuse a known recipe), sent
 * only to a public HTTPS address, and to the very address that was checked. The URL is typed by staff, so without
 * these checks the webhook would be a way to make this server POST into its own network (SSRF): the cloud metadata
 * service, an admin port on localhost, a database on the private network.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Agent, request } from 'undici';

/** The header carrying the signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the endpoint's secret>` (Stripe's scheme). */
export const WEBHOOK_SIGNATURE_HEADER = 'Forgeline-Signature';
export const WEBHOOK_EVENT_HEADER = 'Forgeline-Event';
export const WEBHOOK_DELIVERY_HEADER = 'Forgeline-Delivery';

const USER_AGENT = 'Forgeline-Webhooks/1';
/** How much of an answer staff get to see. */
const RESPONSE_CHARS = 500;
/** 500 characters are at most this many UTF-8 bytes; reading stops there, however long the answer. */
const RESPONSE_BYTES = RESPONSE_CHARS * 4;

const hmacHex = (secret: string, timestampSec: number, body: string) =>
  createHmac('sha256', secret).update(`${timestampSec}.${body}`, 'utf8').digest('hex');

/** The key is the secret string as shown to staff, `whsec_` included (as Stripe does), so a receiver pastes it as is. */
export function signWebhook(secret: string, timestampSec: number, body: string): string {
  if (!Number.isSafeInteger(timestampSec) || timestampSec < 0) throw new RangeError(`A webhook timestamp is whole seconds, got ${timestampSec}`);
  return `t=${timestampSec},v1=${hmacHex(secret, timestampSec, body)}`;
}

/**
 * For receivers (and the tests): true when the header is a valid signature of body within toleranceSec of nowSec;
 * constant-time compare. Several v1 entries are allowed (a sender rotating its secret signs with both); a header with
 * two timestamps is refused, as it is ambiguous which one was signed.
 */
export function verifyWebhookSignature(secret: string, header: string, body: string, toleranceSec: number, nowSec = Math.floor(Date.now() / 1000)): boolean {
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,15}$/.test(value)) return false;
      timestamp = Number(value);
    } else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) candidates.push(value);
  }
  // Both ways: a timestamp from the future is a replay prepared in advance, or a clock to fix.
  if (timestamp === undefined || Math.abs(nowSec - timestamp) > toleranceSec) return false;
  const expected = Buffer.from(hmacHex(secret, timestamp, body), 'hex');
  return candidates.some((c) => timingSafeEqual(Buffer.from(c, 'hex'), expected));
}

/** A new endpoint's signing secret: 32 random bytes, `whsec_` + base64url. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** A webhook URL that is refused; the message is for staff, as it stands. */
export class WebhookUrlError extends Error {
  override name = 'WebhookUrlError';
}

type Rule = { why: string; list: BlockList };

function rules(family: 'ipv4' | 'ipv6', entries: [cidr: string, why: string][]): Rule[] {
  return entries.map(([cidr, why]) => {
    const [network, prefix] = cidr.split('/') as [string, string];
    const list = new BlockList();
    list.addSubnet(network, Number(prefix), family);
    return { why: `${why} (${cidr})`, list };
  });
}

/**
 * Addresses that are not the public internet (IANA's special-purpose registries), the first match names why. Order
 * matters where ranges nest: 0.0.0.0 is "unspecified" before 0.0.0.0/8 is "this network".
 */
const IPV4_REFUSED = rules('ipv4', [
  ['0.0.0.0/32', 'the unspecified address, which reaches this server itself'],
  ['0.0.0.0/8', 'a reserved "this network" address'],
  ['10.0.0.0/8', 'a private network address'],
  ['100.64.0.0/10', 'a carrier-grade NAT address, not public'],
  ['127.0.0.0/8', 'a loopback address, this server itself'],
  ['169.254.0.0/16', 'a link-local address, where cloud metadata services answer'],
  ['172.16.0.0/12', 'a private network address'],
  ['192.0.0.0/24', 'a reserved protocol address'],
  ['192.0.2.0/24', 'a documentation address, not on the internet'],
  ['192.88.99.0/24', 'a reserved (retired 6to4 relay) address'],
  ['192.168.0.0/16', 'a private network address'],
  ['198.18.0.0/15', 'a benchmarking address, not on the internet'],
  ['198.51.100.0/24', 'a documentation address, not on the internet'],
  ['203.0.113.0/24', 'a documentation address, not on the internet'],
  ['224.0.0.0/4', 'a multicast address'],
  ['240.0.0.0/4', 'a reserved address'],
]);
const IPV6_REFUSED = rules('ipv6', [
  ['::/128', 'the unspecified address, which reaches this server itself'],
  ['::1/128', 'a loopback address, this server itself'],
  ['fe80::/10', 'a link-local address'],
  ['fc00::/7', 'a unique-local address, a private network'],
  ['ff00::/8', 'a multicast address'],
  ['2001::/23', 'a reserved protocol address (Teredo, benchmarking, ORCHID)'],
  ['2001:db8::/32', 'a documentation address, not on the internet'],
  ['2002::/16', 'a reserved (6to4) address that can reach any IPv4 network'],
  ['3fff::/20', 'a documentation address, not on the internet'],
]);
/** The only IPv6 addresses handed out on the internet; anything else left is reserved. */
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');
/** IPv6 forms that carry an IPv4 address in their last 32 bits, judged by that address. */
const IPV4_MAPPED = new BlockList();
IPV4_MAPPED.addSubnet('::ffff:0:0', 96, 'ipv6');
const NAT64 = new BlockList();
NAT64.addSubnet('64:ff9b::', 96, 'ipv6');

/** The IPv4 address in the last 32 bits of a canonical IPv6 address (the last two groups; an empty one is 0). */
function lastIpv4(canonical: string): string {
  const groups = canonical.split(':');
  const hi = Number.parseInt(groups.at(-2) || '0', 16);
  const lo = Number.parseInt(groups.at(-1) || '0', 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** Why an address is not a public one, or undefined when it is. */
function whyNotPublic(address: string): string | undefined {
  const ip = address.replace(/%.*$/, ''); // a zone (fe80::1%eth0) names an interface, not part of the address
  if (isIP(ip) === 4) return IPV4_REFUSED.find((r) => r.list.check(ip, 'ipv4'))?.why;
  if (isIP(ip) !== 6) return 'not an IP address';
  // One spelling per address (::ffff:127.0.0.1 is ::ffff:7f00:1), so the embedded IPv4 is read the same way each time.
  const canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  for (const [list, form] of [[IPV4_MAPPED, 'an IPv4-mapped'], [NAT64, 'a NAT64']] as const) {
    if (!list.check(canonical, 'ipv6')) continue;
    const v4 = lastIpv4(canonical);
    const why = whyNotPublic(v4);
    return why && `${form} form of ${v4}, ${why}`;
  }
  return IPV6_REFUSED.find((r) => r.list.check(canonical, 'ipv6'))?.why ?? (GLOBAL_UNICAST.check(canonical, 'ipv6') ? undefined : 'a reserved address (outside 2000::/3)');
}

const PUBLIC_ONLY = 'webhooks are sent only to public internet addresses.';

/**
 * Refuses what is not a public HTTPS address: another scheme, credentials in the URL, a host that does not resolve,
 * or one that resolves (any of its addresses) to a loopback, private (10/8, 172.16/12, 192.168/16), link-local
 * (169.254/16, fe80::/10), CGNAT (100.64/10), unique-local (fc00::/7), multicast, unspecified (0.0.0.0, ::),
 * benchmark/documentation/reserved ranges, IPv4-mapped IPv6 of those, or a literal IP of those. allowPrivate (the tests'
 * receivers on 127.0.0.1, never set in production) also allows http:. Throws WebhookUrlError with a sentence a
 * member of staff understands; answers the parsed URL and the checked addresses.
 */
export async function checkWebhookUrl(
  url: string,
  opts: { allowPrivate?: boolean; lookup?: typeof import('node:dns/promises').lookup } = {},
): Promise<{ url: URL; addresses: string[] }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WebhookUrlError(`"${url}" is not a valid web address; it should look like https://erp.example.com/webhooks.`);
  }
  if (parsed.protocol !== 'https:' && !(opts.allowPrivate && parsed.protocol === 'http:')) {
    throw new WebhookUrlError(`The webhook address must start with https:// (it starts with ${parsed.protocol}//): events are only sent encrypted.`);
  }
  // They would be sent with every event, and shown to every member of staff who opens the endpoint.
  if (parsed.username || parsed.password) {
    throw new WebhookUrlError('The webhook address must not contain a user name or password; the signature header proves the events are ours.');
  }
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    const answers = await (opts.lookup ?? dnsLookup)(host, { all: true }).catch((err: NodeJS.ErrnoException) => {
      throw new WebhookUrlError(`The host name ${host} does not resolve (${err.code ?? err.message}); check the address for typing errors.`);
    });
    addresses = answers.map((a) => a.address);
    if (!addresses.length) throw new WebhookUrlError(`The host name ${host} does not resolve (no addresses); check the address for typing errors.`);
  }
  if (!opts.allowPrivate) {
    for (const address of addresses) {
      const why = whyNotPublic(address);
      if (!why) continue;
      throw new WebhookUrlError(address === host ? `The address ${host} is ${why}; ${PUBLIC_ONLY}` : `The host name ${host} resolves to ${address}, ${why}; ${PUBLIC_ONLY}`);
    }
  }
  return { url: parsed, addresses };
}

/**
 * Answers every name lookup of the connection with the checked addresses, so DNS is asked once (by the check) and a
 * second, different answer (DNS rebinding) cannot move the connection. Only the address is pinned: the URL keeps its
 * host name, so Host, TLS SNI and the certificate check stay on it.
 */
function pinnedLookup(addresses: string[]): LookupFunction {
  const answers = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_hostname, options, callback) => {
    const wanted = answers.filter((a) => !options.family || a.family === options.family || `IPv${a.family}` === options.family);
    const first = wanted[0];
    if (!first) callback(Object.assign(new Error(`No checked IPv${options.family} address`), { code: 'ENOTFOUND' }), '');
    else if (options.all) callback(null, wanted);
    else callback(null, first.address, first.family);
  };
}

/** The start of an answer as text; a broken or cut-off body gives what arrived. */
async function readStart(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_BYTES) break; // leaving the loop destroys the stream: the rest is never downloaded
    }
  } catch {
    // the status is what matters; the text is a courtesy
  }
  let text = new TextDecoder().decode(Buffer.concat(chunks).subarray(0, RESPONSE_BYTES)).slice(0, RESPONSE_CHARS);
  if (/[\uD800-\uDBFF]$/.test(text)) text = text.slice(0, -1); // half a character is not text
  return text;
}

const codeOf = (err: unknown): string | undefined => {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  return typeof e?.code === 'string' ? e.code : typeof e?.cause?.code === 'string' ? e.cause.code : undefined;
};

/** A transport failure as staff read it, with the code for whoever digs further. */
function failureSentence(err: unknown): string {
  const code = codeOf(err);
  const message = (err as Error | null)?.message ?? String(err);
  if (code === 'ECONNREFUSED') return 'The endpoint refused the connection (ECONNREFUSED): nothing listens at that address and port.';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return `The endpoint closed the connection before answering (${code}).`;
  if (code && /CERT|SELF_SIGNED|UNABLE_TO_|ERR_TLS/.test(code)) return `The endpoint's TLS certificate was not accepted (${code}).`;
  return `The delivery failed: ${message}${code ? ` (${code})` : ''}.`;
}

/**
 * One delivery: checks the URL again (the DNS may have changed since it was registered), then POSTs the JSON body with
 * the three headers, `content-type: application/json`, `user-agent: Forgeline-Webhooks/1`, connecting only to an
 * address the check approved (pin it: an undici Agent/dispatcher with a custom `connect.lookup`, or equivalent, so a
 * second DNS answer cannot point the connection inside the network; TLS SNI and certificate checks stay on the host
 * name), never following redirects (a 3xx is a failure whose status is shown), with a timeout. ok = a 2xx.
 * `response` is the start of the answer's body (at most 500 characters, text), for staff to see.
 *
 * timeoutMs bounds the whole delivery: the name lookup, connecting, the answer's headers and the start of its body.
 * `lookup` is checkWebhookUrl's (tests). Whenever ok is false, `error` says why in a sentence.
 */
export async function deliverWebhook(o: {
  url: string;
  secret: string;
  event: string;
  deliveryId: string;
  body: string;
  timeoutMs: number;
  allowPrivate?: boolean;
  nowSec?: number;
  lookup?: typeof import('node:dns/promises').lookup;
}): Promise<{ ok: boolean; status: number | null; response: string; error?: string }> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error('webhook delivery timed out')), o.timeoutMs);
  // The lookup in the check cannot be cancelled; racing it keeps a slow DNS server inside the timeout.
  const timedOut = new Promise<never>((_resolve, reject) => deadline.signal.addEventListener('abort', () => reject(deadline.signal.reason)));
  timedOut.catch(() => {});
  let agent: Agent | undefined;
  try {
    const { url, addresses } = await Promise.race([checkWebhookUrl(o.url, { allowPrivate: o.allowPrivate, lookup: o.lookup }), timedOut]);
    agent = new Agent({ connect: { lookup: pinnedLookup(addresses), timeout: o.timeoutMs } });
    const res = await request(url, {
      method: 'POST',
      dispatcher: agent,
      signal: deadline.signal,
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        [WEBHOOK_SIGNATURE_HEADER]: signWebhook(o.secret, o.nowSec ?? Math.floor(Date.now() / 1000), o.body),
        [WEBHOOK_EVENT_HEADER]: o.event,
        [WEBHOOK_DELIVERY_HEADER]: o.deliveryId,
      },
      body: o.body,
    });
    const status = res.statusCode;
    const response = await readStart(res.body);
    if (status >= 200 && status < 300) return { ok: true, status, response };
    const location = res.headers.location;
    const error =
      status >= 300 && status < 400
        ? `The endpoint answered ${status}, a redirect${location ? ` to ${String(location)}` : ''}; redirects are not followed, so register the final address.`
        : `The endpoint answered ${status}.`;
    return { ok: false, status, response, error };
  } catch (err) {
    if (err instanceof WebhookUrlError) return { ok: false, status: null, response: '', error: err.message };
    if (deadline.signal.aborted || /TIMEOUT/.test(codeOf(err) ?? '')) {
      return { ok: false, status: null, response: '', error: `The endpoint did not answer within ${o.timeoutMs} ms (timed out).` };
    }
    return { ok: false, status: null, response: '', error: failureSentence(err) };
  } finally {
    clearTimeout(timer);
    // One agent per delivery: it knows only this delivery's checked addresses, and keeps no connection afterwards.
    await agent?.destroy().catch(() => {});
  }
}
