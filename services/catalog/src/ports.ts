import type { QueryStats, QueryStatus } from '@forgeline/contracts/search-insights';
import type {
  Product,
  ProductImagesUpdate,
  ProductSummary,
  SearchMatch,
  Subcategory,
  Testimonial,
} from '@forgeline/contracts/products';
import type { CatalogAuditEntry, CatalogImportJob, ImportRowError } from '@forgeline/contracts/catalog-admin';
import type { Assembly, AssemblyHistoryEntry } from '@forgeline/contracts/parts-diagrams';

export interface Page<T> {
  items: T[];
  total: number;
  /**
   * The items as a JSON array, when the store composes it itself (SQLite builds each summary's JSON in SQL): an
   * answer splices it in instead of making objects of the rows and serialising them again. Same content as `items`.
   */
  itemsJson?: string;
}

/** A machine filter as slugs; `serial` narrows by the fits' ranges. */
export interface MachineQuery {
  makeSlug: string;
  modelSlug?: string;
  serial?: string;
}

/** How a list is narrowed to machines: one (`machine`) or a fleet (`fleet`), never both. */
export interface MachineNarrowing {
  machine?: MachineQuery;
  fleet?: FleetQuery;
}

/** A buyer's fleet: the parts that fit any of its machines (each names a model). Answers say which by index into it. */
export type FleetQuery = (MachineQuery & { modelSlug: string })[];

/** A part found by one of its other numbers. */
export interface AltCodeHit {
  productId: string;
  kind: 'superseded' | 'cross_reference';
  key: string;
  value: string;
}

/** A machine make or model parts fit, with how many live parts fit it. */
export interface MachineCount {
  name: string;
  slug: string;
  productCount: number;
}

export interface NamedSlug {
  name: string;
  slug: string;
  productCount: number;
}

/**
 * The catalog's storage. Brand and category arguments are slugs (spec section 5 rule), so
 * "Caterpillar", "caterpillar" and "CATERPILLAR" all reach the same rows. Lists are ordered by name, then id.
 */
export interface ProductRepository {
  getById(id: string): Promise<Product | null>;
  getBySku(sku: string): Promise<Product | null>;
  /** Summaries in the order of `ids`; unknown ids are left out. Used to hydrate search hits. */
  getSummaries(ids: string[]): Promise<ProductSummary[]>;
  /**
   * `machine` narrows a list to the parts that fit it, `fleet` to those that fit any of its machines, each item then
   * with fitsMachines (counts follow).
   */
  listByCategory(q: { categorySlug: string; brandSlug?: string; limit: number; offset: number } & MachineNarrowing): Promise<Page<ProductSummary>>;
  listByBrand(q: { brandSlug: string; limit: number; offset: number } & MachineNarrowing): Promise<Page<ProductSummary>>;
  listAll(q: { limit: number; offset: number } & MachineNarrowing): Promise<Page<ProductSummary>>;
  /**
   * Parts whose older numbers or cross-references have one of these normalised keys (or, with `prefix`, start with
   * it; with `infix`, hold it anywhere), at most `limit` rows; `kind` narrows to one of the two.
   */
  findAltCodes(q: { keys: string[]; prefix?: string; infix?: string; kind?: AltCodeHit['kind']; limit: number }): Promise<AltCodeHit[]>;
  /** The makes parts fit, by name. */
  listMachineMakes(): Promise<MachineCount[]>;
  /** The models of one make parts fit, by name; null when no part fits the make. */
  listMachineModels(makeSlug: string): Promise<{ make: MachineCount; models: MachineCount[] } | null>;
  /** Ids of the live parts that fit a machine (the search narrows its hits with them). */
  idsFitting(machine: MachineQuery): Promise<Set<string>>;
  /** Ids of the live parts that fit any machine of a fleet (as idsFitting). */
  idsFittingAny(fleet: FleetQuery): Promise<Set<string>>;
  /** For each of these parts that fits a machine of the fleet, which ones (indices into `fleet`, ascending): search hits' fitsMachines. */
  fleetFits(ids: string[], fleet: FleetQuery): Promise<Map<string, number[]>>;
  /** Admin part-number search: sku or part number starting with `code`, ignoring case, spaces and punctuation. */
  findByCode(code: string, limit: number): Promise<ProductSummary[]>;
  findCategory(slug: string): Promise<NamedSlug | null>;
  findBrand(slug: string): Promise<NamedSlug | null>;
  listSubcategories(): Promise<Subcategory[]>;
  listTestimonials(q: { featured?: boolean }): Promise<Testimonial[]>;
  count(): Promise<number>;
  /** Bulk insert (seed, import), in one transaction where the store has them. A product whose SKU (or id) exists replaces it. */
  upsertMany(products: Product[]): Promise<void>;
  /**
   * The seed's load into an empty catalogue, where the store has a faster way than upsertMany for it (SQLite: its
   * indexes built once, at the end); the catalogue it leaves is the one upsertMany would. Readers see none of it
   * until all is in. Resolves false without reading `batches` when the catalogue has parts (the caller upserts
   * then). Each SKU and id may come once.
   */
  loadIntoEmpty?(batches: AsyncIterable<Product[]>): Promise<boolean>;
  insertTestimonials(items: Testimonial[]): Promise<void>;
  updateImages(id: string, update: ProductImagesUpdate): Promise<Product | null>;
  /** Every product in batches, for a full reindex. */
  scan(batchSize: number): AsyncIterable<Product[]>;

