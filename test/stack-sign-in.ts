import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_ADMIN_EMAIL } from '../scripts/lib/stack.ts';

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
  const mailDir = path.join(dataDir, 'mail');
  let otp: string | undefined;
  // Until the outbox has delivered it (the test's own timeout is the bound, not a count of tries).
  while (!otp) {
    for (const name of fs.existsSync(mailDir) ? fs.readdirSync(mailDir) : []) {
      const mail = fs.readFileSync(path.join(mailDir, name), 'utf8');
      if (mail.includes(`otp-${sent.sessionId}@`)) otp = /sign-in code is (\d{6})/.exec(mail)?.[1];
    }
    if (!otp) await new Promise((r) => setTimeout(r, 100));
  }
  const session = (await (await fetch(`${base}/api/admin/auth/verify-otp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sessionId: sent.sessionId, otp }),
  })).json()) as { token: string };
  return session.token;
}

