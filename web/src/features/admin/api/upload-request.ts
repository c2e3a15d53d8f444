import { ApiError } from '../../../lib/api-client.ts';

/**
 * A multipart upload with real progress: fetch cannot report upload progress, XMLHttpRequest can.
 * Sends the session cookie; a non-OK response throws ApiError with "<status>: <body text>"
 * like apiFetch does (spec section 7). `onProgress` gets 0-100 as the browser reports bytes sent.
 */
export function uploadWithProgress<T>(
  path: string,
  body: FormData,
  opts: { onProgress?: (percent: number) => void; signal?: AbortSignal } = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) opts.onProgress?.(Math.min(99, Math.round((e.loaded / e.total) * 100)));
    };
    xhr.onload = () => {
      const text = xhr.responseText ?? '';
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(new ApiError(xhr.status, `${xhr.status}: ${text || xhr.statusText}`));
        return;
      }
      opts.onProgress?.(100);
      try {
        resolve((text ? JSON.parse(text) : undefined) as T);
      } catch {
        resolve(text as T);
      }
    };
    xhr.onerror = () => reject(new ApiError(0, '0: Network error'));
    xhr.onabort = () => reject(new ApiError(0, '0: Upload cancelled'));
    opts.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

/** The server's message from an ApiError's "<status>: <body>" text, for toasts. */
export function uploadErrorMessage(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const body = err.message.replace(/^\d+: /, '');
  try {
    const parsed = JSON.parse(body) as { message?: string };
    if (parsed.message) return parsed.message;
  } catch {
    /* not JSON */
  }
  return body;
}
