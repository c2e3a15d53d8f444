import mongoose, { Schema, type Connection, type Model, type mongo } from 'mongoose';
import type { CrossReference, Fitment, Product, ProductImagesUpdate, ProductSummary, Subcategory, Testimonial } from '@forgeline/contracts/products';
import { slugify } from '@forgeline/contracts/slug';
import { altCodesOf, fitKeyOf, fitsMachine, fleetFits, withHistory } from '../../domain/part-history.ts';
import {
  brandSlugOf,
  categorySlugOf,
  codeKey,
  codeKeyUpperBound,
  pageWindow,
  subcategoryId,
  summarizeSubcategories,
  toSubcategory,
  type CatalogTotals,
} from '../../domain/products.ts';
import type { CatalogAuditEntry, CatalogImportJob, ImportRowError } from '@forgeline/contracts/catalog-admin';
import type { AltCodeHit, FleetQuery, MachineCount, MachineNarrowing, MachineQuery, NamedSlug, Page, ProductRepository, StoredPart } from '../../ports.ts';
import { ANCHOR_STRIDE, PageAnchors, type SortKey } from '../../domain/page-anchors.ts';

/*
 * MongoDB (or FerretDB) through mongoose. Products carry `categorySlug` and `brandSlug` so brand and
 * category lookups ignore case and accents without collations, and every list has an index ending in
 * (name, id) for its sort. `subcategoryCounts` holds one document per (category, brand) pair, adjusted
 * by each write, so no request ever groups over the products collection; the totals read from it are
 * cached here, dropped on every write through this repository and refreshed after TOTALS_TTL_MS to
 * pick up writes by another process (the seed CLI).
 *
 * `specifications` is stored as [{ name, value }] pairs: spec names such as "Max. Pressure" hold dots,
 * which are awkward as MongoDB field names.
 */
const TOTALS_TTL_MS = 5_000;

/**
 * An unordered bulk write of upserts. When another writer inserted the same key first, FerretDB answers the loser with
 * E11000 where MongoDB retries on the server; the failed operations are run once more, now matching the document.
 */
async function bulkWriteUpserts<T>(model: Model<T>, ops: Parameters<Model<T>['bulkWrite']>[0]): Promise<void> {
  for (let at = 0; at < ops.length; at += UPDATES_PER_COMMAND) {
    const chunk = ops.slice(at, at + UPDATES_PER_COMMAND);
    try {
      await model.bulkWrite(chunk, { ordered: false });
    } catch (err) {
      const failed = (err as { writeErrors?: { index: number; code?: number }[] }).writeErrors;
      if (!failed?.length || failed.some((e) => e.code !== 11000)) throw err;
      await model.bulkWrite(
        failed.map((e) => chunk[e.index]!),
        { ordered: false },
      );
    }
  }
}

/**
 * Statements per update command. FerretDB v1 (SQLite) keeps a result set open for each statement that matched a
 * document until the command ends, and at 100 (its pool) the command waits on itself for ever: a second seed batch
 * of 5,000 parts hung there. On MongoDB the chunks only add a round trip per 64 upserts.
 */
const UPDATES_PER_COMMAND = 64;

interface ProductDoc {
  id: string;
  sku: string;
  name: string;
  category: string;
  categorySlug: string;
  brandName: string;
  brandSlug: string;
  brand: string;
  make: string;
  partNumber: string;
  skuKey: string;
  partKey: string;
  slug: string;
  description: string;
  imageUrl: string;
  images: string[];
  tags: string[];
  inStock: boolean;
  price: number;
  availability: string;
  specifications: { name: string; value: string }[];
  weight: string;
  dimensions: string;
  createdAt: string;
  replaces?: string[];
  crossReferences?: CrossReference[];
  fits?: Fitment[];
  /** Derived: the older numbers and cross-references by normalised key (search, "Replaced by"). */
  altCodes?: { kind: AltCodeHit['kind']; key: string; value: string }[];
  /** Derived: `make` and `make|model` slugs of every machine the part fits (the machine filter). */
  fitKeys?: string[];
}

interface CountDoc {
  _id: string;
  categorySlug: string;
  brandSlug: string;
  category: string;
  brand: string;
  productCount: number;
}

const productSchema = new Schema<ProductDoc>(
  {
    id: { type: String, required: true },
    sku: { type: String, required: true },
    name: { type: String, required: true },
    category: { type: String, required: true },
    categorySlug: { type: String, required: true },
    brandName: { type: String, required: true },
    brandSlug: { type: String, required: true },
    brand: String,
    make: String,
    partNumber: String,
    skuKey: String,
    partKey: String,
    slug: String,
    description: String,
    imageUrl: String,
    images: [String],
    tags: [String],
    inStock: Boolean,
    price: Number,
    availability: String,
    specifications: [{ _id: false, name: String, value: String }],
    weight: String,
    dimensions: String,
    createdAt: String,
    replaces: { type: [String], default: undefined },
    crossReferences: { type: [{ _id: false, brand: String, partNumber: String }], default: undefined },
    fits: { type: [{ _id: false, make: String, model: String, serialFrom: String, serialTo: String }], default: undefined },
    altCodes: { type: [{ _id: false, kind: String, key: String, value: String }], default: undefined },
    fitKeys: { type: [String], default: undefined },
  },
  { versionKey: false, autoIndex: false, strict: true },
);
productSchema.index({ id: 1 }, { unique: true });
productSchema.index({ sku: 1 }, { unique: true });
productSchema.index({ categorySlug: 1, name: 1, id: 1 });
productSchema.index({ categorySlug: 1, brandSlug: 1, name: 1, id: 1 });
productSchema.index({ brandSlug: 1, name: 1, id: 1 });
productSchema.index({ name: 1, id: 1 });
productSchema.index({ skuKey: 1 });
productSchema.index({ partKey: 1 });
productSchema.index({ 'altCodes.key': 1 });
productSchema.index({ fitKeys: 1, name: 1, id: 1 });
// A machine's parts within a category or a brand: one index range, as on SQLite.
productSchema.index({ fitKeys: 1, categorySlug: 1, name: 1, id: 1 });
productSchema.index({ fitKeys: 1, brandSlug: 1, name: 1, id: 1 });

