import { existsSync, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagramUploadResponseSchema, MediaJobStatusSchema } from '@forgeline/contracts/media';
import { AssemblySchema, type Assembly } from '@forgeline/contracts/parts-diagrams';
import { createLogger } from '@forgeline/service-kit/logger';
import { tempDir } from '@forgeline/test-support/net';
import { createLocalObjectStore } from '@forgeline/object-store/local-fs';
import { SERVICE_TOKEN } from '../../catalog/test/harness.ts';
import { createSqliteJobQueue } from '../src/adapters/sqlite/job-queue.ts';
import { createHttpCatalog } from '../src/adapters/catalog-http/catalog.ts';
import { createJobHandlers } from '../src/worker/process-sku.ts';
import { diagramOriginalKey, sha256Prefix } from '../src/domain/keys.ts';
import { MB, asGateway, fileOf, photo, post, startMedia, testProducts, waitForJob, type MediaUnderTest } from './harness.ts';
import { until } from './job-queue.contract.ts';

/**
 * Parts drawings (#38) over HTTP on the real embedded adapters and a real catalog: the upload's checks, the worker's
 * WebP copies, and the assembly that gets the drawing.
 */
let media: MediaUnderTest;
beforeAll(async () => {
  media = await startMedia({ products: testProducts(2) });
});
afterAll(async () => {
  await media?.stop();
});

let made = 0;
async function newAssembly(): Promise<Assembly> {
  const res = await media.catalog.call('/api/admin/assemblies', { method: 'POST', body: { make: 'Caterpillar', model: '320D Excavator', name: `Track roller frame ${++made}` } });
  expect(res.status, res.text).toBe(201);
  return AssemblySchema.parse(res.body);
}
const assemblyOf = async (id: string) => AssemblySchema.parse((await media.catalog.call(`/api/admin/assemblies/${id}`)).body.assembly);

const upload = (assemblyId: string, file?: File, field = 'file') => {
  const form = new FormData();
  if (file) form.append(field, file);
  return post(`${media.url}/api/admin/diagrams/${assemblyId}`, form);
};

/** A drawing whose left half is red and right half transparent, with a script and an onload handler. */
const HOSTILE_SVG = `<?xml version="1.0" encoding="UTF-8"?>
<!-- exported from a CAD tool -->
<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800" viewBox="0 0 1200 800" onload="fetch('/api/admin/api-keys', { method: 'POST' })">
  <script type="text/javascript">document.cookie = 'stolen=' + document.cookie;</script>
  <rect x="0" y="0" width="600" height="800" fill="#ff0000"/>
  <a href="javascript:alert(1)"><text x="700" y="400" font-size="40">12</text></a>
</svg>`;

const download = async (url: string) => {
  const res = await fetch(`${media.url}${url}`);
  expect(res.status, url).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/webp');
  expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  return Buffer.from(await res.arrayBuffer());
};

