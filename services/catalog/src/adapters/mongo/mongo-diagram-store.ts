import mongoose from 'mongoose';
import type { Assembly, AssemblyHistoryEntry } from '@forgeline/contracts/parts-diagrams';
import type { DiagramModel, DiagramStore } from '../../ports.ts';

type AssemblyDoc = Omit<Assembly, 'id'> & { _id: string; partIds: string[] };
type HistoryDoc = AssemblyHistoryEntry & { _id: string; assemblyId: string };

const toAssembly = ({ _id, partIds: _p, ...rest }: AssemblyDoc): Assembly => ({
  id: _id,
  make: rest.make,
  model: rest.model,
  makeSlug: rest.makeSlug,
  modelSlug: rest.modelSlug,
  slug: rest.slug,
  name: rest.name,
  diagram: rest.diagram ?? null,
  callouts: rest.callouts,
  version: rest.version,
  updatedAt: rest.updatedAt,
  updatedBy: rest.updatedBy,
});
const toDoc = ({ id, ...a }: Assembly): AssemblyDoc => ({ _id: id, ...a, partIds: [...new Set(a.callouts.map((c) => c.partId))] });
const ORDER = { makeSlug: 1, modelSlug: 1, name: 1, _id: 1 } as const;
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Parts diagrams on MongoDB (MONGO_URL): an assembly is a document (its callouts inside, and `partIds` for the
 * where-used index); its history a collection of its own. A write is conditional on the version the editor read, so
 * two staff saving the same assembly cannot overwrite each other.
 */
export class MongoDiagramStore implements DiagramStore {
  private constructor(private readonly conn: mongoose.Connection) {}

  static async connect(url: string): Promise<MongoDiagramStore> {
    const conn = mongoose.createConnection(url, { serverSelectionTimeoutMS: 10_000, autoIndex: false });
    await conn.asPromise();
    const store = new MongoDiagramStore(conn);
    await Promise.all([
      store.assemblies.createIndex({ makeSlug: 1, modelSlug: 1, slug: 1 }, { unique: true }),
      store.assemblies.createIndex({ makeSlug: 1, modelSlug: 1, name: 1 }),
      store.assemblies.createIndex({ partIds: 1 }),
      store.historyColl.createIndex({ assemblyId: 1, version: -1 }),
    ]);
    return store;
  }

  private get assemblies() {
    return this.conn.collection<AssemblyDoc>('assemblies');
  }
  private get historyColl() {
    return this.conn.collection<HistoryDoc>('assembly_history');
  }

  async get(id: string) {
    const doc = await this.assemblies.findOne({ _id: id });
    return doc ? toAssembly(doc) : null;
  }

  async getBySlug(makeSlug: string, modelSlug: string, slug: string) {
    const doc = await this.assemblies.findOne({ makeSlug, modelSlug, slug });
    return doc ? toAssembly(doc) : null;
  }

  async listForModel(makeSlug: string, modelSlug: string) {
    return (await this.assemblies.find({ makeSlug, modelSlug }).sort({ name: 1, _id: 1 }).toArray()).map(toAssembly);
  }

  async list(q: { makeSlug?: string; modelSlug?: string; search?: string; limit: number }) {
    const filter: mongoose.mongo.Filter<AssemblyDoc> = {};
    if (q.makeSlug) filter.makeSlug = q.makeSlug;
    if (q.modelSlug) filter.modelSlug = q.modelSlug;
    if (q.search) {
      const re = new RegExp(escapeRegex(q.search), 'i');
      filter.$or = [{ name: re }, { make: re }, { model: re }];
    }
    return (await this.assemblies.find(filter).sort(ORDER).limit(q.limit).toArray()).map(toAssembly);
  }

  async save(changes: Parameters<DiagramStore['save']>[0]) {
    // Checked first, so a batch (an import) with a conflict writes nothing; each write is still conditional on the
    // version, so one that lost a race in between is reported, not overwritten.
    const ids = changes.map((c) => c.assembly.id);
    const stored = new Map((await this.assemblies.find({ _id: { $in: ids } }, { projection: { version: 1 } }).toArray()).map((d) => [d._id, d.version]));
    const conflicts = changes.filter((c) => (stored.get(c.assembly.id) ?? null) !== c.expected).map((c) => c.assembly.id);
    if (conflicts.length) return { conflicts };
    const lost: string[] = [];
    for (const { assembly, expected, entry } of changes) {
      const doc = toDoc(assembly);
      if (expected === null) {
        try {
          await this.assemblies.insertOne(doc);
        } catch (err) {
          if ((err as { code?: number }).code === 11000) {
            lost.push(assembly.id);
            continue;
          }
          throw err;
        }
      } else {
        const { _id, ...fields } = doc;
        const r = await this.assemblies.updateOne({ _id, version: expected }, { $set: fields });
        if (r.matchedCount === 0) {
          lost.push(assembly.id);
          continue;
        }
      }
      await this.historyColl.replaceOne({ _id: `${assembly.id}:${entry.version}` }, { assemblyId: assembly.id, ...entry }, { upsert: true });
    }
    return { conflicts: lost };
  }

  async remove(id: string, entry: AssemblyHistoryEntry) {
    const doc = await this.assemblies.findOneAndDelete({ _id: id });
    if (!doc) return null;
    await this.historyColl.replaceOne({ _id: `${id}:${entry.version}` }, { assemblyId: id, ...entry }, { upsert: true });
    return toAssembly(doc);
  }

  async history(id: string, limit: number) {
    const docs = await this.historyColl.find({ assemblyId: id }).sort({ version: -1 }).limit(limit).toArray();
    return docs.map((d) => ({ version: d.version, at: d.at, actor: d.actor, action: d.action, summary: d.summary }));
  }

  async whereUsed(productId: string, limit: number) {
    const items = await this.assemblies.find({ partIds: productId }).sort(ORDER).limit(limit).toArray();
    // Counted only when the page is full: most parts are in no assembly or a few.
    const total = items.length < limit ? items.length : await this.assemblies.countDocuments({ partIds: productId });
    return { items: items.map(toAssembly), total };
  }

  async models(): Promise<DiagramModel[]> {
    // Grouped here, not by an aggregation: a catalogue has a few thousand assemblies, and FerretDB's $group differs.
    const docs = await this.assemblies.find({}, { projection: { make: 1, model: 1, makeSlug: 1, modelSlug: 1 } }).sort({ makeSlug: 1, modelSlug: 1 }).toArray();
    const out: DiagramModel[] = [];
    for (const d of docs) {
      const last = out.at(-1);
      if (last && last.makeSlug === d.makeSlug && last.modelSlug === d.modelSlug) last.assemblies++;
      else out.push({ make: d.make, model: d.model, makeSlug: d.makeSlug, modelSlug: d.modelSlug, assemblies: 1 });
    }
    return out;
  }

  async *scan(batchSize: number): AsyncIterable<Assembly[]> {
    let batch: Assembly[] = [];
    for await (const doc of this.assemblies.find({}).sort(ORDER).batchSize(batchSize)) {
      batch.push(toAssembly(doc));
      if (batch.length === batchSize) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  }

  async count() {
    return this.assemblies.countDocuments({});
  }

  async close() {
    await this.conn.close();
  }
}
