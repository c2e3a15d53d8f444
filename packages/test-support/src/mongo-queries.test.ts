import { describe, expect, it } from 'vitest';
import { assertIndexServed, judgeShapes, MongoQueryRecorder, planStages, type CommandStarted } from './mongo-queries.ts';

// Commands as the driver reports them in `commandStarted`: sorts and index keys are Maps, filters plain objects.
const DB = 'shop';
type Key = Record<string, 1 | -1>;
const createIndexes = (coll: string, ...indexes: [Key, { unique?: boolean; sparse?: boolean }?][]): CommandStarted => ({
  commandName: 'createIndexes',
  databaseName: DB,
  command: {
    createIndexes: coll,
    indexes: indexes.map(([key, opts]) => ({ key: new Map(Object.entries(key)), name: Object.entries(key).flat().join('_'), ...opts })),
  },
});
const find = (filter: Record<string, unknown>, sort?: Key, coll = 'parts'): CommandStarted => ({
  commandName: 'find',
  databaseName: DB,
  command: { find: coll, filter, ...(sort ? { sort: new Map(Object.entries(sort)) } : {}), lsid: { id: 'session' }, $db: DB },
});

function record(indexes: [Key, { unique?: boolean; sparse?: boolean }?][], ...commands: CommandStarted[]) {
  const recorder = new MongoQueryRecorder();
  recorder.onCommand(createIndexes('parts', ...indexes));
  for (const c of commands) recorder.onCommand(c);
  return recorder;
}
/** Each recorded shape's text and whether an index serves it. */
const verdicts = (recorder: MongoQueryRecorder) => Object.fromEntries(judgeShapes(recorder).map((v) => [v.shape.text, v.served]));
const servedBy = (indexes: [Key, { unique?: boolean; sparse?: boolean }?][], filter: Record<string, unknown>, sort?: Key) =>
  Object.values(verdicts(record(indexes, find(filter, sort))))[0];

