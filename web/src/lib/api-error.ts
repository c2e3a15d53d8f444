import { ApiError } from './api-client.ts';

/**
 * The server's `message` from an apiFetch error, whose message is "<status>: <body>" (e.g.
 * `429: {"message":"Too many ..."}`); null when the body is not JSON or carries no message. An `error` field is
 * read when there is no `message`.
 */
export function serverMessage(err: unknown): string | null {
  if (!(err instanceof Error)) return null;
  try {
    const parsed = JSON.parse(err.message.replace(/^\d{3}: /, '')) as { message?: unknown; error?: unknown } | null;
    const m = parsed?.message ?? parsed?.error;
    return typeof m === 'string' && m ? m : null;
  } catch {
    return null;
  }
}

/** The HTTP status of an apiFetch error, or null for anything else (a network failure). */
export const statusOf = (err: unknown): number | null => (err instanceof ApiError ? err.status : null);
