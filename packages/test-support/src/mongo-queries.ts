/*
 * Proof that a MongoDB adapter's queries are served by the indexes it creates. FerretDB (the test server) scans
 * where MongoDB uses an index, so no timing taken here says anything about MongoDB; what can be checked here is the
 * shape of every query the adapter sends against the indexes it creates, by MongoDB's ESR rule. Where Docker runs
 * a real MongoDB, `collscans` asks its planner the same of each recorded query.
 *
 * The recorder hears the adapter's commands through the driver's command monitoring (`monitorCommands: true`,
 * `commandStarted`), both the queries and the `createIndexes` the adapter sends as it connects, so the indexes
 * checked against are the ones the adapter really creates, not a copy kept in a test.
 */
import { describe, expect, it } from 'vitest';

/** What the driver's `commandStarted` event carries that is used here (mongodb's CommandStartedEvent). */
export interface CommandStarted {
  commandName: string;
  databaseName: string;
  command: Record<string, unknown>;
}

export interface IndexSpec {
  name: string;
  key: Record<string, unknown>;
  unique: boolean;
  sparse: boolean;
}

type SortSpec = [field: string, direction: 1 | -1][];

export interface QueryShape {
  collection: string;
  /** The command: find, findAndModify, update, delete, aggregate, distinct. */
  op: string;
  /** The filter with its values left out: `"="` for a value, `["="]` for an `$in` list; operators kept. */
  filter: unknown;
  sort: SortSpec;
  projection: unknown;
  /** `collection op filter sort projection`, one line: what the unindexed list and the failure messages name. */
  text: string;
  /** The first command sent with this shape (with its values), which `collscans` asks MongoDB to explain. */
  example: { databaseName: string; command: Record<string, unknown> };
  /** How many commands had this shape. */
  count: number;
}

/** A query deliberately left without an index: its shape's `text` (as a failure prints it) and why. */
export interface UnindexedQuery {
  shape: string;
  reason: string;
}

/** The commands that carry a query; the rest (inserts, getMore, the handshake, index builds) have nothing to serve. */
const QUERY_COMMANDS = new Set(['find', 'findAndModify', 'update', 'delete', 'aggregate', 'distinct', 'count']);

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** The filter with values replaced, keys sorted: two queries that differ only in their values get one shape. */
function valueless(filter: unknown): unknown {
  if (filter instanceof RegExp) return regexShape(filter.source, filter.flags);
  if (Array.isArray(filter)) return filter.map(valueless);
  if (!isPlainObject(filter)) return filter === null ? null : '=';
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(filter).sort()) {
    const v = filter[key];
    if (key === '$in' || key === '$nin') out[key] = ['='];
    else if (key === '$exists') out[key] = Boolean(v);
    else if (key === '$regex') out[key] = regexShape(v instanceof RegExp ? v.source : String(v), v instanceof RegExp ? v.flags : String(filter.$options ?? ''));
    else if (key === '$options') continue;
    else out[key] = valueless(v);
  }
  return out;
}

/** A regex keeps only what decides whether an index can bound it: anchored at the start, and case. */
const regexShape = (source: string, flags: string) => `/${source.startsWith('^') ? '^…' : '…'}/${flags.includes('i') ? 'i' : ''}`;

/** The driver sends sorts and index keys as Maps (to keep their order); plain objects elsewhere. */
const entriesOf = (spec: unknown): [string, unknown][] =>
  spec instanceof Map ? [...(spec as Map<string, unknown>)] : isPlainObject(spec) ? Object.entries(spec) : [];

const sortOf = (sort: unknown): SortSpec => entriesOf(sort).map(([f, d]) => [f, Number(d) < 0 ? -1 : 1]);

interface SentQuery {
  filter: unknown;
  sort: unknown;
  projection: unknown;
  /** What else decides the shape: the key of a distinct, the stages after an aggregate's $match. */
  note?: string;
  /** The command with only this query in it (an update or delete command may carry several). */
  single: Record<string, unknown>;
}

