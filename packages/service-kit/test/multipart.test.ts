import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest, rawRequest } from '@forgeline/test-support/raw-http';
import { createServiceApp, finishApp, route } from '../src/http.ts';
import { createLogger } from '../src/logger.ts';
import { receiveMultipart } from '../src/multipart.ts';
import { serve } from '../src/serve.ts';

/** A route that takes one file over real HTTP, as the parts-list match and the uploads do. */
describe('receiveMultipart', () => {
  const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'multipart-test-'));
  let port: number;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const logger = createLogger('multipart-test', 'silent');
    const app = createServiceApp({ name: 'multipart', logger, jsonLimit: false });
    app.post(
      '/upload',
      route(async (req, res) => {
        const received = await receiveMultipart(req, { tmpRoot, fileFields: ['file'], limits: { maxFileBytes: 1024, maxRequestBytes: 64 * 1024, maxFiles: 1 } });
        await received.cleanup();
        res.json({ fields: received.fields, files: received.files.map((f) => f.size) });
      }),
    );
    finishApp(app, logger);
    const served = await serve(app, { port: 0, logger, handleSignals: false });
    port = served.port;
    close = served.close;
  });
  afterAll(async () => {
    await close?.();
    fs.rmSync(tmpRoot, { recursive: true, force: true });
  });

  const post = (body: Buffer) =>
    rawRequest(port, httpRequest('POST', '/upload', [['Host', 'x'], ['Content-Type', 'multipart/form-data; boundary=b']], body));

  it('answers 400 to part headers with control characters and invalid UTF-8, part after part, and lives on', async () => {
    // busboy emits "Malformed part header" once per such part; an unheard second one ended the process.
    const bodies = [
      '--b\r\nContent-Disposition: form-data; name="a\x01\xff"\r\n\r\nx\r\n--b\r\nContent-Disposition: form-data; name="\x00\xfe"\r\n\r\ny\r\n--b--\r\n',
      '--b\r\n\x01\r\n\r\nx\r\n--b\r\n\x02\r\n\r\ny\r\n--b\r\n\x03\x80\r\n\r\nz\r\n--b--\r\n',
      `--b\r\nCont\x01ent-Type: x\r\n\r\n${'x'.repeat(40_000)}\r\n--b\r\nX\x02: y\r\n\r\ny\r\n--b--\r\n`,
    ];
    for (const body of bodies) {
      const answer = await post(Buffer.from(body, 'latin1'));
      expect(answer.status, answer.text).toBe(400);
      expect(answer.text).toContain('Malformed multipart request: Malformed part header');
    }
    const good = await post(Buffer.from('--b\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nsku\r\n--b--\r\n'));
    expect(good.status, good.text).toBe(200);
    expect(good.text).toContain('"files":[3]');
    expect(fs.readdirSync(tmpRoot), 'temp folders left').toEqual([]);
  });

  it('answers 413 to a request over its size while a malformed part follows, and keeps nothing', async () => {
    const body = Buffer.concat([
      Buffer.from('--b\r\nContent-Disposition: form-data; name="other"; filename="big.bin"\r\n\r\n'),
      Buffer.alloc(70 * 1024, 1),
      Buffer.from('\r\n--b\r\n\x01\r\n\r\nx\r\n--b--\r\n', 'latin1'),
    ]);
    // Chunked, so no declared length refuses it first: the limit is met while reading.
    const head = httpRequest('POST', '/upload', [['Host', 'x'], ['Content-Type', 'multipart/form-data; boundary=b'], ['Transfer-Encoding', 'chunked']]);
    const answer = await rawRequest(port, Buffer.concat([head, Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]));
    expect(answer.status, answer.text).toBe(413);
    expect(answer.text).toContain('larger than 0.1 MB per request');
    expect(fs.readdirSync(tmpRoot)).toEqual([]);
  });
});
