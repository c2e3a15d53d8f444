import type { z } from 'zod';

/** An error that knows its HTTP status; anything else thrown becomes a 500. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues?: { path: string; message: string }[],
    /** More fields for the JSON answer (a 410's way to what replaced the thing). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new HttpError(404, `${what} not found`);
export const badRequest = (message: string) => new HttpError(400, message);

/** Turn zod issues into "limit: must be at most 100" lines that name the field. */
export function describeIssues(issues: z.core.$ZodIssue[]) {
  return issues.map((i) => ({ path: i.path.map(String).join('.') || '(body)', message: i.message }));
}

/** Parse input with a contract schema; on failure a 400 whose message names each bad field. */
export function parseInput<S extends z.ZodType>(schema: S, data: unknown, where: 'query' | 'body' | 'params'): z.infer<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issues = describeIssues(result.error.issues);
  const summary = issues.map((i) => `${i.path} ${i.message}`).join('; ');
  throw new HttpError(400, `Invalid ${where}: ${summary}`, issues);
}