/** The queries a command carries. */
function queriesOf(name: string, cmd: Record<string, unknown>): SentQuery[] {
  switch (name) {
    case 'find':
      return [{ filter: cmd.filter ?? {}, sort: cmd.sort, projection: cmd.projection, single: cmd }];
    case 'findAndModify':
      return [{ filter: cmd.query ?? {}, sort: cmd.sort, projection: cmd.fields, single: cmd }];
    case 'distinct':
      return [{ filter: cmd.query ?? {}, sort: undefined, projection: undefined, note: `of ${String(cmd.key)}`, single: cmd }];
    case 'count':
      // estimatedDocumentCount: no query, answered from the collection's metadata.
      return isPlainObject(cmd.query) && Object.keys(cmd.query).length ? [{ filter: cmd.query, sort: undefined, projection: undefined, single: cmd }] : [];
    case 'update':
      return ((cmd.updates as Record<string, unknown>[]) ?? []).map((u) => ({ filter: u.q, sort: u.sort, projection: undefined, single: { ...cmd, updates: [u] } }));
    case 'delete':
      return ((cmd.deletes as Record<string, unknown>[]) ?? []).map((d) => ({ filter: d.q, sort: undefined, projection: undefined, single: { ...cmd, deletes: [d] } }));
    case 'aggregate': {
      // Only a leading $match and the $sort right after it (or a leading $sort) can use an index.
      const stages = (cmd.pipeline as Record<string, unknown>[]) ?? [];
      const match = stages[0]?.$match;
      const sort = match !== undefined ? stages[1]?.$sort : stages[0]?.$sort;
      const rest = stages.slice((match !== undefined ? 1 : 0) + (sort !== undefined ? 1 : 0)).map((s) => Object.keys(s)[0]);
      return [{ filter: match ?? {}, sort, projection: undefined, ...(rest.length ? { note: `then ${rest.join(' ')}` } : {}), single: cmd }];
    }
    default:
      return [];
  }
}

/** Records every query shape and every index the adapters send on connections given its `onCommand`. */
export class MongoQueryRecorder {
  private readonly byText = new Map<string, QueryShape>();
  private readonly created = new Map<string, Map<string, IndexSpec>>();

  /** Pass to the adapter's connect (`onCommand`): called with each `commandStarted` event. */
  readonly onCommand = (event: CommandStarted): void => {
    const { commandName: name, command: cmd, databaseName } = event;
    if (name === 'createIndexes') {
      const coll = String(cmd.createIndexes);
      const specs = this.created.get(coll) ?? new Map<string, IndexSpec>();
      for (const ix of (cmd.indexes as Record<string, unknown>[]) ?? []) {
        const name = String(ix.name);
        specs.set(name, { name, key: Object.fromEntries(entriesOf(ix.key)), unique: ix.unique === true, sparse: ix.sparse === true });
      }
      this.created.set(coll, specs);
      return;
    }
    if (!QUERY_COMMANDS.has(name)) return;
    const collection = String(cmd[name]);
    for (const q of queriesOf(name, cmd)) {
      const filter = valueless(q.filter);
      const sort = sortOf(q.sort);
      // Projections are 0s and 1s (mongoose gives no others here): kept as sent.
      const projection = isPlainObject(q.projection) && Object.keys(q.projection).length ? q.projection : undefined;
      const text = [
        collection,
        name,
        JSON.stringify(filter),
        ...(sort.length ? [`sort ${JSON.stringify(Object.fromEntries(sort))}`] : []),
        ...(projection ? [`projection ${JSON.stringify(projection)}`] : []),
        ...(q.note ? [q.note] : []),
      ].join(' ');
      const seen = this.byText.get(text);
      if (seen) seen.count++;
      else this.byText.set(text, { collection, op: name, filter, sort, projection, text, example: { databaseName, command: q.single }, count: 1 });
    }
  };

  shapes(): QueryShape[] {
    return [...this.byText.values()].sort((a, b) => a.text.localeCompare(b.text));
  }