  // The seller's catalogue: imports, edits, parts taken off the storefront, and the record of every change.
  /** The admin panel's list: by name, narrowed by category, brand (slugs) and stock. */
  listForAdmin(q: { categorySlug?: string; brandSlug?: string; inStock?: boolean; limit: number }): Promise<ProductSummary[]>;
  /** Parts stored under these SKUs, live or deactivated (an import names both). */
  getBySkus(skus: string[]): Promise<Map<string, StoredPart>>;
  /**
   * Writes parts (upsert by SKU, as upsertMany) with their audit entries, in one transaction where the store has
   * them; a deactivated part written here is live again.
   */
  applyChanges(products: Product[], audit: CatalogAuditEntry[]): Promise<void>;
  /**
   * Takes live parts off the storefront: kept, but gone from listings, counts, search sources and sitemaps.
   * Returns the parts it moved.
   */
  deactivate(ids: string[], audit: CatalogAuditEntry[]): Promise<Product[]>;
  /** A part taken off the storefront (its page answers 410 with a way to its category). */
  getDeactivated(id: string): Promise<Product | null>;
  /** Every live part's id and SKU, in batches. */
  scanSkus(batchSize: number): AsyncIterable<{ id: string; sku: string }[]>;
  listAudit(q: { productId?: string; source?: string; limit: number }): Promise<CatalogAuditEntry[]>;
  saveImportJob(job: CatalogImportJob): Promise<void>;
  getImportJob(id: string): Promise<CatalogImportJob | null>;
  addImportErrors(id: string, errors: ImportRowError[]): Promise<void>;
  /** Every error of an import, in row order, in batches. */
  importErrors(id: string, batchSize: number): AsyncIterable<ImportRowError[]>;
  /** Marks imports left queued or running by a stopped process as failed; returns how many. */
  failUnfinishedImports(message: string, at: string): Promise<number>;
  close(): Promise<void>;
}

export interface StoredPart {
  product: Product;
  /** false: taken off the storefront. */
  active: boolean;
}

export interface SearchHit {
  id: string;
  matches: SearchMatch[];
}

export interface SearchOptions {
  limit: number;
  offset: number;
  /** Narrow to a brand or category slug. */
  brandSlug?: string;
  categorySlug?: string;
  /**
   * Narrow to the parts that fit a machine or any machine of a fleet: `machine` or `fleet` for engines that filter on
   * them, `onlyIds` (from the store) exactly.
   */
  machine?: MachineQuery;
  fleet?: FleetQuery;
  onlyIds?: Set<string>;
  /** Staff's synonym sets (#36), with a version that changes with them (an engine compiles or applies them once per version). */
  synonyms?: SearchSynonyms;
}

export interface SearchSynonyms {
  version: string;
  sets: { words: string[]; mode: 'both' | 'one-way' }[];
}

