import net from 'node:net';

/** What came back for a raw request: the final status (null when the connection ended without one) and timings. */
export interface RawAnswer {
  /** The first non-1xx status line's code; null when the server closed without answering, or on a hang. */
  status: number | null;
  /** Response head and body as latin1 text (enough to read headers and a JSON error). */
  text: string;
  /** True when nothing ended the exchange within the timeout. */
  hung: boolean;
  ms: number;
}

/**
 * Send bytes as they are over a fresh TCP connection and read until the server closes it. Unlike an HTTP client, it
 * sends whatever it is given (broken request lines, bare CR/LF in headers, bad chunking), which is what a hostile
 * client does. Requests should say `Connection: close`; `pace` writes the parts with pauses (slow clients).
 */
export function rawRequest(
  port: number,
  request: Buffer | string | (Buffer | string)[],
  opts: { timeoutMs?: number; paceMs?: number; host?: string } = {},
): Promise<RawAnswer> {
  const parts = Array.isArray(request) ? request : [request];
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: opts.host ?? '127.0.0.1' });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (hung: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const finals = [...text.matchAll(/^HTTP\/1\.[01] (\d{3})/gm)].map((m) => Number(m[1])).filter((s) => s >= 200);
      resolve({ status: finals[0] ?? null, text, hung, ms: performance.now() - started });
    };
    const timer = setTimeout(() => finish(true), opts.timeoutMs ?? 15_000);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => finish(false));
    // A reset after the answer was read is the server closing a connection we were still writing to: fine.
    socket.on('error', () => finish(false));
    socket.on('connect', async () => {
      for (const [i, part] of parts.entries()) {
        if (settled || socket.destroyed) return;
        if (i > 0 && opts.paceMs) await new Promise((r) => setTimeout(r, opts.paceMs));
        if (settled || socket.destroyed) return;
        socket.write(part);
      }
    });
  });
}

/** One HTTP/1.1 request as bytes, `Connection: close` and a correct Content-Length added unless given. */
export function httpRequest(
  method: string,
  target: string,
  headers: [string, string][],
  body: Buffer | string = '',
): Buffer {
  const payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const names = new Set(headers.map(([n]) => n.toLowerCase()));
  const all: [string, string][] = [...headers];
  if (!names.has('connection')) all.push(['Connection', 'close']);
  if (!names.has('content-length') && !names.has('transfer-encoding') && (payload.length || !['GET', 'HEAD'].includes(method))) {
    all.push(['Content-Length', String(payload.length)]);
  }
  const head = `${method} ${target} HTTP/1.1\r\n${all.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'utf8'), payload]);
}
