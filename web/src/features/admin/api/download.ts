import { ApiError } from '../../../lib/api-client.ts';

/**
 * Saves what an admin GET answers (a CSV export) as a file, with the session cookie. Fetched rather than linked so
 * an expired session is a clear error (ApiError 401), not a JSON page opening in the tab. `fallbackName` is used
 * when the answer names no file.
 */
export async function downloadWithSession(path: string, fallbackName: string): Promise<void> {
  const res = await fetch(path, { credentials: 'same-origin' });
  if (!res.ok) throw new ApiError(res.status, `${res.status}: ${await res.text().catch(() => res.statusText)}`);
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
