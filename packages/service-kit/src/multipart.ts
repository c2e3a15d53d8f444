import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request } from 'express';
import busboy from 'busboy';
import { HttpError } from './errors.ts';

export interface ReceivedFile {
  field: string;
  /** The name the browser gave (only for messages; never used as a path). */
  filename: string;
  path: string;
  size: number;
  /** The SHA-256 of the content in hex, cut to `hashLength` digits when the caller asks. */
  hash: string;
}

export interface Received {
  fields: Record<string, string>;
  files: ReceivedFile[];
  /** Files sent under a field this call does not take. */
  ignored: string[];
  cleanup(): Promise<void>;
}

export interface MultipartLimits {
  maxFileBytes: number;
  maxRequestBytes: number;
  maxFiles: number;
}

/** A refused upload, with the text fields read before it was refused (a form shown again keeps what was typed). */
export class MultipartRefused extends HttpError {
  constructor(
    cause: HttpError,
    readonly fields: Record<string, string>,
  ) {
    super(cause.status, cause.message, cause.issues);
  }
}

const mb = (n: number) => `${Math.round((n / (1024 * 1024)) * 10) / 10} MB`;

/**
 * Stream a multipart request to temp files (one folder per request under tmpRoot), hashing as it
 * goes; nothing is held whole in memory. Over a limit: 413 with a message saying which. The request is
 * read to its end before answering so the client sees the 413 rather than a reset connection.
 */
export async function receiveMultipart(
  req: Request,
  opts: { tmpRoot: string; fileFields: string[]; limits: MultipartLimits; hashLength?: number },
): Promise<Received> {
  const type = req.headers['content-type'] ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    throw new HttpError(400, 'Send the upload as multipart/form-data');
  }
  const { limits } = opts;
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limits.maxRequestBytes) {
    req.resume();
    throw new HttpError(413, `The upload is ${mb(declared)}; at most ${mb(limits.maxRequestBytes)} per request`);
  }
  const dir = path.join(opts.tmpRoot, randomUUID());
  await mkdir(dir, { recursive: true });
  const cleanup = () => rm(dir, { recursive: true, force: true });

  const fields: Record<string, string> = {};
  const files: ReceivedFile[] = [];
  const ignored: string[] = [];
  const writes: Promise<void>[] = [];
  let failure: HttpError | null = null;
  let received = 0;
  let counter = 0;
  let abandoned = false;
  const fail = (err: HttpError) => {
    failure ??= err;
  };

  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: req.headers,
      limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles, fields: 50, fieldSize: 64 * 1024, parts: limits.maxFiles + 50 },
    });
  } catch (err) {
    await cleanup();
    throw new HttpError(400, `Malformed multipart request: ${(err as Error).message}`);
  }

  bb.on('field', (name, value) => {
    fields[name] = value;
  });
  bb.on('file', (field, stream, info) => {
    const filename = info.filename || 'unnamed';
    if (failure || !opts.fileFields.includes(field)) {
      if (!failure) ignored.push(`${field}: ${filename}`);
      // A form cut off inside this part errors this stream too: busboy's own 'error' reports it (below); unheard here,
      // it would crash the process.
      stream.on('error', () => {});
      stream.resume();
      return;
    }
    const target = path.join(dir, `${String(counter++).padStart(5, '0')}-${randomUUID()}`);
    const hash = createHash('sha256');
    let size = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        hash.update(chunk);
        cb(null, chunk);
      },
    });
    stream.on('limit', () => fail(new HttpError(413, `File "${filename}" is larger than ${mb(limits.maxFileBytes)}`)));
    writes.push(
      pipeline(stream, tap, createWriteStream(target)).then(
        () => {
          if (!(stream as { truncated?: boolean }).truncated) {
            files.push({ field, filename, path: target, size, hash: hash.digest('hex').slice(0, opts.hashLength ?? 64) });
          }
        },
        (err: Error) => fail(new HttpError(400, `Upload of "${filename}" broke off: ${err.message}`)),
      ),
    );
  });
  bb.on('filesLimit', () => fail(new HttpError(413, `At most ${limits.maxFiles} file(s) per request`)));
  bb.on('partsLimit', () => fail(new HttpError(413, 'Too many parts in this request')));

  let settle!: () => void;
  let reject!: (err: Error) => void;
  const done = new Promise<void>((res, rej) => {
    settle = res;
    reject = rej;
  });
  /**
   * Stop parsing (an error or a limit), read the rest of the request to its end, then answer with the failure: the
   * client sees the 4xx rather than a reset connection. busboy goes on after some errors (a malformed part header is
   * emitted once per such part), so the error listener below stays for good: one unheard 'error' ends the process.
   */
  const abandon = (err: HttpError) => {
    if (abandoned) return;
    abandoned = true;
    failure ??= err;
    req.unpipe(bb);
    bb.destroy();
    req.resume();
    if (req.readableEnded) settle();
    else req.once('end', settle);
  };
  bb.once('close', () => !abandoned && settle());
  bb.on('error', (err: Error) => abandon(new HttpError(400, `Malformed multipart request: ${err.message}`)));
  req.on('error', (err: Error) => reject(new HttpError(400, `The upload broke off: ${err.message}`)));
  req.once('aborted', () => reject(new HttpError(400, 'The upload was aborted by the client')));
  req.once('close', () => !req.readableEnded && reject(new HttpError(400, 'The upload ended before its body did')));
  req.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > limits.maxRequestBytes) abandon(new HttpError(413, `The upload is larger than ${mb(limits.maxRequestBytes)} per request`));
    // A client that keeps sending far past the limit is cut off.
    if (received > limits.maxRequestBytes * 4 + 10 * 1024 * 1024) req.destroy();
  });
  req.pipe(bb);

  try {
    await done;
    await Promise.all(writes);
  } catch (err) {
    await cleanup();
    throw refused(failure ?? err, fields);
  }
  if (failure) {
    await cleanup();
    throw refused(failure, fields);
  }
  // Order by arrival (writes may finish out of order).
  files.sort((a, b) => a.path.localeCompare(b.path, 'en', { numeric: true }));
  return { fields, files, ignored, cleanup };
}

const refused = (err: unknown, fields: Record<string, string>) => (err instanceof HttpError ? new MultipartRefused(err, fields) : err);
