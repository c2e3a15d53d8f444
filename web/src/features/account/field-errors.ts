import { serverMessage } from '../../lib/api-error.ts';

/**
 * A refused form's errors, by field. The API names the field in its message ("unitName: your fleet already has a
 * machine named ...", a 409) or in its 400's `issues` ({ path: "hours", message: "must be whole hours" }); what names
 * no field of the form is `general`.
 */
export function fieldErrors<F extends string>(err: unknown, fields: readonly F[]): { fields: Partial<Record<F, string>>; general: string | null } {
  const out: Partial<Record<F, string>> = {};
  const known = (f: string): f is F => (fields as readonly string[]).includes(f);
  const issues = issuesOf(err);
  for (const i of issues) {
    const field = typeof i.path === 'string' ? i.path.split('.')[0]! : '';
    if (known(field) && typeof i.message === 'string' && !out[field]) out[field] = i.message;
  }
  const message = serverMessage(err);
  if (!issues.length && message) {
    const named = /^(\w+): (.+)$/s.exec(message);
    if (named && known(named[1]!)) out[named[1]] = named[2]!;
  }
  const general = Object.keys(out).length ? null : (message ?? 'It was not saved: check your connection and try again.');
  return { fields: out, general };
}

/** The server's message for a failed call, or what failed in plain words when it sent none (a network failure). */
export const failed = (err: unknown, what: string) => serverMessage(err) ?? `${what} Check your connection and try again.`;

/** The `issues` of a 400's body ("<status>: <json>" in an apiFetch error), or none. */
function issuesOf(err: unknown): { path?: unknown; message?: unknown }[] {
  if (!(err instanceof Error)) return [];
  try {
    const body = JSON.parse(err.message.replace(/^\d{3}: /, '')) as { issues?: unknown } | null;
    return Array.isArray(body?.issues) ? (body.issues as { path?: unknown; message?: unknown }[]) : [];
  } catch {
    return [];
  }
}