  /** The indexes of a collection the adapter created, with MongoDB's `_id_`, which every collection has. */
  indexes(collection: string): IndexSpec[] {
    return [{ name: '_id_', key: { _id: 1 }, unique: true, sparse: false }, ...(this.created.get(collection)?.values() ?? [])];
  }

  collections(): string[] {
    return [...this.created.keys()].sort();
  }
}

// ---- the ESR rule

type Kind = 'eq' | 'range' | 'exists' | 'residual';
const STRENGTH: Record<Kind, number> = { eq: 3, range: 2, exists: 1, residual: 0 };
/** One conjunction of a filter: what each field's predicate lets an index do with it. */
type Branch = Map<string, Kind>;

/** How an index can use a field's predicate: a point (eq, $in), bounds (range, an anchored case-sensitive regex), only existence, or nothing. */
function kindOf(value: unknown): Kind {
  if (value instanceof RegExp) return regexKind(value.source, value.flags);
  if (!isPlainObject(value) || !Object.keys(value).some((k) => k.startsWith('$'))) return 'eq';
  let best: Kind = 'residual';
  const take = (k: Kind) => {
    if (STRENGTH[k] > STRENGTH[best]) best = k;
  };
  for (const [op, v] of Object.entries(value)) {
    if (op === '$eq' || op === '$in') take('eq'); // $in: a point per value, merged in order for a sort
    else if (op === '$gt' || op === '$gte' || op === '$lt' || op === '$lte') take('range');
    else if (op === '$regex') take(regexKind(v instanceof RegExp ? v.source : String(v), v instanceof RegExp ? v.flags : String(value.$options ?? '')));
    else if (op === '$exists') take(v ? 'exists' : 'residual');
    // $ne, $nin, $not, $elemMatch, $size, $type, $options ...: checked on each document, not bounded by an index.
  }
  return best;
}

/** An index bounds a regex only when it is anchored at the start, case-sensitive and has no alternation. */
const regexKind = (source: string, flags: string): Kind => (source.startsWith('^') && !flags.includes('i') && !source.includes('|') ? 'range' : 'residual');

const merge = (a: Branch, b: Branch): Branch => {
  const out = new Map(a);
  for (const [f, k] of b) if (!out.has(f) || STRENGTH[k] > STRENGTH[out.get(f)!]) out.set(f, k);
  return out;
};
const cross = (as: Branch[], bs: Branch[]) => as.flatMap((a) => bs.map((b) => merge(a, b)));

/** The filter as a disjunction of conjunctions: each `$or` branch with the predicates around it, as MongoDB plans them. */
function branchesOf(filter: unknown): Branch[] {
  let out: Branch[] = [new Map()];
  if (!isPlainObject(filter)) return out;
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and') for (const sub of value as unknown[]) out = cross(out, branchesOf(sub));
    else if (key === '$or') out = cross(out, (value as unknown[]).flatMap(branchesOf));
    else if (key.startsWith('$')) out = out.map((b) => merge(b, new Map([[key, 'residual']]))); // $nor, $expr, ...
    else out = out.map((b) => merge(b, new Map([[key, kindOf(value)]])));
  }
  return out;
}

const sameSet = (a: string[], b: Set<string>) => a.length === b.size && a.every((f) => b.has(f));

/**
 * The index that serves one conjunction with this sort, by MongoDB's ESR rule, or why none does: the index's key
 * begins with the equality fields (any order), then the sort fields not already fixed by an equality (in order, all
 * in the index's direction or all reversed), then the range fields; `$exists: true` counts as a range only on a
 * sparse index (a plain one holds the documents without the field too). An equality on `_id` or on the field of a
 * single-field unique index is served whatever else the query says: it finds at most one document per value.
 */
