import { z } from 'zod';
import { API_KEY_PREFIX, sessionCookieName, type ApiKeyScope } from '../admin-access.ts';
import { ErrorBodySchema } from '../common.ts';

/**
 * The pieces every part of the OpenAPI document is made of: a zod contract as JSON Schema, its fields as parameters,
 * request bodies (JSON and multipart), success answers and the error answers each route really gives.
 */

export type JsonSchema = Record<string, unknown>;
/** One operation (GET, POST, …) of a path. */
export type Operation = JsonSchema;
/** Paths → method → operation, as the document's `paths` holds them. */
export type Paths = Record<string, Record<string, Operation>>;

/**
 * A contract as JSON Schema (draft 2020-12, which OpenAPI 3.1 uses): what a client sends (`input`: a query string's
 * number is the string it is sent as, a default may be left out), or what it receives (`output`).
 */
export const schema = (s: z.ZodType, io: 'input' | 'output' = 'output'): JsonSchema => {
  const override = (ctx: { zodSchema: unknown; jsonSchema: JsonSchema }) => {
    if (io === 'input') stringPipeChecks(ctx);
    enumKeyedRecord(ctx);
  };
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any', override }) as JsonSchema;
  return rest;
};

/**
 * A record over an enum (`z.record(StatusSchema, z.number())`: every status, each a number) is an object with exactly
 * those keys. zod writes it as `propertyNames` + `additionalProperties` + `required`, which names properties the
 * schema never defines (Redocly: no-required-schema-properties-undefined) and which renderers show as a bare map; it
 * is written here as the same object with each key a property and no other allowed, which means the same.
 */
function enumKeyedRecord(ctx: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const j = ctx.jsonSchema;
  const keys = (j.propertyNames as { enum?: unknown[] } | undefined)?.enum;
  const value = j.additionalProperties;
  if (j.type !== 'object' || j.properties !== undefined || !keys?.every((k) => typeof k === 'string') || typeof value !== 'object' || value === null) return;
  j.properties = Object.fromEntries((keys as string[]).map((k) => [k, value]));
  j.additionalProperties = false;
  delete j.propertyNames;
}

/**
 * The input side of a text → text pipe (`z.string().trim().pipe(z.email())`) is only its first half: the format and
 * pattern the second half checks are added, so that a client (and the fuzzer) learns the value must be an e-mail
 * address. Only when the first half is a plain string schema (trim and lower-casing, no transform), so the checks
 * apply to the text as sent, give or take surrounding spaces and letter case.
 */
function stringPipeChecks(ctx: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const def = (ctx.zodSchema as z.ZodType)._zod.def as { type: string; in?: z.ZodType; out?: z.ZodType };
  if (def.type !== 'pipe' || def.in?._zod.def.type !== 'string' || def.out?._zod.def.type !== 'string') return;
  if (ctx.jsonSchema.type !== 'string') return;
  const out = z.toJSONSchema(def.out, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  for (const k of ['format', 'pattern']) if (out[k] !== undefined && ctx.jsonSchema[k] === undefined) ctx.jsonSchema[k] = out[k];
}

/** A contract's fields (an object schema, refined or not) as OpenAPI parameters of one location. */
export function parameters(s: z.ZodType, where: 'query' | 'path', descriptions: Record<string, string> = {}): JsonSchema[] {
  const json = schema(s, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, p]) => {
    const description = descriptions[name] ?? (typeof p.description === 'string' ? p.description : undefined);
    return {
      name,
      in: where,
      required: where === 'path' || (json.required ?? []).includes(name),
      schema: p,
      ...(description ? { description } : {}),
    };
  });
}

export const json = (s: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema: schema(s) } } });
export const csv = (description: string) => ({ description, content: { 'text/csv': { schema: { type: 'string' } } } });
/** A JSON request body, as the route's contract parses it. */
export const body = (s: z.ZodType) => ({ required: true, content: { 'application/json': { schema: schema(s, 'input') } } });

/** A file part of a multipart body. */
export const binary = (description?: string): JsonSchema => ({ type: 'string', format: 'binary', ...(description ? { description } : {}) });

/** A multipart/form-data body: its parts (files as `binary`, text fields from the contract) and which are required. */
export const multipart = (properties: Record<string, JsonSchema>, required: string[]) => ({
  required: true,
  content: { 'multipart/form-data': { schema: { type: 'object', properties, required } } },
});