const countSchema = new Schema<CountDoc>(
  {
    _id: String,
    categorySlug: String,
    brandSlug: String,
    category: String,
    brand: String,
    productCount: Number,
  },
  { versionKey: false, autoIndex: false },
);

const testimonialSchema = new Schema<Testimonial>(
  {
    id: { type: String, required: true },
    customerName: String,
    customerLocation: String,
    customerPhoto: { type: String, default: null },
    rating: Number,
    review: String,
    featured: Boolean,
    createdAt: String,
  },
  { versionKey: false, autoIndex: false },
);
testimonialSchema.index({ id: 1 }, { unique: true });
// The home page's lists, featured or all, newest first (id breaks ties): docs/operating.md#indexes.
testimonialSchema.index({ featured: 1, createdAt: -1, id: 1 });
testimonialSchema.index({ createdAt: -1, id: 1 });

const SUMMARY_PROJECTION = {
  _id: 0,
  id: 1,
  name: 1,
  sku: 1,
  category: 1,
  tags: 1,
  imageUrl: 1,
  images: 1,
  inStock: 1,
  availability: 1,
  brandName: 1,
  brand: 1,
  partNumber: 1,
  slug: 1,
} as const;
const SORT = { name: 1, id: 1 } as const;
const SORT_DESC = { name: -1, id: -1 } as const;

type SummaryDoc = Pick<ProductDoc, keyof typeof SUMMARY_PROJECTION & keyof ProductDoc>;

const toSummary = (d: SummaryDoc): ProductSummary => ({
  id: d.id,
  name: d.name,
  sku: d.sku,
  category: d.category,
  tags: d.tags ?? [],
  imageUrl: d.imageUrl ?? '',
  images: d.images ?? [],
  inStock: d.inStock ?? true,
  availability: d.availability ?? '',
  brandName: d.brandName,
  brand: d.brand ?? '',
  partNumber: d.partNumber ?? '',
  slug: d.slug ?? '',
});

const toProduct = (d: ProductDoc): Product =>
  withHistory(
    {
      ...toSummary(d),
      description: d.description ?? '',
      make: d.make ?? '',
      price: d.price ?? 0,
      specifications: Object.fromEntries((d.specifications ?? []).map((s) => [s.name, s.value])),
      weight: d.weight ?? '',
      dimensions: d.dimensions ?? '',
      createdAt: d.createdAt ?? '',
    },
    {
      replaces: d.replaces,
      crossReferences: d.crossReferences?.map((x) => ({ brand: x.brand, partNumber: x.partNumber })),
      fits: d.fits?.map((f) => ({ make: f.make, model: f.model, ...(f.serialFrom ? { serialFrom: f.serialFrom } : {}), ...(f.serialTo ? { serialTo: f.serialTo } : {}) })),
    },
  );

/** The machine keys a part is found under: its makes, and its makes with models. */
const fitKeysOf = (fits: Fitment[] | undefined) =>
  [...new Set((fits ?? []).flatMap((f) => [slugify(f.make), `${slugify(f.make)}|${slugify(f.model)}`]))];

const toDoc = (p: Product): ProductDoc => ({
  id: p.id,
  sku: p.sku,
  name: p.name,
  category: p.category,
  categorySlug: categorySlugOf(p),
  brandName: p.brandName,
  brandSlug: brandSlugOf(p),
  brand: p.brand,
  make: p.make,
  partNumber: p.partNumber,
  skuKey: codeKey(p.sku),
  partKey: codeKey(p.partNumber),
  slug: p.slug,
  description: p.description,
  imageUrl: p.imageUrl,
  images: p.images,
  tags: p.tags,
  inStock: p.inStock,
  price: p.price,
  availability: p.availability,
  specifications: Object.entries(p.specifications).map(([name, value]) => ({ name, value })),
  weight: p.weight,
  dimensions: p.dimensions,
  createdAt: p.createdAt,
  ...(p.replaces?.length ? { replaces: p.replaces } : {}),
  ...(p.crossReferences?.length ? { crossReferences: p.crossReferences } : {}),
  ...(p.fits?.length ? { fits: p.fits, fitKeys: fitKeysOf(p.fits) } : {}),
  ...(altCodesOf(p).length ? { altCodes: altCodesOf(p) } : {}),
});

const toTestimonial = (d: Testimonial): Testimonial => ({
  id: d.id,
  customerName: d.customerName,
  customerLocation: d.customerLocation,
  customerPhoto: d.customerPhoto ?? null,
  rating: d.rating,
  review: d.review,
  featured: d.featured,
  createdAt: d.createdAt,
});

const TESTIMONIAL_PROJECTION = { _id: 0 } as const;