function servingIndex(branch: Branch, sort: SortSpec, indexes: IndexSpec[]): IndexSpec | string {
  const fields = (kind: Kind) => new Set([...branch].filter(([, k]) => k === kind).map(([f]) => f));
  const eq = fields('eq');
  const ranges = fields('range');
  const exists = fields('exists');
  for (const ix of indexes) {
    const keys = Object.keys(ix.key);
    if (ix.unique && keys.length === 1 && eq.has(keys[0]!)) return ix;
  }
  const sortRest = sort.filter(([f]) => !eq.has(f));
  if (eq.size === 0 && sortRest.length === 0 && ranges.size === 0 && exists.size === 0) {
    return 'nothing an index could bound: every document is read';
  }
  for (const ix of indexes) {
    const keys = Object.keys(ix.key);
    // MongoDB uses a sparse index only for a query on its field: it lacks the documents without the field.
    if (ix.sparse && (branch.get(keys[0]!) ?? 'residual') === 'residual') continue;
    if (!sameSet(keys.slice(0, eq.size), eq)) continue;
    let at = eq.size;
    if (sortRest.length) {
      const part = keys.slice(at, at + sortRest.length);
      if (part.length < sortRest.length || part.some((f, i) => f !== sortRest[i]![0])) continue;
      const flips = sortRest.map(([f, d]) => Math.sign(Number(ix.key[f])) === d);
      if (!flips.every((x) => x === flips[0])) continue;
      at += sortRest.length;
    }
    const sorted = new Set(sortRest.map(([f]) => f));
    const bounded = [...ranges, ...(ix.sparse ? exists : [])].filter((f) => !sorted.has(f));
    if (!ix.sparse && [...exists].some((f) => !sorted.has(f))) continue;
    if (!sameSet(keys.slice(at, at + bounded.length), new Set(bounded))) continue;
    return ix;
  }
  const describe = (s: Set<string>) => (s.size ? [...s].join(', ') : '–');
  return `no index begins with equality (${describe(eq)}), then sort (${sortRest.map(([f, d]) => `${f} ${d}`).join(', ') || '–'}), then range (${describe(new Set([...ranges, ...exists]))})`;
}

export interface ShapeVerdict {
  shape: QueryShape;
  /** The index serving each branch of the filter (one unless it has an `$or`), or why none does. */
  branches: (IndexSpec | string)[];
  served: boolean;
  /** Why it is left without an index, when it is on the unindexed list. */
  unindexed?: string;
}

/** Each recorded shape against the indexes the adapter created on its collection. */
export function judgeShapes(recorder: MongoQueryRecorder, unindexed: readonly UnindexedQuery[] = []): ShapeVerdict[] {
  const reasons = new Map(unindexed.map((u) => [u.shape, u.reason]));
  return recorder.shapes().map((shape) => {
    const rawFilter = queriesOf(shape.op, shape.example.command)[0]?.filter ?? {};
    const branches = branchesOf(rawFilter).map((b) => servingIndex(b, shape.sort, recorder.indexes(shape.collection)));
    const reason = reasons.get(shape.text);
    return { shape, branches, served: branches.every((b) => typeof b !== 'string'), ...(reason ? { unindexed: reason } : {}) };
  });
}

/**
 * Throws, naming each one, when a recorded query is served by no index the adapter created and is not on its
 * unindexed list, or is on the list but served after all; also when nothing was recorded (a recorder not wired to
 * the adapter proves nothing). `everyListedSent`, for a run of the whole contract: an entry of the list that was
 * never sent fails too, so the list cannot keep shapes the adapter no longer sends.
 */
export function assertIndexServed(recorder: MongoQueryRecorder, unindexed: readonly UnindexedQuery[] = [], opts: { everyListedSent?: boolean } = {}): ShapeVerdict[] {
  const verdicts = judgeShapes(recorder, unindexed);
  if (verdicts.length === 0) throw new Error("no query was recorded: is the recorder's onCommand given to the adapter?");
  const problems: string[] = [];
  for (const v of verdicts) {
    if (!v.served && !v.unindexed) {
      const why = [...new Set(v.branches.filter((b): b is string => typeof b === 'string'))].join('; ');
      const have = recorder.indexes(v.shape.collection).map((ix) => JSON.stringify(ix.key)).join(' ');
      problems.push(`not served by an index: ${v.shape.text}\n    ${why}\n    indexes of ${v.shape.collection}: ${have}`);
    }
    if (v.served && v.unindexed) problems.push(`listed as unindexed but served by ${v.branches.map((b) => (b as IndexSpec).name).join(', ')}: ${v.shape.text}`);
  }
  if (opts.everyListedSent) {
    const sent = new Set(verdicts.map((v) => v.shape.text));
    for (const u of unindexed) if (!sent.has(u.shape)) problems.push(`listed as unindexed but never sent: ${u.shape}`);
  }
  if (problems.length) throw new Error(`${problems.length} query shape(s) fail the index check:\n  ${problems.join('\n  ')}`);
  return verdicts;
}

