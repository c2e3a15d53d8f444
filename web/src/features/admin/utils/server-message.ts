import { ApiError } from '../../../lib/api-client.ts';

/** The server's `message` from an api-client error ("429: {\"message\":\"...\"}"), or null. */
export function serverMessage(err: unknown): string | null {
  if (!(err instanceof Error)) return null;
  const body = err.message.replace(/^\d{3}: /, '');
  try {
    const parsed = JSON.parse(body) as { message?: unknown; error?: unknown };
    const m = parsed.message ?? parsed.error;
    return typeof m === 'string' && m ? m : null;
  } catch {
    return null;
  }
}

export const statusOf = (err: unknown): number | null => (err instanceof ApiError ? err.status : null);
