import { REQUEST_ID_HEADER, SERVICE_TOKEN_HEADER } from '@forgeline/contracts/common';
import { HttpError } from './errors.ts';
import { inSpan, SpanKind, traceHeaders } from './tracing.ts';

/** Calls another service's /internal routes with the shared token, a timeout and the request id passed on. */
/** A span per call (when tracing is on), its `traceparent` sent on, so the other service's span is its child. */
export function createServiceClient(baseUrl: string, serviceToken: string, timeoutMs = 5_000) {
  const host = new URL(baseUrl).host;
  return async function call<T>(
    method: string,
    path: string,
    body?: unknown,
    opts: { requestId?: string } = {},
  ): Promise<T> {
    const send = () =>
      fetch(new URL(path, baseUrl), {
        method,
        headers: {
          [SERVICE_TOKEN_HEADER]: serviceToken,
          ...(opts.requestId ? { [REQUEST_ID_HEADER]: opts.requestId } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...traceHeaders(),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    const res = await inSpan(`${method} ${host}`, { 'http.request.method': method, 'server.address': host }, send, { kind: SpanKind.CLIENT });
    const text = await res.text();
    if (!res.ok) {
      let message = text || res.statusText;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? message;
      } catch {
        /* not JSON: keep the text */
      }
      throw new HttpError(res.status >= 500 ? 502 : res.status, `${method} ${path} answered ${res.status}: ${message}`);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  };
}
export type ServiceClient = ReturnType<typeof createServiceClient>;