/** Product search: typo-tolerant and part-number aware (see README, "Search relevance"). */
export interface SearchIndex {
  search(query: string, opts: SearchOptions): Promise<{ hits: SearchHit[]; total: number }>;
  upsert(products: Product[]): Promise<void>;
  remove(ids: string[]): Promise<void>;
  /**
   * A bulk write (an import) starts: background index maintenance that would compete with it waits until the returned
   * release is called (the embedded engine's full merge). Absent where the index has none to hold (Meilisearch).
   */
  holdMerges?(): () => void;
  /** Drop everything and index all products from `source` (npm run reindex). */
  rebuild(source: AsyncIterable<Product[]>): Promise<void>;
  /** Number of indexed documents (lets main.ts decide whether a rebuild is needed at start). */
  size(): Promise<number>;
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * A change to the catalogue as one replica tells the others: parts written (to be read again from storage by id and
 * SKU) and parts taken out of search. It names parts, never carries them: the storage every replica shares is the
 * truth, so an entry applied twice or late still ends where storage is.
 */
export interface CatalogChange {
  upserted: { id: string; sku: string }[];
  removed: string[];
  /** Read the whole catalogue again (changes were lost, e.g. more than a writer could keep while the feed was down). */
  resync?: boolean;
}

/** Where a reader stands in the feed: the last entry it has (id) and that entry's number (n, counted 1, 2, 3… by the feed). */
export interface ChangeFeedPosition {
  id: string;
  n: number;
}

export interface ChangeFeedEntry extends ChangeFeedPosition {
  /** The replica that announced it ('' when every replica, the writer too, must apply it). */
  by: string;
  change: CatalogChange;
}

/**
 * The durable, ordered record of catalogue changes the replicas of one catalog share (Redis stream with REDIS_URL).
 * Entries are numbered without gaps, so a reader knows when some were trimmed away or lost.
 */
export interface CatalogChangeFeed {
  /** Appends in order; never throws and never waits: what cannot be sent now is kept and sent when the feed is back. */
  announce(change: CatalogChange, by: string): void;
  /** The last entry now ({ id: '0-0', n: 0 } for a feed that has none yet). */
  head(): Promise<ChangeFeedPosition>;
  /** Up to `count` entries after `from`, and the feed's own count at that same instant. */
  readAfter(from: ChangeFeedPosition, count: number): Promise<{ entries: ChangeFeedEntry[]; n: number }>;
  /** Entries after `from`, waiting up to `blockMs` for the first one ([] when none came). */
  waitAfter(from: ChangeFeedPosition, count: number, blockMs: number): Promise<ChangeFeedEntry[]>;
  /** Announcements not yet appended. */
  pending(): number;
  /** Stops waiting reads (they reject) and tries once more to send what is kept. */
  close(): Promise<void>;
}

/** One query's counters over one day, as a batch of buffered events adds them (#36). */
export interface QueryDayCounts {
  day: string;
  /** Normalised (domain/search-insights.ts, searchQueryKey). */
  query: string;
  /** The latest query as typed. */
  example: string;
  searches: number;
  zeroResults: number;
  /** Hits of the latest search in the batch (-1: none in it). */
  hits: number;
  opens: number;
  quoteAdds: number;
  firstAt: string;
  lastAt: string;
}

/** A flushed batch of search events, already counted per day and query (no event is stored one by one). */
export interface SearchEventBatch {
  queries: QueryDayCounts[];
  /** Who searched what on which day (distinct visitors; the demand report joins them to quote requests). */
  visitors: { day: string; query: string; visitor: string }[];
  quoteRequests: { day: string; visitor: string }[];
}

/** One query over a period, before its status is joined. */
export type QueryPeriodStats = Omit<QueryStats, 'status' | 'note'>;

export interface StoredAlias {
  id: string;
  text: string;
  key: string;
  productIds: string[];
  createdAt: string;
}
export interface StoredSynonym {
  id: string;
  words: string[];
  mode: 'both' | 'one-way';
  createdAt: string;
}

/**
 * What buyers searched, counted per day and query, with random visitor ids and no personal data (#36), and the
 * staff's search rules: query statuses, aliases and synonyms. SQLite `${DATA_DIR}/search-insights.sqlite` or MongoDB.
 */
export interface SearchInsightsStore {
  record(batch: SearchEventBatch): Promise<void>;
  /** Forgets a visitor id (the buyer cleared it): how many rows went. */
  forgetVisitor(visitor: string): Promise<number>;
  /** Drops counts older than `day` (YYYY-MM-DD): the retention period. */
  prune(beforeDay: string): Promise<number>;
  perDay(fromDay: string, toDay: string): Promise<{ day: string; searches: number; zeroResults: number; visitors: number }[]>;
  /** Totals over the period: searches, zero-result searches, distinct visitors, distinct queries. */
  totals(fromDay: string, toDay: string): Promise<{ searches: number; zeroResults: number; visitors: number; queries: number }>;
  /**
   * Queries over the period, `limit` of them: the most searched (`top`), those that found nothing (`zero`: zero-result
   * searches > 0, most first), or that found parts nobody opened or added (`unopened`); `exclude` leaves queries out.
   */
  queries(q: { fromDay: string; toDay: string; limit: number; kind: 'top' | 'zero' | 'unopened'; exclude?: string[] }): Promise<QueryPeriodStats[]>;
  /** The given queries over the period, with how many of their visitors sent a quote request that day or later. */
  demand(q: { fromDay: string; toDay: string; queries: string[] }): Promise<Map<string, { visitors: number; quoteRequesters: number }>>;
  /** Queries with a status other than open (all of them: staff set a few hundred at most). */
  statuses(): Promise<Map<string, { status: QueryStatus; note?: string }>>;
  setStatus(query: string, status: QueryStatus, note?: string): Promise<void>;
  listAliases(): Promise<StoredAlias[]>;
  /** Adds or replaces the alias of `key`. */
  putAlias(alias: StoredAlias): Promise<void>;
  removeAlias(id: string): Promise<StoredAlias | null>;
  listSynonyms(): Promise<StoredSynonym[]>;
  addSynonym(synonym: StoredSynonym): Promise<void>;
  removeSynonym(id: string): Promise<StoredSynonym | null>;
  /** Changes with every status, alias or synonym change: replicas compare it to know their rules are stale. */
  rulesVersion(): Promise<string>;
  close(): Promise<void>;
}

/** A machine model that has assemblies, as the sitemap and the staff's list name it. */
export interface DiagramModel {
  make: string;
  model: string;
  makeSlug: string;
  modelSlug: string;
  assemblies: number;
}

/**
 * Parts diagrams (#38): the assemblies of machine models with their drawings and callouts, the record of every change
 * to them, and where each part is drawn. SQLite `${DATA_DIR}/parts-diagrams.sqlite` or MongoDB. Lists by name.
 */
export interface DiagramStore {
  get(id: string): Promise<Assembly | null>;
  getBySlug(makeSlug: string, modelSlug: string, slug: string): Promise<Assembly | null>;
  /** A model's assemblies, by name. */
  listForModel(makeSlug: string, modelSlug: string): Promise<Assembly[]>;
  /** The staff's list: narrowed by make and model slugs and a word of the name, at most `limit`. */
  list(q: { makeSlug?: string; modelSlug?: string; search?: string; limit: number }): Promise<Assembly[]>;
  /**
   * Writes assemblies (new or changed) with their history entries in one transaction where the store has them. An
   * assembly whose stored version is not `expected` (null: must not exist yet) is not written and its id returned:
   * someone else changed it meanwhile. Nothing is written when any conflicts.
   */
  save(changes: { assembly: Assembly; expected: number | null; entry: AssemblyHistoryEntry }[]): Promise<{ conflicts: string[] }>;
  /** Deletes one, keeping its history (with the entry); null when there was none. */
  remove(id: string, entry: AssemblyHistoryEntry): Promise<Assembly | null>;
  history(id: string, limit: number): Promise<AssemblyHistoryEntry[]>;
  /** The assemblies a part is drawn in, by model and name, at most `limit`, and how many there are in all. */
  whereUsed(productId: string, limit: number): Promise<{ items: Assembly[]; total: number }>;
  /** The machine models with assemblies, by make and model. */
  models(): Promise<DiagramModel[]>;
  /** Every assembly in batches (by make, model, name), for the export and the sitemap. */
  scan(batchSize: number): AsyncIterable<Assembly[]>;
  count(): Promise<number>;
  close(): Promise<void>;
}
