/**
 * The purchase-order document a buyer may attach when accepting a quote (issue 34): a PDF of at most
 * QUOTE_PO_DOCUMENT.maxMb, checked by its bytes (a renamed image or page is refused, whatever its name or declared
 * type), kept in the documents store beside the order it belongs to.
 */
import { open } from 'node:fs/promises';
import type { Request } from 'express';
import { QUOTE_PO_DOCUMENT } from '@forgeline/contracts/quote-view';
import { HttpError } from '@forgeline/service-kit/errors';
import { receiveMultipart, type ReceivedFile } from '@forgeline/service-kit/multipart';

const MB = 1024 * 1024;

export interface ReceivedAccept {
  /** The accept's JSON body, unparsed (the route validates it with the contract). */
  body: unknown;
  file: (ReceivedFile & { name: string }) | null;
  cleanup(): Promise<void>;
}

/**
 * A multipart accept: the JSON in the part `body`, the document in `poDocument`. The file is streamed to a temp
 * folder (never whole in memory) and checked to be a PDF; over the limit a 413 saying it, not a PDF a 400 naming
 * the field.
 */
export async function receiveAcceptWithDocument(req: Request, opts: { tmpRoot: string; maxBytes: number }): Promise<ReceivedAccept> {
  const received = await receiveMultipart(req, {
    tmpRoot: opts.tmpRoot,
    fileFields: [QUOTE_PO_DOCUMENT.field],
    // The JSON part is small (the accept's 16 kB); the rest of the room is the document's.
    limits: { maxFileBytes: opts.maxBytes, maxRequestBytes: opts.maxBytes + 64 * 1024, maxFiles: 1 },
  });
  try {
    if (received.ignored.length) {
      throw new HttpError(400, `Invalid body: the only file taken is "${QUOTE_PO_DOCUMENT.field}" (got ${received.ignored.join(', ')})`, [
        { path: QUOTE_PO_DOCUMENT.field, message: 'the only file field' },
      ]);
    }
    const raw = received.fields[QUOTE_PO_DOCUMENT.bodyField];
    if (raw === undefined) {
      throw new HttpError(400, `Invalid body: the accept's JSON goes in the part "${QUOTE_PO_DOCUMENT.bodyField}"`, [
        { path: QUOTE_PO_DOCUMENT.bodyField, message: 'is required' },
      ]);
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      throw new HttpError(400, `Invalid body: the part "${QUOTE_PO_DOCUMENT.bodyField}" is not valid JSON`, [
        { path: QUOTE_PO_DOCUMENT.bodyField, message: 'not valid JSON' },
      ]);
    }
    const file = received.files[0];
    // A form's empty file input sends a part with no name and no bytes: no document.
    if (!file || (file.size === 0 && file.filename === 'unnamed')) return { body, file: null, cleanup: received.cleanup };
    if (!(await isPdf(file.path))) {
      throw new HttpError(400, `Invalid body: "${file.filename}" is not a PDF document; attach your purchase order as a PDF.`, [
        { path: QUOTE_PO_DOCUMENT.field, message: `must be a PDF document ("${displayName(file.filename)}" is not one)` },
      ]);
    }
    return { body, file: { ...file, name: displayName(file.filename) }, cleanup: received.cleanup };
  } catch (err) {
    await received.cleanup();
    throw err;
  }
}

/** A PDF starts with `%PDF-` (readers accept it anywhere in the first 1,024 bytes; so does this). */
export async function isPdf(filePath: string): Promise<boolean> {
  const handle = await open(filePath, 'r');
  try {
    const head = Buffer.alloc(1024);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead).includes('%PDF-');
  } finally {
    await handle.close();
  }
}

/** The buyer's file name, for staff to see: no folders, no control characters, at most 120 characters, `.pdf`. */
export function displayName(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim().slice(0, 120);
  if (!clean || clean === 'unnamed') return 'purchase-order.pdf';
  return /\.pdf$/i.test(clean) ? clean : `${clean}.pdf`;
}

/** Where an order's document lives in the documents store. */
export const poDocumentKey = (quoteId: string, orderId: string) => `po/${encodeURIComponent(quoteId).replace(/[^A-Za-z0-9_.-]/g, '_')}/${orderId}.pdf`;

export const PO_DOCUMENT_MAX_BYTES = QUOTE_PO_DOCUMENT.maxMb * MB;