/** The winning plan's stages, depth first (explain's output differs by command and version; rejected plans are left out). */
export function planStages(plan: unknown): string[] {
  if (!plan || typeof plan !== 'object') return [];
  const node = plan as Record<string, unknown>;
  const own = typeof node.stage === 'string' ? [node.stage] : [];
  const children = ['inputStage', 'inputStages', 'queryPlan', 'winningPlan', 'queryPlanner', 'shards', 'stages', '$cursor']
    .flatMap((k) => (Array.isArray(node[k]) ? (node[k] as unknown[]) : node[k] === undefined ? [] : [node[k]]))
    .flatMap(planStages);
  return [...own, ...children];
}

/** What `collscans` needs of a MongoClient (a mongoose connection's `getClient()` will do). */
export interface CommandRunner {
  db(name: string): { command(cmd: Record<string, unknown>): Promise<Record<string, unknown>> };
}

/**
 * Asks a real MongoDB to explain each recorded query (the first command of each shape, with its values) and returns
 * those whose winning plan reads the collection (COLLSCAN), except the ones on the unindexed list. Run it where the
 * recorded commands' databases still exist, so each collection has the adapter's indexes.
 */
export async function collscans(client: CommandRunner, recorder: MongoQueryRecorder, unindexed: readonly UnindexedQuery[] = []): Promise<string[]> {
  const skip = new Set(unindexed.map((u) => u.shape));
  const found: string[] = [];
  for (const shape of recorder.shapes()) {
    if (skip.has(shape.text)) continue;
    // The session, cluster time and write concern the driver added belong to the original send, not to explain.
    const cmd = Object.fromEntries(
      Object.entries(shape.example.command).filter(([k]) => !k.startsWith('$') && !['lsid', 'txnNumber', 'writeConcern', 'readConcern'].includes(k)),
    );
    const out = await client.db(shape.example.databaseName).command({ explain: cmd, verbosity: 'queryPlanner' });
    const stages = planStages(out);
    if (stages.includes('COLLSCAN')) found.push(`${shape.text}\n    plan: ${stages.join(' > ')}`);
  }
  return found;
}

/**
 * The checks as tests, placed after the suite whose queries `recorder` heard (vitest runs a file's tests in order).
 * `partial`: the suite sends only some of the adapter's queries, so listed shapes it never sent are no fault.
 * `explainOn`: a real MongoDB holding the suite's databases, to ask for its plans (FerretDB plans nothing as MongoDB does).
 */
export function describeIndexChecks(
  name: string,
  recorder: MongoQueryRecorder,
  unindexed: readonly UnindexedQuery[],
  opts: { skip?: string; partial?: boolean; explainOn?: () => Promise<{ client: CommandRunner; close: () => Promise<void> }> } = {},
): void {
  describe.skipIf(Boolean(opts.skip))(`indexes serving the queries sent: ${name}`, () => {
    it('serves every query sent from an index the adapter creates (ESR), or lists it as unindexed with its reason', () => {
      assertIndexServed(recorder, unindexed, { everyListedSent: !opts.partial });
    });
    if (opts.explainOn) {
      const explainOn = opts.explainOn;
      it("gets no collection scan in MongoDB's plan for any query sent, but the unindexed ones", async () => {
        const { client, close } = await explainOn();
        try {
          expect(await collscans(client, recorder, unindexed)).toEqual([]);
        } finally {
          await close();
        }
      });
    }
  });
}