describe('POST /api/admin/diagrams/{assemblyId}', () => {
  it('turns an SVG with a script and an onload handler into WebP copies with no script, and gives the assembly the drawing', async () => {
    const assembly = await newAssembly();
    const svg = Buffer.from(HOSTILE_SVG);
    const res = await upload(assembly.id, fileOf(svg, 'frame.svg', 'image/svg+xml'));
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const body = DiagramUploadResponseSchema.parse(res.body);
    expect(body).toMatchObject({ success: true, assemblyId: assembly.id });
    expect(body.message).toMatch(/"frame\.svg" \(SVG, 1200 × 800\) uploaded for "Track roller frame \d+"/);

    const status = MediaJobStatusSchema.parse(await waitForJob(media, body.jobId));
    expect(status).toMatchObject({ kind: 'diagram', state: 'completed', progress: 100, images: { total: 1, processed: 1 }, failures: [] });

    const after = await assemblyOf(assembly.id);
    const hash = sha256Prefix(svg);
    // Vector: drawn at 2400 px (its own size is only a default), with 1200 and 800 px copies for phones.
    expect(after.diagram).toEqual({
      url: `/media/diagrams/${hash}-2400.webp`,
      width: 2400,
      height: 1600,
      variants: [
        { width: 1200, url: `/media/diagrams/${hash}-1200.webp` },
        { width: 800, url: `/media/diagrams/${hash}-800.webp` },
      ],
    });
    expect(after.version).toBe(assembly.version + 1);
    expect(after.updatedBy).toBe('ops@example.com');
    const history = (await media.catalog.call(`/api/admin/assemblies/${assembly.id}/history`)).body as { entries: { action: string; actor: string; summary: string }[] };
    expect(history.entries[0]).toMatchObject({ action: 'diagram', actor: 'ops@example.com', summary: 'new drawing (2400 × 1600)' });

    for (const [url, width, height] of [[after.diagram!.url, 2400, 1600], ...after.diagram!.variants!.map((v) => [v.url, v.width, (v.width * 2) / 3] as const)] as const) {
      const webp = await download(url as string);
      expect(webp.subarray(0, 4).toString('latin1')).toBe('RIFF');
      expect(webp.subarray(8, 12).toString('latin1')).toBe('WEBP');
      // Pixels only: nothing of the SVG's text (its script, handler or link) is in the copy.
      for (const word of ['script', 'onload', 'cookie', 'javascript', 'svg']) expect(webp.toString('latin1').toLowerCase()).not.toContain(word);
      const meta = await sharp(webp).metadata();
      expect(meta).toMatchObject({ format: 'webp', width, height: Math.round(height), hasAlpha: false });
      expect(meta.exif).toBeUndefined();
      // The drawing was drawn: red on the left, and the transparent half laid on white.
      const { data, info } = await sharp(webp).raw().toBuffer({ resolveWithObject: true });
      const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
      const [r, g, b] = at(Math.round(width * 0.1), Math.round(height * 0.5));
      expect(r).toBeGreaterThan(220);
      expect(g! + b!).toBeLessThan(60);
      expect(at(Math.round(width * 0.95), Math.round(height * 0.1)).every((c) => c > 240)).toBe(true);
    }
    // The original is kept (as uploaded), never served.
    expect((await media.store.list(`diagram-originals/${assembly.id}/`)).length).toBe(1);
    expect((await fetch(`${media.url}/media/diagram-originals/${assembly.id}/x.svg`)).status).toBe(404);
  });

  it('resizes a PNG into its copies, never enlarging it, and takes a JPEG likewise', async () => {
    const assembly = await newAssembly();
    const png = await photo(7, { width: 1600, height: 1000, format: 'png' });
    const res = await upload(assembly.id, fileOf(png, 'scan.png', 'image/png'));
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect((await waitForJob(media, res.body.jobId)).state).toBe('completed');
    const hash = sha256Prefix(png);
    const diagram = (await assemblyOf(assembly.id)).diagram!;
    expect(diagram).toEqual({
      url: `/media/diagrams/${hash}-1600.webp`,
      width: 1600,
      height: 1000,
      variants: [
        { width: 1200, url: `/media/diagrams/${hash}-1200.webp` },
        { width: 800, url: `/media/diagrams/${hash}-800.webp` },
      ],
    });
    for (const { url, width } of [{ url: diagram.url, width: 1600 }, ...diagram.variants!]) {
      expect(await sharp(await download(url)).metadata()).toMatchObject({ width, height: (width * 5) / 8 });
    }

    // A small JPEG: its own size is the largest copy, and there is no smaller one to make but 800 px.
    const jpeg = await photo(8, { width: 1000, height: 500 });
    const again = await upload(assembly.id, fileOf(jpeg, 'photo-of-page.jpg'));
    expect(again.status).toBe(202);
    expect((await waitForJob(media, again.body.jobId)).state).toBe('completed');
    const second = await assemblyOf(assembly.id);
    expect(second.diagram).toEqual({
      url: `/media/diagrams/${sha256Prefix(jpeg)}-1000.webp`,
      width: 1000,
      height: 500,
      variants: [{ width: 800, url: `/media/diagrams/${sha256Prefix(jpeg)}-800.webp` }],
    });
    expect(second.version).toBe(3);
  });

  it('refuses a 50 MB drawing with 413 before reading it, and keeps nothing of it', async () => {
    const assembly = await newAssembly();
    const res = await upload(assembly.id, fileOf(Buffer.alloc(50 * MB, 0x41), 'huge.png', 'image/png'));
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/^A drawing may be at most 25 MB \(The upload is 50 MB; at most 26 MB per request\)$/);
    expect(res.body.issues).toEqual([{ path: 'file', message: 'is larger than 25 MB' }]);

    // Sent without a declared length (a stream): cut off at 25 MB, never taken whole.
    const form = new FormData();
    form.append('file', fileOf(Buffer.alloc(30 * MB, 0x41), 'huge.png', 'image/png'));
    const encoded = new Response(form);
    const streamed = await fetch(`${media.url}/api/admin/diagrams/${assembly.id}`, {
      method: 'POST',
      body: encoded.body,
      duplex: 'half',
      headers: { 'content-type': encoded.headers.get('content-type')!, ...(await asGateway()) },
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as { message: string }).message).toMatch(/^A drawing may be at most 25 MB \(File "huge\.png" is larger than 25 MB\)$/);

    expect(await media.store.list(`diagram-originals/${assembly.id}/`)).toEqual([]);
    expect((await assemblyOf(assembly.id)).version).toBe(1);
  });

  it('refuses a text file, whatever its name, with 400 naming the field', async () => {
    const assembly = await newAssembly();
    const res = await upload(assembly.id, fileOf(Buffer.from('Parts list\n7  1R-0716  Seal\n'.repeat(40)), 'drawing.svg', 'image/svg+xml'));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('"drawing.svg" is not taken as a drawing: not an SVG, PNG or JPEG drawing');
    expect(res.body.issues).toEqual([{ path: 'file', message: 'not an SVG, PNG or JPEG drawing' }]);
    // A photo format the product images take is still not a drawing.
    const webp = await sharp(await photo(9)).webp().toBuffer();
    expect((await upload(assembly.id, fileOf(webp, 'photo.webp'))).status).toBe(400);
    const none = await upload(assembly.id);
    expect(none.status).toBe(400);
    expect(none.body.issues).toEqual([{ path: 'file', message: 'is missing' }]);
    expect((await upload(assembly.id, fileOf(webp, 'photo.webp'), 'image')).status).toBe(400);
  });

  it('refuses bombs: an SVG or PNG declaring too many pixels (413), entity declarations and pictures inside an SVG (400)', async () => {
    const assembly = await newAssembly();
    const huge = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"><rect width="10" height="10"/></svg>');
    const bigSvg = await upload(assembly.id, fileOf(huge, 'huge.svg'));
    expect(bigSvg.status).toBe(413);
    expect(bigSvg.body.message).toMatch(/is 100000 × 100000 pixels; at most 100 megapixels are taken/);

    // A real PNG whose header is rewritten to claim 100,000 × 100,000 pixels (its data stays a few bytes).
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).png().toBuffer();
    png.writeUInt32BE(100_000, 16);
    png.writeUInt32BE(100_000, 20);
    expect((await upload(assembly.id, fileOf(png, 'bomb.png'))).status).toBe(413);

    const laughs = Buffer.from(`<?xml version="1.0"?>
<!DOCTYPE svg [ <!ENTITY lol "lol"> <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"> ]>
<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><text>&lol2;</text></svg>`);
    const entities = await upload(assembly.id, fileOf(laughs, 'laughs.svg'));
    expect(entities.status).toBe(400);
    expect(entities.body.message).toMatch(/declares entities/);

    const pictured = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100">${' '.repeat(300_000)}<image xlink:href="data:image/png;base64,AAAA" width="10" height="10"/></svg>`,
    );
    const inner = await upload(assembly.id, fileOf(pictured, 'pictured.svg'));
    expect(inner.status).toBe(400);
    expect(inner.body.message).toMatch(/holds other pictures/);
    expect(await media.store.list(`diagram-originals/${assembly.id}/`)).toEqual([]);
  });

  it('answers 404 for an unknown assembly and 400 for an id that cannot be one', async () => {
    const svg = fileOf(Buffer.from(HOSTILE_SVG), 'frame.svg');
    const unknown = await upload('no-such-assembly', svg);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Assembly no-such-assembly not found');
    const bad = await upload('NOT_AN_ID', svg);
    expect(bad.status).toBe(400);
    expect(bad.body.issues).toEqual([{ path: 'assemblyId', message: 'must be an assembly id' }]);
  });

  it('is refused without the gateway assertion', async () => {
    const form = new FormData();
    form.append('file', fileOf(Buffer.from(HOSTILE_SVG), 'frame.svg'));
    const res = await fetch(`${media.url}/api/admin/diagrams/some-id`, { method: 'POST', body: form });
    expect(res.status).toBe(401);
  });

  it('leaves no temp files behind', async () => {
    const tmp = path.join(media.dataDir, 'tmp');
    expect(existsSync(tmp) ? readdirSync(tmp) : []).toEqual([]);
  });
});