export class MongoProductRepository implements ProductRepository {
  private totals: { at: number; value: Promise<CatalogTotals> } | null = null;
  /** Deep pages start from these (keyed by the catalogue's version, `catalogMeta`). */
  private readonly anchors = new PageAnchors<number>();
  /** The tail of the writes queued by `serialWrite`. */
  private writes: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly conn: Connection,
    private readonly products: Model<ProductDoc>,
    private readonly counts: Model<CountDoc>,
    private readonly testimonials: Model<Testimonial>,
  ) {}

  /**
   * Connect to `url` (its path names the database) and make sure every index exists. `onCommand` hears every command
   * sent, from the first (the tests record the query shapes and the indexes created: test/mongo-product-repository.test.ts).
   */
  static async connect(url: string, opts: { onCommand?: (event: mongo.CommandStartedEvent) => void } = {}): Promise<MongoProductRepository> {
    const conn = mongoose.createConnection(url, { serverSelectionTimeoutMS: 10_000, autoIndex: false, monitorCommands: Boolean(opts.onCommand) });
    if (opts.onCommand) conn.on('commandStarted', opts.onCommand);
    await conn.asPromise();
    const products = conn.model<ProductDoc>('Product', productSchema, 'products');
    const counts = conn.model<CountDoc>('SubcategoryCount', countSchema, 'subcategoryCounts');
    const testimonials = conn.model<Testimonial>('Testimonial', testimonialSchema, 'testimonials');
    await Promise.all([products.createIndexes(), testimonials.createIndexes()]);
    await Promise.all([
      conn.collection('retiredProducts').createIndex({ sku: 1 }, { unique: true }),
      conn.collection('catalogAudit').createIndex({ productId: 1, seq: -1 }),
      conn.collection('catalogAudit').createIndex({ source: 1, seq: -1 }),
      conn.collection('catalogAudit').createIndex({ seq: -1 }),
      conn.collection('catalogImports').createIndex({ state: 1 }),
      conn.collection('catalogImportErrors').createIndex({ importId: 1, seq: 1 }),
    ]);
    return new MongoProductRepository(conn, products, counts, testimonials);
  }

  async getById(id: string): Promise<Product | null> {
    const doc = await this.products.findOne({ id }, { _id: 0 }).lean<ProductDoc>();
    return doc ? toProduct(doc) : null;
  }

  async getBySku(sku: string): Promise<Product | null> {
    const exact = await this.products.findOne({ sku }, { _id: 0 }).lean<ProductDoc>();
    if (exact) return toProduct(exact);
    // Folder names from ZIP uploads differ in case or punctuation; take the match only when it is the only one.
    const key = codeKey(sku);
    if (!key) return null;
    const docs = await this.products.find({ skuKey: key }, { _id: 0 }).limit(2).lean<ProductDoc[]>();
    return docs.length === 1 ? toProduct(docs[0]!) : null;
  }

  async getSummaries(ids: string[]): Promise<ProductSummary[]> {
    if (ids.length === 0) return [];
    const docs = await this.products.find({ id: { $in: ids } }, SUMMARY_PROJECTION).lean<SummaryDoc[]>();
    const byId = new Map(docs.map((d) => [d.id, toSummary(d)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async listByCategory(q: { categorySlug: string; brandSlug?: string; limit: number; offset: number } & MachineNarrowing): Promise<Page<ProductSummary>> {
    const base = { categorySlug: q.categorySlug, ...(q.brandSlug !== undefined ? { brandSlug: q.brandSlug } : {}) };
    if (q.fleet) return this.fleetPage(base, q.fleet, q);
    if (q.machine) return this.machinePage(base, q.machine, q);
    const totals = await this.currentTotals();
    if (q.brandSlug !== undefined) {
      const total = totals.byPair.get(subcategoryId(q.categorySlug, q.brandSlug)) ?? 0;
      return this.page({ categorySlug: q.categorySlug, brandSlug: q.brandSlug }, total, q);
    }
    return this.page({ categorySlug: q.categorySlug }, totals.byCategory.get(q.categorySlug)?.productCount ?? 0, q);
  }

  async listByBrand(q: { brandSlug: string; limit: number; offset: number } & MachineNarrowing): Promise<Page<ProductSummary>> {
    if (q.fleet) return this.fleetPage({ brandSlug: q.brandSlug }, q.fleet, q);
    if (q.machine) return this.machinePage({ brandSlug: q.brandSlug }, q.machine, q);
    const totals = await this.currentTotals();
    return this.page({ brandSlug: q.brandSlug }, totals.byBrand.get(q.brandSlug)?.productCount ?? 0, q);
  }

  async listAll(q: { limit: number; offset: number } & MachineNarrowing): Promise<Page<ProductSummary>> {
    if (q.fleet) return this.fleetPage({}, q.fleet, q);
    if (q.machine) return this.machinePage({}, q.machine, q);
    return this.page({}, (await this.currentTotals()).total, q);
  }

  // ---- a part's history and the machines it fits

  /** The machine filter as a query: by its key; a serial is checked against each fit's range afterwards. */
  private static fitFilter(m: MachineQuery) {
    return { fitKeys: m.modelSlug ? `${m.makeSlug}|${m.modelSlug}` : m.makeSlug };
  }

  private async machinePage(base: Record<string, string>, m: MachineQuery, q: { limit: number; offset: number }): Promise<Page<ProductSummary>> {
    const filter = m.serial ? { ...base, id: { $in: [...(await this.idsFitting(m))] } } : { ...base, ...MongoProductRepository.fitFilter(m) };
    return this.page(filter, await this.products.countDocuments(filter), q);
  }

  /**
   * A fleet's parts: one query, its machines' keys as one $in over the fit-key indexes. Machines with a serial are
   * checked against the fits' ranges here first (within `base`), and their parts join by id.
   */
  private async fleetPage(base: Record<string, string>, fleet: FleetQuery, q: { limit: number; offset: number }): Promise<Page<ProductSummary>> {
    const keyOf = (m: FleetQuery[number]) => `${m.makeSlug}|${m.modelSlug}`;
    const plain = [...new Set(fleet.filter((m) => !m.serial).map(keyOf))];
    const withSerial = fleet.filter((m) => m.serial);
    const byKey = plain.length ? { fitKeys: { $in: plain } } : null;
    const byId = withSerial.length ? { id: { $in: [...(await this.idsFittingAmong(base, withSerial))] } } : null;
    const filter = byKey && byId ? { ...base, $or: [byKey, byId] } : { ...base, ...(byKey ?? byId) };
    return this.page(filter, await this.products.countDocuments(filter), q, fleet);
  }

  /** Ids of the parts within `base` that fit any machine of the fleet. */
  private async idsFittingAmong(base: Record<string, string>, fleet: FleetQuery): Promise<Set<string>> {
    const keys = [...new Set(fleet.map((m) => `${m.makeSlug}|${m.modelSlug}`))];
    const docs = await this.products.find({ ...base, fitKeys: { $in: keys } }, { _id: 0, id: 1, fits: 1 }).lean<Pick<ProductDoc, 'id' | 'fits'>[]>();
    return new Set(docs.filter((d) => fleetFits((d.fits ?? []).map(fitKeyOf), fleet).length > 0).map((d) => d.id));
  }

  async findAltCodes(q: { keys: string[]; prefix?: string; infix?: string; kind?: AltCodeHit['kind']; limit: number }): Promise<AltCodeHit[]> {
    const ors: Record<string, unknown>[] = [];
    const piece = q.infix?.replace(/[^A-Z0-9]/g, '');
    if (q.keys.length) ors.push({ 'altCodes.key': { $in: q.keys } });
    if (q.prefix) ors.push({ 'altCodes.key': { $gte: q.prefix, $lt: codeKeyUpperBound(q.prefix) } });
    // A piece inside an older number: an unanchored pattern reads the key index through (keys are A-Z and 0-9 only).
    if (piece) ors.push({ 'altCodes.key': { $regex: piece } });
    if (!ors.length) return [];
    const docs = await this.products
      .find({ $or: ors }, { _id: 0, id: 1, altCodes: 1 })
      .limit(q.limit)
      .lean<Pick<ProductDoc, 'id' | 'altCodes'>[]>();
    const wanted = new Set(q.keys);
    const out: AltCodeHit[] = [];
    for (const d of docs) {
      for (const c of d.altCodes ?? []) {
        if (q.kind && c.kind !== q.kind) continue;
        if (wanted.has(c.key) || (q.prefix && c.key.startsWith(q.prefix)) || (piece && c.key.includes(piece))) out.push({ productId: d.id, kind: c.kind, key: c.key, value: c.value });
      }
    }
    return out.slice(0, q.limit);
  }

  /** Machine lists, kept TOTALS_TTL_MS like the totals and dropped by every write here. */
  private machineLists = new Map<string, { at: number; value: Promise<MachineCount[]> }>();
  private machineList(key: string, make: () => Promise<MachineCount[]>): Promise<MachineCount[]> {
    const hit = this.machineLists.get(key);
    if (hit && Date.now() - hit.at < TOTALS_TTL_MS) return hit.value;
    const value = make();
    this.machineLists.set(key, { at: Date.now(), value });
    value.catch(() => this.machineLists.delete(key));
    return value;
  }

  /** Each key's parts counted by the multikey index (distinct parts, however many fits name the machine). */
  private async countKeys(keys: string[], nameOf: (fit: Fitment) => string, matches: (fit: Fitment, key: string) => boolean): Promise<MachineCount[]> {
    const rows = await Promise.all(
      keys.map(async (key) => {
        const [productCount, sample] = await Promise.all([
          this.products.countDocuments({ fitKeys: key }),
          this.products.findOne({ fitKeys: key }, { _id: 0, fits: 1 }).lean<Pick<ProductDoc, 'fits'>>(),
        ]);
        const fit = sample?.fits?.find((f) => matches(f, key));
        return { name: fit ? nameOf(fit) : key, slug: key.split('|').at(-1)!, productCount };
      }),
    );
    return rows.filter((r) => r.productCount > 0).sort((a, b) => a.name.localeCompare(b.name) || a.slug.localeCompare(b.slug));
  }

  listMachineMakes(): Promise<MachineCount[]> {
    return this.machineList('makes', async () => {
      // Every string key, as a range: the fitKeys index bounds it, where a distinct with no query reads every part.
      const keys = ((await this.products.distinct('fitKeys', { fitKeys: { $gte: '' } })) as string[]).filter((k) => !k.includes('|'));
      return this.countKeys(keys, (f) => f.make, (f, key) => slugify(f.make) === key);
    });
  }

  async listMachineModels(makeSlug: string): Promise<{ make: MachineCount; models: MachineCount[] } | null> {
    const make = (await this.listMachineMakes()).find((m) => m.slug === makeSlug);
    if (!make) return null;
    const models = await this.machineList(`models|${makeSlug}`, async () => {
      const keys = ((await this.products.distinct('fitKeys', { fitKeys: makeSlug })) as string[]).filter((k) => k.startsWith(`${makeSlug}|`));
      return this.countKeys(keys, (f) => f.model, (f, key) => `${slugify(f.make)}|${slugify(f.model)}` === key);
    });
    return { make, models };
  }

  async idsFitting(machine: MachineQuery): Promise<Set<string>> {
    const docs = await this.products
      .find(MongoProductRepository.fitFilter(machine), { _id: 0, id: 1, fits: 1 })
      .lean<Pick<ProductDoc, 'id' | 'fits'>[]>();
    return new Set(docs.filter((d) => fitsMachine(d.fits, machine)).map((d) => d.id));
  }

  idsFittingAny(fleet: FleetQuery): Promise<Set<string>> {
    return this.idsFittingAmong({}, fleet);
  }

  async fleetFits(ids: string[], fleet: FleetQuery): Promise<Map<string, number[]>> {
    const out = new Map<string, number[]>();
    if (ids.length === 0) return out;
    const docs = await this.products.find({ id: { $in: ids } }, { _id: 0, id: 1, fits: 1 }).lean<Pick<ProductDoc, 'id' | 'fits'>[]>();
    for (const d of docs) {
      const which = fleetFits((d.fits ?? []).map(fitKeyOf), fleet);
      if (which.length) out.set(d.id, which);
    }
    return out;
  }

  async findByCode(code: string, limit: number): Promise<ProductSummary[]> {
    const key = codeKey(code);
    if (!key) return [];
    const range = { $gte: key, $lt: codeKeyUpperBound(key) };
    const docs = await this.products
      .find({ $or: [{ skuKey: range }, { partKey: range }] }, { ...SUMMARY_PROJECTION, skuKey: 1, partKey: 1 })
      .sort(SORT)
      .limit(limit * 2)
      .lean<(SummaryDoc & { skuKey: string; partKey: string })[]>();
    // Exact codes first, then the rest by name (the sort the query already gave).
    const exact = (d: { skuKey: string; partKey: string }) => (d.skuKey === key || d.partKey === key ? 0 : 1);
    return docs
      .sort((a, b) => exact(a) - exact(b))
      .slice(0, limit)
      .map(toSummary);
  }

  async findCategory(slug: string): Promise<NamedSlug | null> {
    return (await this.currentTotals()).byCategory.get(slug) ?? null;
  }

  async findBrand(slug: string): Promise<NamedSlug | null> {
    return (await this.currentTotals()).byBrand.get(slug) ?? null;
  }

  async listSubcategories(): Promise<Subcategory[]> {
    return (await this.currentTotals()).subcategories;
  }

  async listTestimonials(q: { featured?: boolean }): Promise<Testimonial[]> {
    const filter = q.featured === undefined ? {} : { featured: q.featured };
    const docs = await this.testimonials.find(filter, TESTIMONIAL_PROJECTION).sort({ createdAt: -1, id: 1 }).lean<Testimonial[]>();
    return docs.map(toTestimonial);
  }

  async count(): Promise<number> {
    return (await this.currentTotals()).total;
  }

  /**
   * Runs the multi-step writes (upsertMany, insertTestimonials) of this process one after another. upsertMany reads
   * what is there, then inserts and moves the counts with $inc: two at once could both insert the same new SKU.
   * And FerretDB 1.x (the test server) neither applies $inc atomically (concurrent increments of one count were
   * lost: 12 simultaneous one-product writes left a count of 3) nor retries an upsert that lost an insert race
   * (E11000; MongoDB retries it on the server). Writes from other processes (the seed CLI) are not covered on
   * FerretDB; on MongoDB each update is atomic and `bulkWriteUpserts` covers the insert race.
   */
  private serialWrite<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.writes.then(fn, fn);
    this.writes = run.catch(() => undefined);
    return run;
  }

  upsertMany(products: Product[]): Promise<void> {
    if (products.length === 0) return Promise.resolve();
    return this.serialWrite(() => this.writeProducts(products));
  }

  private async writeProducts(products: Product[]): Promise<void> {
    // Last one wins when a batch names a SKU twice, as it would with sequential writes.
    const docs = [...new Map(products.map((p) => [p.sku, toDoc(p)])).values()];
    const skus = docs.map((d) => d.sku);
    const ids = docs.map((d) => d.id);
    try {
      // What is there now decides how the counts move: replaced documents leave their pair, new ones join theirs.
      const [bySku, idClashes] = await Promise.all([
        this.products.find({ sku: { $in: skus } }, { _id: 0, sku: 1, categorySlug: 1, brandSlug: 1 }).lean<ProductDoc[]>(),
        this.products.find({ id: { $in: ids }, sku: { $nin: skus } }, { _id: 0, sku: 1, categorySlug: 1, brandSlug: 1 }).lean<ProductDoc[]>(),
      ]);
      const deltas = new Map<string, { categorySlug: string; brandSlug: string; category?: string; brand?: string; n: number }>();
      const move = (d: Pick<ProductDoc, 'categorySlug' | 'brandSlug'> & Partial<ProductDoc>, n: number) => {
        const key = subcategoryId(d.categorySlug, d.brandSlug);
        const entry = deltas.get(key) ?? { categorySlug: d.categorySlug, brandSlug: d.brandSlug, n: 0 };
        entry.n += n;
        if (n > 0) {
          entry.category = d.category;
          entry.brand = d.brandName;
        }
        deltas.set(key, entry);
      };
      for (const old of [...bySku, ...idClashes]) move(old, -1);
      for (const d of docs) move(d, +1);

      if (idClashes.length > 0) await this.products.deleteMany({ sku: { $in: idClashes.map((d) => d.sku) } });
      // New SKUs go in with one insert (much faster than upserts, on FerretDB above all); existing ones are replaced.
      const existing = new Set(bySku.map((d) => d.sku));
      const fresh = docs.filter((d) => !existing.has(d.sku));
      const replaced = docs.filter((d) => existing.has(d.sku));
      if (fresh.length > 0) await this.products.insertMany(fresh, { ordered: false, lean: true });
      if (replaced.length > 0) {
        await bulkWriteUpserts(
          this.products,
          replaced.map((d) => ({ replaceOne: { filter: { sku: d.sku }, replacement: d, upsert: true } })),
        );
      }
      const countOps = [...deltas.entries()]
        .filter(([, e]) => e.n !== 0 || e.category !== undefined)
        .map(([key, e]) => ({
          updateOne: {
            filter: { _id: key },
            update: {
              $inc: { productCount: e.n },
              ...(e.category !== undefined
                ? { $set: { categorySlug: e.categorySlug, brandSlug: e.brandSlug, category: e.category, brand: e.brand } }
                : {}),
            },
            upsert: true,
          },
        }));
      if (countOps.length > 0) await bulkWriteUpserts(this.counts, countOps);
      // Only the pairs just moved can have emptied (by _id: no scan of the counts on every write).
      await this.counts.deleteMany({ _id: { $in: [...deltas.keys()] }, productCount: { $lte: 0 } });
    } finally {
      this.totals = null;
      this.machineLists.clear();
      await this.bumpVersion();
    }
  }

  insertTestimonials(items: Testimonial[]): Promise<void> {
    if (items.length === 0) return Promise.resolve();
    return this.serialWrite(() =>
      bulkWriteUpserts(
        this.testimonials,
        items.map((t) => ({ replaceOne: { filter: { id: t.id }, replacement: toTestimonial(t), upsert: true } })),
      ),
    );
  }

  async updateImages(id: string, update: ProductImagesUpdate): Promise<Product | null> {
    // updateOne then a read, not findOneAndUpdate with a projection: FerretDB v1 refuses that projection.
    const result = await this.products.updateOne({ id }, { $set: { images: update.images, imageUrl: update.imageUrl } });
    return result.matchedCount === 0 ? null : this.getById(id);
  }

  // The seller's catalogue: plain collections (documents as the contracts shape them), no mongoose models needed.
  private get retired() {
    return this.conn.collection<{ _id: string; sku: string; product: Product; retiredAt: string }>('retiredProducts');
  }
  private get audit() {
    return this.conn.collection<CatalogAuditEntry & { seq: number }>('catalogAudit');
  }
  private get imports() {
    return this.conn.collection<{ _id: string; state: string; job: CatalogImportJob }>('catalogImports');
  }
  private get importErrorDocs() {
    return this.conn.collection<ImportRowError & { importId: string; seq: number }>('catalogImportErrors');
  }
  private seq = 0;
  /** Increasing within this process and across restarts (time first), so audit and error lists keep their order. */
  private nextSeq() {
    this.seq = Math.max(this.seq + 1, Date.now() * 1000);
    return this.seq;
  }

  async listForAdmin(q: { categorySlug?: string; brandSlug?: string; inStock?: boolean; limit: number }): Promise<ProductSummary[]> {
    const filter: Record<string, unknown> = {};
    if (q.categorySlug !== undefined) filter.categorySlug = q.categorySlug;
    if (q.brandSlug !== undefined) filter.brandSlug = q.brandSlug;
    if (q.inStock !== undefined) filter.inStock = q.inStock;
    const docs = await this.products.find(filter, SUMMARY_PROJECTION).sort(SORT).limit(q.limit).lean<SummaryDoc[]>();
    return docs.map(toSummary);
  }

  async getBySkus(skus: string[]): Promise<Map<string, StoredPart>> {
    const out = new Map<string, StoredPart>();
    if (skus.length === 0) return out;
    const [live, gone] = await Promise.all([
      this.products.find({ sku: { $in: skus } }, { _id: 0 }).lean<ProductDoc[]>(),
      this.retired.find({ sku: { $in: skus } }).toArray(),
    ]);
    for (const r of gone) out.set(r.sku, { product: r.product, active: false });
    for (const d of live) out.set(d.sku, { product: toProduct(d), active: true });
    return out;
  }

  applyChanges(products: Product[], audit: CatalogAuditEntry[]): Promise<void> {
    return this.serialWrite(async () => {
      if (products.length) {
        await this.writeProducts(products);
        await this.retired.deleteMany({ sku: { $in: products.map((p) => p.sku) } });
      }
      await this.writeAudit(audit);
    });
  }

  private async writeAudit(audit: CatalogAuditEntry[]) {
    if (audit.length) await this.audit.insertMany(audit.map((a) => ({ ...a, seq: this.nextSeq() })));
  }

  deactivate(ids: string[], audit: CatalogAuditEntry[]): Promise<Product[]> {
    return this.serialWrite(async () => {
      const docs = await this.products.find({ id: { $in: ids } }, { _id: 0 }).lean<ProductDoc[]>();
      if (docs.length === 0) return [];
      const at = audit[0]?.at ?? new Date().toISOString();
      const moved = docs.map(toProduct);
      try {
        await this.retired.bulkWrite(
          moved.map((p) => ({ replaceOne: { filter: { _id: p.id }, replacement: { sku: p.sku, product: p, retiredAt: at }, upsert: true } })),
          { ordered: false },
        );
        await this.products.deleteMany({ id: { $in: moved.map((p) => p.id) } });
        const byPair = new Map<string, number>();
        for (const d of docs) byPair.set(subcategoryId(d.categorySlug, d.brandSlug), (byPair.get(subcategoryId(d.categorySlug, d.brandSlug)) ?? 0) + 1);
        await this.counts.bulkWrite(
          [...byPair].map(([key, n]) => ({ updateOne: { filter: { _id: key }, update: { $inc: { productCount: -n } } } })),
          { ordered: false },
        );
        await this.counts.deleteMany({ _id: { $in: [...byPair.keys()] }, productCount: { $lte: 0 } });
      } finally {
        this.totals = null;
        this.machineLists.clear();
        await this.bumpVersion();
      }
      const done = new Set(moved.map((p) => p.id));
      await this.writeAudit(audit.filter((a) => done.has(a.productId)));
      return moved;
    });
  }

  async getDeactivated(id: string): Promise<Product | null> {
    return (await this.retired.findOne({ _id: id }))?.product ?? null;
  }

  async *scanSkus(batchSize: number): AsyncIterable<{ id: string; sku: string }[]> {
    let after: unknown = null;
    for (;;) {
      const filter = after === null ? {} : { _id: { $gt: after } };
      const docs = await this.products.find(filter, { _id: 1, id: 1, sku: 1 }).sort({ _id: 1 }).limit(batchSize).lean<{ _id: unknown; id: string; sku: string }[]>();
      if (docs.length === 0) return;
      after = docs[docs.length - 1]!._id;
      yield docs.map((d) => ({ id: d.id, sku: d.sku }));
      if (docs.length < batchSize) return;
    }
  }

  async listAudit(q: { productId?: string; source?: string; limit: number }): Promise<CatalogAuditEntry[]> {
    const filter = q.productId ? { productId: q.productId } : q.source ? { source: q.source } : {};
    const docs = await this.audit.find(filter, { projection: { _id: 0, seq: 0 } }).sort({ seq: -1 }).limit(q.limit).toArray();
    return docs as CatalogAuditEntry[];
  }

  async saveImportJob(job: CatalogImportJob): Promise<void> {
    await this.imports.replaceOne({ _id: job.id }, { state: job.state, job }, { upsert: true });
  }

  async getImportJob(id: string): Promise<CatalogImportJob | null> {
    return (await this.imports.findOne({ _id: id }))?.job ?? null;
  }

  async addImportErrors(id: string, errors: ImportRowError[]): Promise<void> {
    if (errors.length) await this.importErrorDocs.insertMany(errors.map((e) => ({ ...e, importId: id, seq: this.nextSeq() })));
  }

  async *importErrors(id: string, batchSize: number): AsyncIterable<ImportRowError[]> {
    let after = 0;
    for (;;) {
      const docs = await this.importErrorDocs.find({ importId: id, seq: { $gt: after } }).sort({ seq: 1 }).limit(batchSize).toArray();
      if (docs.length === 0) return;
      after = docs[docs.length - 1]!.seq;
      yield docs.map((d) => ({ row: d.row, column: d.column, message: d.message }));
      if (docs.length < batchSize) return;
    }
  }

  async failUnfinishedImports(message: string, at: string): Promise<number> {
    const left = await this.imports.find({ state: { $in: ['queued', 'running'] } }).toArray();
    for (const d of left) await this.saveImportJob({ ...d.job, state: 'failed', message, finishedAt: at });
    return left.length;
  }

  async *scan(batchSize: number): AsyncIterable<Product[]> {
    let after: unknown = null;
    for (;;) {
      const filter = after === null ? {} : { _id: { $gt: after } };
      const docs = await this.products.find(filter).sort({ _id: 1 }).limit(batchSize).lean<(ProductDoc & { _id: unknown })[]>();
      if (docs.length === 0) return;
      after = docs[docs.length - 1]!._id;
      yield docs.map(toProduct);
      if (docs.length < batchSize) return;
    }
  }

  async close(): Promise<void> {
    await this.conn.close();
  }

  /** A page of `filter`'s parts by name; of a fleet's, each with the machines it fits (from its fits, read with it). */
  private async page(filter: Record<string, unknown>, total: number, q: { limit: number; offset: number }, fleet?: FleetQuery): Promise<Page<ProductSummary>> {
    const w = pageWindow(total, q.limit, q.offset);
    if (!w) return { items: [], total };
    const projection = fleet ? { ...SUMMARY_PROJECTION, fits: 1 } : SUMMARY_PROJECTION;
    const summary = (d: SummaryDoc & Pick<ProductDoc, 'fits'>): ProductSummary =>
      fleet ? { ...toSummary(d), fitsMachines: fleetFits((d.fits ?? []).map(fitKeyOf), fleet) } : toSummary(d);
    // A deep page starts from the list's anchor before it (domain/page-anchors.ts); a serial's id list is no list key.
    const start =
      q.offset >= ANCHOR_STRIDE && !('id' in filter) && !('$or' in filter)
        ? await this.anchors.start(await this.version(), JSON.stringify(filter), q.offset, () => this.readAnchors(filter))
        : null;
    if (start) {
      const { name, id } = start.anchor;
      const from = await this.products
        .find({ ...filter, $or: [{ name: { $gt: name } }, { name, id: { $gte: id } }] }, projection)
        .sort(SORT)
        .skip(start.skip)
        .limit(Math.min(q.limit, total - q.offset))
        .lean<(SummaryDoc & Pick<ProductDoc, 'fits'>)[]>();
      return { items: from.map(summary), total };
    }
    const docs = await this.products
      .find(filter, projection)
      .sort(w.desc ? SORT_DESC : SORT)
      .skip(w.offset)
      .limit(w.limit)
      .lean<(SummaryDoc & Pick<ProductDoc, 'fits'>)[]>();
    if (w.desc) docs.reverse();
    return { items: docs.map(summary), total };
  }

  private async readAnchors(filter: Record<string, unknown>): Promise<SortKey[]> {
    const out: SortKey[] = [];
    let n = 0;
    for await (const d of this.products.find(filter, { _id: 0, name: 1, id: 1 }).sort(SORT).lean<SortKey[]>().cursor({ batchSize: 5_000 })) {
      if (n++ % ANCHOR_STRIDE === 0) out.push({ name: d.name, id: d.id });
    }
    return out;
  }

  /** The catalogue's version: every write that adds, removes or renames parts bumps it, whichever process made it. */
  private async version(): Promise<number> {
    return (await this.meta.findOne({ _id: 'version' }))?.n ?? 0;
  }

  private async bumpVersion(): Promise<void> {
    await this.meta.updateOne({ _id: 'version' }, { $inc: { n: 1 } }, { upsert: true });
  }

  private get meta() {
    return this.conn.collection<{ _id: string; n: number }>('catalogMeta');
  }

  private currentTotals(): Promise<CatalogTotals> {
    if (this.totals && Date.now() - this.totals.at < TOTALS_TTL_MS) return this.totals.value;
    // An emptied pair left by a writer that died before deleting it (see writeProducts) is no subcategory.
    const value = this.counts
      .find({}, { _id: 0 })
      .lean<CountDoc[]>()
      .then((docs) => summarizeSubcategories(docs.filter((d) => d.productCount > 0).map((d) => toSubcategory(d))));
    const entry = { at: Date.now(), value };
    this.totals = entry;
    value.catch(() => {
      if (this.totals === entry) this.totals = null;
    });
    return value;
  }
}

/**
 * The queries this adapter sends that no index serves by the ESR rule, each with why that is deliberate. The mongo
 * suite fails on any other query no index serves (test/mongo-product-repository.test.ts, docs/operating.md#indexes);
 * a shape is written as that check prints it.
 */
export const UNINDEXED_QUERIES: { shape: string; reason: string }[] = [
  {
    shape: 'products find {"$or":[{"altCodes.key":{"$regex":"/…/"}}]} projection {"_id":0,"id":1,"altCodes":1}',
    reason:
      'a piece inside an older or another maker\'s number (#36): an unanchored pattern reads the altCodes.key index through (its keys, not the parts: ~0.6 per part), once per search of 4+ characters with a digit, limited to 40 parts',
  },
  {
    shape: 'subcategoryCounts find {} projection {"_id":0}',
    reason: 'the totals: one document per (category, brand) pair, a few thousand at most, read whole by design and cached TOTALS_TTL_MS',
  },
  {
    shape:
      'products find {"$or":[{"skuKey":{"$gte":"=","$lt":"="}},{"partKey":{"$gte":"=","$lt":"="}}]} sort {"name":1,"id":1} projection {"_id":0,"id":1,"name":1,"sku":1,"category":1,"tags":1,"imageUrl":1,"images":1,"inStock":1,"availability":1,"brandName":1,"brand":1,"partNumber":1,"slug":1,"skuKey":1,"partKey":1}',
    reason:
      'the admin lookup by code: each branch is bounded by its index (skuKey, partKey: a code prefix) and only the matches are sorted by name, in memory and top limit×2; an index in name order would be walked whole',
  },
  {
    shape:
      'products find {"inStock":"="} sort {"name":1,"id":1} projection {"_id":0,"id":1,"name":1,"sku":1,"category":1,"tags":1,"imageUrl":1,"images":1,"inStock":1,"availability":1,"brandName":1,"brand":1,"partNumber":1,"slug":1}',
    reason: "the admin list's stock filter: walks the (name, id) index in order, checking stock on each part, until `limit` match; admin-only, not worth an index on every product write",
  },
  {
    shape:
      'products find {"categorySlug":"=","inStock":"="} sort {"name":1,"id":1} projection {"_id":0,"id":1,"name":1,"sku":1,"category":1,"tags":1,"imageUrl":1,"images":1,"inStock":1,"availability":1,"brandName":1,"brand":1,"partNumber":1,"slug":1}',
    reason: "the admin list's stock filter within a category: walks (categorySlug, name, id) in order, checking stock, until `limit` match; admin-only",
  },
  ...[
    'products aggregate {"$or":[{"fitKeys":{"$in":["="]}},{"id":{"$in":["="]}}],"brandSlug":"=","categorySlug":"="} then $group',
    'products aggregate {"brandSlug":"=","categorySlug":"=","fitKeys":{"$in":["="]}} then $group',
    'products find {"$or":[{"fitKeys":{"$in":["="]}},{"id":{"$in":["="]}}],"brandSlug":"=","categorySlug":"="} sort {"name":1,"id":1} projection {"_id":0,"id":1,"name":1,"sku":1,"category":1,"tags":1,"imageUrl":1,"images":1,"inStock":1,"availability":1,"brandName":1,"brand":1,"partNumber":1,"slug":1,"fits":1}',
    'products find {"brandSlug":"=","categorySlug":"=","fitKeys":{"$in":["="]}} projection {"_id":0,"id":1,"fits":1}',
    'products find {"brandSlug":"=","categorySlug":"=","fitKeys":{"$in":["="]}} sort {"name":1,"id":1} projection {"_id":0,"id":1,"name":1,"sku":1,"category":1,"tags":1,"imageUrl":1,"images":1,"inStock":1,"availability":1,"brandName":1,"brand":1,"partNumber":1,"slug":1,"fits":1}',
  ].map((shape) => ({
    shape,
    reason:
      "a fleet's parts in one category of one brand: the (fitKeys, categorySlug, name, id) index bounds it to the fleet's parts in the category, the brand is checked on each; a fourth machine index on every part's writes is not worth the narrowest listing",
  })),
];
