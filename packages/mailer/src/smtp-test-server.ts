import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message a test SMTP server took. */
export interface ReceivedMail {
  messageId: string;
  /** The envelope's sender (MAIL FROM). */
  from: string;
  to: string[];
  /** The whole message as sent (headers and body). */
  data: string;
}

export interface TestSmtp {
  /** smtp://127.0.0.1:<port> */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * For tests: a real SMTP server (the `smtp-server` package) on 127.0.0.1 that takes every message and pushes it
 * onto `received`. Given a port it starts there, so a test can stop it (an outage: connections are refused) and
 * start it again where the service under test expects it. With `refuse` it answers every recipient with that
 * SMTP error (a server that is up but will not take mail now).
 */
export async function startTestSmtp(received: ReceivedMail[], port = 0, refuse?: { code: number; message: string }): Promise<TestSmtp> {
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onRcptTo(_address, _session, cb) {
      cb(refuse ? Object.assign(new Error(refuse.message), { responseCode: refuse.code }) : undefined);
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const data = Buffer.concat(chunks).toString('utf8');
        received.push({
          messageId: /^Message-ID:\s*(<[^>]+>)/im.exec(data)?.[1] ?? '(none)',
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data,
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${bound}`,
    port: bound,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
