/**
 * What the root suites share (one harness per test folder): docker-compose.yml as the tests read it, and signing in
 * as staff to a stack that scripts/lib/stack.ts started.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { DEFAULT_ADMIN_EMAIL } from '../scripts/lib/stack.ts';

/*
 * docker-compose.yml as the tests read it (test/compose.test.ts checks it against the code, test/k8s.test.ts
 * checks the Kubernetes manifests against it): parsed with its YAML merge keys, and its `${NAME…}` filled in as
 * compose fills them from an .env file. Compose needs one: every secret, and the mail relay, is a required
 * `${NAME:?…}` with no value in the repository. By default the tests fill it as an operator's .env does (random
 * secrets, the dev profile's Mailpit); `.env.example`, as committed, is the other .env the tests read.
 */

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ComposeService {
  image?: string;
  command?: string[] | string;
  restart?: string;
  profiles?: string[];
  build?: { context: string; dockerfile?: string; target?: string; args?: Record<string, string> };
  environment?: Record<string, string | number | boolean | null>;
  healthcheck?: { test: string[] | string; disable?: boolean };
  ports?: string[];
  volumes?: string[];
  container_name?: string;
  depends_on?: Record<string, { condition: string; required?: boolean }>;
}
export interface Compose {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const composeText = fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
export const compose = parse(composeText, { merge: true }) as Compose;

/** One `${…}` of compose's values: `${NAME:-default}`, `${NAME-default}`, `${NAME:?message}`, `${NAME?message}` or `${NAME}`. */
export interface Reference {
  name: string;
  /** What follows the name: `:-` / `-` (a default), `:?` / `?` (required), or nothing. */
  operator: ':-' | '-' | ':?' | '?' | '';
  /** The default, or the message compose prints when a required variable is missing. */
  rest: string;
}

const REFERENCE = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/** Every variable reference in a value (`$$` is a dollar sign, not a reference). */
export function referencesIn(value: string): Reference[] {
  const found: Reference[] = [];
  for (const m of value.matchAll(REFERENCE)) {
    if (m[0] === '$$') continue;
    found.push({ name: m[1] ?? m[4]!, operator: (m[2] ?? '') as Reference['operator'], rest: m[3] ?? '' });
  }
  return found;
}

/** Every variable compose reads: the references in every value of the file (comments are not values). */
export function composeReferences(): Reference[] {
  const raw = parse(composeText) as unknown; // without merging: each value once, as written
  const found: Reference[] = [];
  const walk = (node: unknown): void => {
    if (typeof node === 'string') found.push(...referencesIn(node));
    else if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') Object.values(node).forEach(walk);
  };
  walk(raw);
  return found;
}

/** An env file: the variables it sets (`NAME=value`) and the ones it shows commented out (`# NAME=value`). */
export function readEnvFile(file: string): { set: Record<string, string>; shown: Record<string, string> } {
  const set: Record<string, string> = {};
  const shown: Record<string, string> = {};
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = /^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) (m[1] ? shown : set)[m[2]!] = m[3]!;
  }
  return { set, shown };
}

/** `.env.example` as committed: what a `cp .env.example .env` gives compose. */
export const envExample = readEnvFile(path.join(root, '.env.example'));

/** An operator's .env: .env.example with every secret filled in (`openssl rand -base64 48`) and the dev profile's mail. */
export const operatorVars: Record<string, string> = {
  ...envExample.set,
  SERVICE_TOKEN: randomBytes(48).toString('base64'),
  OTP_SECRET: randomBytes(48).toString('base64'),
  MEILI_MASTER_KEY: randomBytes(48).toString('base64'),
  MINIO_ROOT_USER: 'forgeline-media',
  MINIO_ROOT_PASSWORD: randomBytes(48).toString('base64'),
  SMTP_URL: 'smtp://mailpit:1025',
};

/**
 * Compose's interpolation from an .env's variables. A required variable that is unset or empty is an error, as in
 * compose, unless `unsetRequired: 'empty'` (to compare what a file as committed holds). A bare `${NAME}` is an
 * error too: every variable here either has a default or is required.
 */