/**
 * A TCP gate in front of the catalog: shut, it drops every connection (the catalog is down); open, it passes them on.
 */
async function gateTo(target: string) {
  const { hostname, port } = new URL(target);
  let open = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!open) return void client.destroy();
    const upstream = net.connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const end = () => (client.destroy(), upstream.destroy());
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    open: () => void (open = true),
    // Kept-alive connections would hold the server open: they are cut.
    close: () => new Promise<void>((r) => (server.close(() => r()), sockets.forEach((s) => s.destroy()))),
  };
}

describe('process-diagram worker', () => {
  it('retries while the catalog is down, then gives the assembly its drawing', async () => {
    const assembly = await newAssembly();
    const gate = await gateTo(media.catalog.url);
    const tmp = tempDir('media-diagram-worker-');
    const store = createLocalObjectStore(path.join(tmp.dir, 'media'));
    const queue = createSqliteJobQueue(path.join(tmp.dir, 'q.sqlite'), { attempts: 5, backoffMs: 300, pollMs: 10 });
    const logger = createLogger('media', 'silent');
    const worker = await queue.work(createJobHandlers({ store, catalog: createHttpCatalog(gate.url, SERVICE_TOKEN, 2_000), logger }), { concurrency: 1 });
    try {
      const svg = Buffer.from(HOSTILE_SVG.replace('#ff0000', '#0000ff'));
      const hash = sha256Prefix(svg);
      const originalKey = diagramOriginalKey(assembly.id, { at: Date.now(), hash, ext: 'svg' });
      await store.put(originalKey, svg, { contentType: 'application/octet-stream' });
      await queue.add('process-diagram', { assemblyId: assembly.id, originalKey, hash, format: 'svg', batchId: 'dgm-retry', actor: 'ops@example.com' }, { jobId: 'dgm-retry.0' });

      // The first attempt made the copies, then found no catalog: the job waits for its next try.
      const waiting = await until(queue, 'dgm-retry.0', ['delayed', 'failed', 'completed']);
      expect(waiting.state).toBe('delayed');
      expect(waiting.failedReason).toMatch(/fetch failed|ECONNRESET|socket|other side closed/i);
      expect(await store.stat(`diagrams/${hash}-2400.webp`)).not.toBeNull();
      expect((await assemblyOf(assembly.id)).diagram).toBeNull();

      gate.open();
      const done = await until(queue, 'dgm-retry.0', ['failed', 'completed']);
      expect(done).toMatchObject({ state: 'completed', result: { assemblyId: assembly.id, superseded: false, catalogUpdated: true } });
      expect(done.attemptsMade).toBeGreaterThan(1);
      expect((await assemblyOf(assembly.id)).diagram?.url).toBe(`/media/diagrams/${hash}-2400.webp`);
    } finally {
      await worker.close();
      await queue.close();
      await gate.close();
      tmp.remove();
    }
  });

  it('gives the assembly the drawing uploaded last, whichever job ends first, and fails for good when the assembly is gone', async () => {
    const assembly = await newAssembly();
    const tmp = tempDir('media-diagram-worker-');
    const store = createLocalObjectStore(path.join(tmp.dir, 'media'));
    const queue = createSqliteJobQueue(path.join(tmp.dir, 'q.sqlite'), { attempts: 3, backoffMs: 10, pollMs: 10 });
    const logger = createLogger('media', 'silent');
    const catalog = createHttpCatalog(media.catalog.url, SERVICE_TOKEN);
    try {
      const older = Buffer.from(HOSTILE_SVG.replace('#ff0000', '#00ff00'));
      const newer = Buffer.from(HOSTILE_SVG.replace('#ff0000', '#ff00ff'));
      const keys = [older, newer].map((b, i) => diagramOriginalKey(assembly.id, { at: 1_000 + i, hash: sha256Prefix(b), ext: 'svg' }));
      await store.put(keys[0]!, older, { contentType: 'application/octet-stream' });
      await store.put(keys[1]!, newer, { contentType: 'application/octet-stream' });
      // The newer upload's job is taken first; the older one's, run after, must not put its drawing back.
      await queue.add('process-diagram', { assemblyId: assembly.id, originalKey: keys[1]!, hash: sha256Prefix(newer), format: 'svg', batchId: 'b2', actor: 'a@example.com' }, { jobId: 'b2.0' });
      const worker = await queue.work(createJobHandlers({ store, catalog, logger }), { concurrency: 1 });
      await until(queue, 'b2.0', ['completed', 'failed']);
      await queue.add('process-diagram', { assemblyId: assembly.id, originalKey: keys[0]!, hash: sha256Prefix(older), format: 'svg', batchId: 'b1', actor: 'a@example.com' }, { jobId: 'b1.0' });
      expect(await until(queue, 'b1.0', ['completed', 'failed'])).toMatchObject({ state: 'completed', result: { superseded: true, catalogUpdated: false, diagram: null } });
      expect((await assemblyOf(assembly.id)).diagram?.url).toBe(`/media/diagrams/${sha256Prefix(newer)}-2400.webp`);

      // The assembly is deleted before its drawing is done: the job fails at once, saying so.
      expect((await media.catalog.call(`/api/admin/assemblies/${assembly.id}`, { method: 'DELETE' })).status).toBe(204);
      const third = Buffer.from(HOSTILE_SVG.replace('#ff0000', '#00ffff'));
      const key = diagramOriginalKey(assembly.id, { at: 2_000, hash: sha256Prefix(third), ext: 'svg' });
      await store.put(key, third, { contentType: 'application/octet-stream' });
      await queue.add('process-diagram', { assemblyId: assembly.id, originalKey: key, hash: sha256Prefix(third), format: 'svg', batchId: 'b3', actor: 'a@example.com' }, { jobId: 'b3.0' });
      expect(await until(queue, 'b3.0', ['completed', 'failed'])).toMatchObject({ state: 'failed', attemptsMade: 1, failedReason: `Assembly ${assembly.id} no longer exists` });
      await worker.close();
    } finally {
      await queue.close();
      tmp.remove();
    }
  });
});