describe('the ESR rule', () => {
  const inbox: [Key][] = [[{ status: 1, kind: 1, createdAt: -1, _id: -1 }]];

  it('serves the equality fields first in any order, then the sort in order, either way round, then the ranges', () => {
    expect(servedBy(inbox, { kind: 'quote', status: 'new' }, { createdAt: -1, _id: -1 })).toBe(true);
    expect(servedBy(inbox, { status: 'new', kind: 'quote' }, { createdAt: 1, _id: 1 })).toBe(true);
    expect(servedBy(inbox, { status: { $in: ['new', 'won'] }, kind: 'quote', createdAt: { $gte: 'x' } }, { createdAt: -1, _id: -1 })).toBe(true);
    expect(servedBy(inbox, { status: 'new' })).toBe(true);
  });

  it('refuses a sort in mixed directions, a sort out of order, and an equality the key does not begin with', () => {
    expect(servedBy(inbox, { status: 'new', kind: 'quote' }, { createdAt: -1, _id: 1 })).toBe(false);
    expect(servedBy(inbox, { status: 'new', kind: 'quote' }, { _id: -1, createdAt: -1 })).toBe(false);
    expect(servedBy(inbox, { status: 'new' }, { createdAt: -1, _id: -1 })).toBe(false); // kind sits between
    expect(servedBy(inbox, { kind: 'quote' })).toBe(false);
  });

  it('takes a range after the sort, not before it (that would be a sort in memory)', () => {
    expect(servedBy([[{ price: 1, name: 1 }]], { price: { $gt: 5 } }, { name: 1 })).toBe(false);
    expect(servedBy([[{ name: 1, price: 1 }]], { price: { $gt: 5 } }, { name: 1 })).toBe(true);
    expect(servedBy([[{ brand: 1, price: 1 }]], { brand: 'cat', price: { $gt: 5, $lt: 9 } })).toBe(true);
    expect(servedBy([[{ brand: 1 }]], { brand: 'cat', price: { $gt: 5 } })).toBe(false);
  });

  it('counts a sort field fixed by an equality as sorted, and a range on a sort field as bounded by it', () => {
    // A keyset page: the name equal to the last one seen and the id beyond it.
    expect(servedBy([[{ name: 1, id: 1 }]], { name: 'Filter', id: { $gte: 'p-9' } }, { name: 1, id: 1 })).toBe(true);
    expect(servedBy([[{ name: 1, id: 1 }]], { name: { $gt: 'Filter' } }, { name: 1, id: 1 })).toBe(true);
  });

  it('needs an index for every branch of an $or, each with the predicates around it', () => {
    const filter = { brand: 'cat', $or: [{ sku: 'A' }, { partNo: 'A' }] };
    expect(servedBy([[{ brand: 1, sku: 1 }]], filter)).toBe(false);
    expect(servedBy([[{ brand: 1, sku: 1 }], [{ brand: 1, partNo: 1 }]], filter)).toBe(true);
    expect(servedBy([[{ brand: 1, sku: 1 }], [{ brand: 1, partNo: 1 }]], { $and: [{ brand: 'cat' }, { $or: [{ sku: 'A' }, { partNo: 'A' }] }] })).toBe(true);
  });

  it('serves any query with an equality on _id or on the one field of a unique index, whatever else it asks', () => {
    expect(servedBy([], { _id: 'a', version: 3 })).toBe(true);
    expect(servedBy([[{ sku: 1 }, { unique: true }]], { sku: { $in: ['A', 'B'] }, brand: 'cat' }, { name: 1 })).toBe(true);
    expect(servedBy([[{ sku: 1 }]], { sku: { $in: ['A', 'B'] }, brand: 'cat' })).toBe(false);
    expect(servedBy([], { _id: { $gt: 'a' } }, { _id: 1 })).toBe(true);
  });

  it('finds nothing to bound in an empty filter, a negation or a regex not anchored or not case-sensitive', () => {
    const byName: [Key][] = [[{ name: 1 }]];
    expect(servedBy(byName, {})).toBe(false);
    expect(servedBy(byName, { name: { $ne: 'x' } })).toBe(false);
    expect(servedBy(byName, { name: /filter/ })).toBe(false);
    expect(servedBy(byName, { name: { $regex: '^fil', $options: 'i' } })).toBe(false);
    expect(servedBy(byName, { name: { $regex: '^fil|^oil' } })).toBe(false);
    expect(servedBy(byName, { name: /^fil/ })).toBe(true);
    // A walk in the index's order for a sort is served; what it checks on the way does not change that.
    expect(servedBy(byName, { note: /urgent/i }, { name: -1 })).toBe(true);
  });

  it('bounds $exists: true only with a sparse index (a plain one holds the documents without the field too)', () => {
    expect(servedBy([[{ pending: 1 }]], { pending: { $exists: true } })).toBe(false);
    expect(servedBy([[{ pending: 1 }, { sparse: true }]], { pending: { $exists: true } })).toBe(true);
    expect(servedBy([[{ pending: 1 }, { sparse: true }]], { pending: { $exists: false } })).toBe(false);
    expect(servedBy([[{ pending: 1 }, { sparse: true }]], { other: 'x' }, { pending: 1 })).toBe(false);
  });
});