/** The text fields of a multipart body, from the contract that parses them. */
export function formFields(s: z.ZodType): { properties: Record<string, JsonSchema>; required: string[] } {
  const json = schema(s, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return { properties: json.properties ?? {}, required: json.required ?? [] };
}

/** Every error answer: a message naming what was wrong, the request id, and for a 400 each bad field. */
export const ErrorSchema = ErrorBodySchema.extend({ message: z.string().describe('What was wrong, naming the field') });

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input: the message names each bad field',
  401: 'No valid session or API credentials',
  403: 'Not allowed: an API key outside its scopes, or on a call for signed-in staff only',
  404: 'Not found',
  409: 'Conflicts with what exists',
  410: 'Gone: taken off the storefront',
  412: 'Changed by someone else since it was read (If-Match did not match)',
  413: 'Too large: the message gives the limit',
  422: 'Nothing usable: the message and `issues` name each file or SKU skipped, and why',
  428: 'If-Match is required',
  429: 'Too many requests: try again later',
  502: 'The image could not be processed',
  503: 'A service this call needs cannot answer right now: try again shortly',
};

/** An error code, or a code with a description of what it means on this route. */
export type ErrorCode = number | [number, string];

/** The error body is written once, in the document's components, and referred to by every error answer. */
export const ERROR_COMPONENT = { Error: schema(ErrorSchema) };
const errorBody = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/** Error answers by code, each with the error body. */
export const errors = (...codes: ErrorCode[]) =>
  Object.fromEntries(
    codes.map((c) => {
      const [code, description] = Array.isArray(c) ? c : [c, ERROR_DESCRIPTIONS[c] ?? 'Error'];
      return [String(code), { description, content: errorBody }];
    }),
  );

/**
 * What the gateway's admin check answers before the service sees the call: 401 without a valid credential, 403 for a
 * key outside its scopes (or any key on a staff-only call), 503 when the sign-in service cannot check it; on the calls
 * a key may make, 429 past the key's calls a minute.
 */
export const ADMIN_ERRORS: ErrorCode[] = [401, 403, 503];
export const KEY_ERRORS: ErrorCode[] = [...ADMIN_ERRORS, [429, 'Too many calls with this API key: at most 600 a minute']];

/**
 * The credentials the gateway's admin check takes (gateway/src/admin-auth.ts), as the document's security schemes. A
 * call lists the ones it accepts, any one of them being enough; a public call lists none (`security: []`).
 */
export const SECURITY_SCHEMES = {
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: sessionCookieName(false),
    description:
      `The admin panel's session: the cookie verify-otp sets (\`${sessionCookieName(true)}\` when the site is served over https). ` +
      'A change made with it must come from the site itself (its Origin, or Sec-Fetch-Site: same-origin), else 403.',
  },
  sessionToken: {
    type: 'http',
    scheme: 'bearer',
    description: "A signed-in member of staff's session token (the `token` verify-otp answers), for scripts: `Authorization: Bearer <token>`.",
  },
  buyerCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'fl_buyer',
    description:
      "A buyer's session (issue 35): the cookie /api/account/sign-in/verify sets (`__Host-fl_buyer` over https). A change made with it must come " +
      'from the site itself (its Origin, or Sec-Fetch-Site: same-origin), else 403. No staff call takes it, and no buyer call a staff session.',
  },
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: `${API_KEY_PREFIX}…`,
    description:
      "An API key made in the admin panel (API keys tab), for the seller's own systems: `Authorization: Bearer flk_…`. It works only on " +
      'the catalogue and quote-inbox calls that list it, within the scope they name, at most 600 calls a minute; every call made with it ' +
      'is in the audit log.',
  },
} as const;

/** An operation's `security`: any one of its requirements is enough. */
export type Security = Partial<Record<keyof typeof SECURITY_SCHEMES, string[]>>[];

/** A call anyone may make. */
export const open: Security = [];
/** A signed-in buyer (the fl_buyer cookie). */
export const buyer: Security = [{ buyerCookie: [] }];
/** Signed-in staff only (the panel's cookie or a session token); an API key is refused with 403. */
export const staff: Security = [{ sessionCookie: [] }, { sessionToken: [] }];
/**
 * Signed-in staff, or an API key with the scope (the gateway's route table gives a key `<area>:read` for GET and HEAD,
 * `<area>:write` for the rest). OpenAPI 3.1 lets a requirement of a non-OAuth scheme list roles: here, the key's scope.
 */
export const staffOrKey = (scope: ApiKeyScope): Security => [...staff, { apiKey: [scope] }];

/**
 * What every route may answer before it runs, whatever it is sent: request line and headers over 16 kB get 431 from
 * the server itself (service-kit's serve.ts), with no body. Listed on the calls that take no input, whose only client
 * error it is.
 */
export const HEADERS_TOO_LARGE = { 431: { description: 'Request line and headers over 16 kB: answered before any route runs, with no body' } };

/** Optimistic concurrency: the version (ETag) the client read. */
export const ifMatch = (required: boolean, description: string) =>
  ({ name: 'If-Match', in: 'header', required, schema: { type: 'string' }, description }) as const;

/** A path parameter that the route takes as any text (the lookup answers 404 for what does not exist). */
export const textId = (description: string) => z.object({ id: z.string().describe(description) });