export function interpolate(value: string, vars: Record<string, string> = operatorVars, unsetRequired: 'throw' | 'empty' = 'throw'): string {
  return value.replace(REFERENCE, (whole, braced?: string, operator?: string, rest?: string, bare?: string) => {
    if (whole === '$$') return '$';
    const name = braced ?? bare!;
    const given = vars[name];
    const missing = given === undefined || (operator?.startsWith(':') && given === '');
    switch (operator) {
      case ':-':
      case '-':
        return missing ? rest! : given!;
      case ':?':
      case '?':
        if (!missing) return given!;
        if (unsetRequired === 'empty') return '';
        throw new Error(`${name}: ${rest}`);
      default:
        throw new Error(`${whole} has neither a default nor is required`);
    }
  });
}

/** A service's environment as the container gets it from compose with the given .env (default: an operator's). */
export function envOf(name: string, vars: Record<string, string> = operatorVars, unsetRequired: 'throw' | 'empty' = 'throw'): Record<string, string> {
  const service = compose.services[name];
  if (!service) throw new Error(`docker-compose.yml has no service ${name}`);
  return Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v ?? ''), vars, unsetRequired)]));
}

/** The same with `.env.example` as committed: every secret and the mail relay empty. */
export const exampleEnvOf = (name: string) => envOf(name, envExample.set, 'empty');

/** Sign in as staff through the gateway with the code the dev mailbox received. */
export async function signIn(base: string, dataDir: string): Promise<string> {
  const sendOtp = () =>
    fetch(`${base}/api/admin/auth/send-otp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: DEFAULT_ADMIN_EMAIL }),
    });
  const answer = await sendOtp();
  // Its status, headers and body in the message if it is not the answer expected (once, under a loaded CI run, it
  // was an empty body).
  const text = await answer.text();
  if (answer.status !== 200 || !text) {
    throw new Error(`send-otp answered ${answer.status} ${JSON.stringify(Object.fromEntries(answer.headers))}: ${JSON.stringify(text.slice(0, 500))}`);
  }
  const sent = JSON.parse(text) as { sessionId: string };
  const otp = await mailedCode(dataDir, sent.sessionId);
  const session = (await (await fetch(`${base}/api/admin/auth/verify-otp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sessionId: sent.sessionId, otp }),
  })).json()) as { token: string };
  return session.token;
}


/** The code auth mailed for one code request, from the dev mailbox, once the outbox has delivered it. */
async function mailedCode(dataDir: string, sessionId: string): Promise<string> {
  const mailDir = path.join(dataDir, 'mail');
  // Until the outbox has delivered it (the test's own timeout is the bound, not a count of tries).
  for (;;) {
    for (const name of fs.existsSync(mailDir) ? fs.readdirSync(mailDir) : []) {
      const mail = fs.readFileSync(path.join(mailDir, name), 'utf8');
      const otp = mail.includes(`otp-${sessionId}@`) ? /sign-in code is (\d{6})/.exec(mail)?.[1] : undefined;
      if (otp) return otp;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Signs a buyer in (issue 35) at `base` (the gateway or auth) with the mailed code; the session token of its cookie. */
export async function signInBuyer(base: string, dataDir: string, email: string): Promise<string> {
  const post = (p: string, body: unknown) => fetch(`${base}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const sent = await post('/api/account/sign-in/code', { email });
  if (sent.status !== 200) throw new Error(`buyer code: ${sent.status} ${await sent.text()}`);
  const { sessionId } = (await sent.json()) as { sessionId: string };
  const verified = await post('/api/account/sign-in/verify', { sessionId, otp: await mailedCode(dataDir, sessionId) });
  const token = /fl_buyer=([^;]+)/.exec(verified.headers.get('set-cookie') ?? '')?.[1];
  if (verified.status !== 200 || !token) throw new Error(`buyer verify: ${verified.status} ${await verified.text()}`);
  return token;
}