describe('the recorder', () => {
  it('keeps one shape for queries that differ only in their values, and counts them', () => {
    const recorder = record([[{ brand: 1, name: 1 }]], find({ brand: 'cat' }, { name: 1 }), find({ brand: 'jcb' }, { name: 1 }), find({ brand: null }, { name: 1 }));
    expect(recorder.shapes().map((s) => [s.text, s.count])).toEqual([
      ['parts find {"brand":"="} sort {"name":1}', 2],
      ['parts find {"brand":null} sort {"name":1}', 1],
    ]);
  });

  it('reads the queries of every command that has one, each statement of an update or delete on its own', () => {
    const recorder = record(
      [[{ brand: 1 }]],
      { commandName: 'update', databaseName: DB, command: { update: 'parts', updates: [{ q: { _id: 'a' }, u: {} }, { q: { brand: 'cat' }, u: {}, multi: true }] } },
      { commandName: 'delete', databaseName: DB, command: { delete: 'parts', deletes: [{ q: { price: { $lt: 1 } }, limit: 0 }] } },
      { commandName: 'findAndModify', databaseName: DB, command: { findAndModify: 'parts', query: { _id: 'a' }, update: {} } },
      { commandName: 'distinct', databaseName: DB, command: { distinct: 'parts', key: 'brand', query: {} } },
      { commandName: 'aggregate', databaseName: DB, command: { aggregate: 'parts', pipeline: [{ $match: { brand: 'cat' } }, { $group: { _id: 1, n: { $sum: 1 } } }], cursor: {} } },
      { commandName: 'count', databaseName: DB, command: { count: 'parts' } }, // estimatedDocumentCount: metadata
      { commandName: 'insert', databaseName: DB, command: { insert: 'parts', documents: [{}] } },
      { commandName: 'getMore', databaseName: DB, command: { getMore: 1, collection: 'parts' } },
    );
    expect(verdicts(recorder)).toEqual({
      'parts update {"_id":"="}': true,
      'parts update {"brand":"="}': true,
      'parts delete {"price":{"$lt":"="}}': false,
      'parts findAndModify {"_id":"="}': true,
      'parts distinct {} of brand': false,
      'parts aggregate {"brand":"="} then $group': true,
    });
  });

  it("checks against the indexes the adapter created on that collection, with _id's", () => {
    const recorder = record([[{ brand: 1 }]], find({ brand: 'cat' }, undefined, 'retired'));
    expect(recorder.indexes('retired').map((ix) => ix.key)).toEqual([{ _id: 1 }]);
    expect(verdicts(recorder)).toEqual({ 'retired find {"brand":"="}': false });
  });
});

describe('assertIndexServed', () => {
  const scan = { shape: 'parts find {"price":{"$lt":"="}}', reason: 'admin-only, rare' };

  it('fails naming a query no index serves, what it would need, and the indexes there are', () => {
    const recorder = record([[{ brand: 1 }]], find({ brand: 'cat' }), find({ price: { $lt: 3 } }));
    expect(() => assertIndexServed(recorder)).toThrow(
      /1 query shape\(s\) fail the index check:\n {2}not served by an index: parts find \{"price":\{"\$lt":"="\}\}\n {4}no index begins with equality \(–\), then sort \(–\), then range \(price\)\n {4}indexes of parts: \{"_id":1\} \{"brand":1\}/,
    );
  });

  it('passes a query on the unindexed list, and fails one listed that an index serves after all', () => {
    expect(assertIndexServed(record([], find({ price: { $lt: 3 } })), [scan])).toHaveLength(1);
    expect(() => assertIndexServed(record([[{ price: 1 }]], find({ price: { $lt: 3 } })), [scan])).toThrow(/listed as unindexed but served by price_1/);
  });

  it('fails a listed shape never sent only when the whole contract ran', () => {
    const recorder = record([[{ brand: 1 }]], find({ brand: 'cat' }));
    expect(() => assertIndexServed(recorder, [scan])).not.toThrow();
    expect(() => assertIndexServed(recorder, [scan], { everyListedSent: true })).toThrow(/listed as unindexed but never sent/);
  });

  it('fails when nothing was recorded', () => {
    expect(() => assertIndexServed(new MongoQueryRecorder())).toThrow(/no query was recorded/);
  });
});

describe('planStages', () => {
  it("walks explain's winning plan, whatever the command, and leaves the rejected plans out", () => {
    // Shapes of MongoDB 8's explain output: a find (SBE's queryPlan), an aggregate through $cursor, an update.
    const findOut = {
      queryPlanner: {
        winningPlan: { queryPlan: { stage: 'LIMIT', inputStage: { stage: 'FETCH', inputStage: { stage: 'IXSCAN', indexName: 'a_1' } } } },
        rejectedPlans: [{ stage: 'COLLSCAN' }],
      },
    };
    const aggregateOut = { stages: [{ $cursor: { queryPlanner: { winningPlan: { stage: 'COLLSCAN' } } } }, { $group: {} }] };
    const orOut = { queryPlanner: { winningPlan: { stage: 'UPDATE', inputStage: { stage: 'OR', inputStages: [{ stage: 'IXSCAN' }, { stage: 'IXSCAN' }] } } } };
    expect(planStages(findOut)).toEqual(['LIMIT', 'FETCH', 'IXSCAN']);
    expect(planStages(aggregateOut)).toEqual(['COLLSCAN']);
    expect(planStages(orOut)).toEqual(['UPDATE', 'OR', 'IXSCAN', 'IXSCAN']);
  });
});
