import { z } from 'zod';
import { SearchNoticeSchema } from './search-insights.ts';
import { MAX_OFFSET, MAX_PAGE_LIMIT, MAX_QUERY_LENGTH, PaginationSchema, queryInt, queryText } from './common.ts';
import { slugify } from './slug.ts';

/** Another maker's number for the same part (an OEM's, an aftermarket maker's). */
export const CrossReferenceSchema = z.object({ brand: z.string(), partNumber: z.string() });
export type CrossReference = z.infer<typeof CrossReferenceSchema>;

/** A machine the part fits; a serial range narrows it to some units of the model (either end may be open). */
export const FitmentSchema = z.object({
  make: z.string(),
  model: z.string(),
  serialFrom: z.string().optional(),
  serialTo: z.string().optional(),
});
export type Fitment = z.infer<typeof FitmentSchema>;

/**
 * A machine's assembly a part is drawn in (#38), and its callout numbers there: a part's "Where used", and what a
 * search naming a machine can open (the numbers of the parts it found).
 */
export const AssemblyRefSchema = z.object({
  make: z.string(),
  model: z.string(),
  makeSlug: z.string(),
  modelSlug: z.string(),
  assemblySlug: z.string(),
  assemblyName: z.string(),
  callouts: z.array(z.string()),
});

/** Spec section 3, Product. `specifications` is a flat name -> value table (e.g. "Thread" -> "M20x1.5"). */
export const ProductSchema = z.object({
  id: z.string(),
  name: z.string(),
  sku: z.string(),
  category: z.string(),
  tags: z.array(z.string()),
  description: z.string(),
  imageUrl: z.string(),
  inStock: z.boolean(),
  brandName: z.string(),
  make: z.string(),
  partNumber: z.string(),
  slug: z.string(),
  price: z.number(),
  brand: z.string(),
  images: z.array(z.string()),
  availability: z.string(),
  specifications: z.record(z.string(), z.string()),
  weight: z.string(),
  dimensions: z.string(),
  createdAt: z.string(),
  // The part's history and reach (added to the spec's shape; absent in older data means none).
  /** Older part numbers this part supersedes (the maker's chain: A is replaced by B, B by this one). */
  replaces: z.array(z.string()).optional(),
  crossReferences: z.array(CrossReferenceSchema).optional(),
  fits: z.array(FitmentSchema).optional(),
});
export type Product = z.infer<typeof ProductSchema>;

/** The part that supersedes another, as the older part's page links to it. */
export const ProductRefSchema = z.object({ id: z.string(), name: z.string(), partNumber: z.string(), slug: z.string() });
export type ProductRef = z.infer<typeof ProductRefSchema>;

/** GET /api/products/{id}: the product, and the current part when this one has been superseded. */
export const ProductDetailSchema = ProductSchema.extend({
  replacedBy: ProductRefSchema.nullable().optional(),
  /** The machines' assemblies the part is drawn in (#38), at most 50 of `total`. */
  whereUsed: z
    .object({
      total: z.number().int(),
      /** Its callout numbers there, and how many the assembly holds. */
      assemblies: z.array(AssemblyRefSchema.extend({ quantity: z.number().int() })),
    })
    .optional(),
});
export type ProductDetail = z.infer<typeof ProductDetailSchema>;

/** How a search hit matched when not by its own number or words: an old number it replaces, or a cross-reference. */
export const AltCodeMatchSchema = z.object({
  kind: z.enum(['superseded', 'cross_reference']),
  /** The number as the part's data has it (for a cross-reference: "Brand Number"). */
  value: z.string(),
});
export type AltCodeMatch = z.infer<typeof AltCodeMatchSchema>;

/** What a new product needs; everything else has the defaults of spec section 3. */
export const NewProductSchema = ProductSchema.partial().extend({
  name: z.string().trim().min(1).max(300),
  sku: z.string().trim().min(1).max(80),
  category: z.string().trim().min(1).max(120),
  brandName: z.string().trim().min(1).max(120),
});
export type NewProduct = z.infer<typeof NewProductSchema>;

/** Where a search query matched: [start, end) character ranges per field, so the web app highlights without HTML. */
export const SearchMatchSchema = z.object({
  field: z.enum(['name', 'partNumber', 'sku', 'brandName', 'category', 'tags', 'description']),
  ranges: z.array(z.tuple([z.number().int(), z.number().int()])),
});
export type SearchMatch = z.infer<typeof SearchMatchSchema>;

/** A product as lists show it (cards, dropdown, gallery): the heavy text fields are left out. */
export const ProductSummarySchema = ProductSchema.pick({
  id: true,
  name: true,
  sku: true,
  category: true,
  tags: true,
  imageUrl: true,
  images: true,
  inStock: true,
  availability: true,
  brandName: true,
  brand: true,
  partNumber: true,
  slug: true,
}).extend({
  matches: z.array(SearchMatchSchema).optional(),
  match: AltCodeMatchSchema.optional(),
  /** In an answer narrowed by `machines` only: the indices (into `machines`, as given) of the machines the part fits. */
  fitsMachines: z.array(z.number().int()).optional(),
});
export type ProductSummary = z.infer<typeof ProductSummarySchema>;

/** The most machines one `machines` filter lists. */
export const MAX_FLEET_MACHINES = 100;
/**
 * The longest `machines` filter, in characters: 100 machines as slugs with serials (~50 characters each) fit, and even
 * percent-encoded three times over it stays inside the 16 kB a request's line and headers may take (a longer line is
 * cut off with 431 before it is read).
 */
export const MAX_FLEET_PARAM_CHARS = 5_000;

/** One machine of a `machines` filter: make and model as the single filter takes them (names or slugs), serial optional. */
export interface FleetMachine {
  make: string;
  model: string;
  serial?: string;
}

const FLEET_ENTRY = 'must be make~model or make~model~serial (make and model as /api/fitment/makes and /models name them, or their slugs)';

/**
 * `machines`: a buyer's fleet, comma-separated `make~model` or `make~model~serial` entries. Each part of an entry is
 * what make, model and serial take (at most 120 characters); a bad entry is named by its index (`machines.2`).
 * Empty: no filter.
 */
const fleetParam = z
  .string()
  .trim()
  .max(MAX_FLEET_PARAM_CHARS, `must be at most ${MAX_FLEET_PARAM_CHARS.toLocaleString('en-US')} characters (send makes and models as slugs)`)
  .transform((text, ctx): FleetMachine[] | undefined => {
    if (!text) return undefined;
    const entries = text.split(',');
    if (entries.length > MAX_FLEET_MACHINES) {
      ctx.addIssue({ code: 'custom', message: `must list at most ${MAX_FLEET_MACHINES} machines`, input: text });
      return z.NEVER;
    }
    const fleet: FleetMachine[] = [];
    entries.forEach((entry, i) => {
      const [make = '', model = '', serial, ...rest] = entry.split('~').map((s) => s.trim());
      const tooLong = [make, model, serial ?? ''].some((s) => s.length > MAX_QUERY_LENGTH);
      if (rest.length || !slugify(make) || !slugify(model) || tooLong) {
        ctx.addIssue({ code: 'custom', path: [i], input: entry, message: tooLong ? `has a part over ${MAX_QUERY_LENGTH} characters` : FLEET_ENTRY });
        return;
      }
      fleet.push({ make, model, ...(serial ? { serial } : {}) });
    });
    return fleet;
  })
  .optional();

/**
 * make, model and serial: narrow a listing, the gallery or a search to parts that fit one machine; or `machines`, to
 * the parts that fit any machine of a fleet (each part then says which: `fitsMachines`). Not both: the query schemas
 * that spread these fields check that with `oneMachineFilter`.
 */
export const MachineFilterSchema = z.object({
  make: queryText.optional(),
  model: queryText.optional(),
  serial: queryText.optional(),
  machines: fleetParam.describe(
    `A fleet: up to ${MAX_FLEET_MACHINES} machines, comma-separated, each make~model or make~model~serial (caterpillar~320d,komatsu~pc200-8~KMTPC123); instead of make, model and serial`,
  ),
});
export type MachineFilter = z.infer<typeof MachineFilterSchema>;

/** The refinement every query schema with the machine filter carries: `machines` or make/model/serial, not both. */
export const oneMachineFilter: [check: (q: MachineFilter) => boolean, issue: { message: string; path: string[] }] = [
  (q) => !(q.machines && (q.make || q.model || q.serial)),
  { message: 'give either machines or make/model, not both', path: ['machines'] },
];

/** The one list shape: category pages, gallery, brand pages and the header search all answer with it. */
export const ProductListResponseSchema = z.object({
  products: z.array(ProductSummarySchema),
  pagination: PaginationSchema,
  /** A search whose query staff marked not stocked (#36): what to say, and that buyers can still ask for it. */
  notice: SearchNoticeSchema.optional(),
  /**
   * A search naming a machine and a word of its parts book ("320D idler seal", #38): the assemblies it can open, best
   * first (at most 3; only on a search's first page).
   */
  assemblies: z.array(AssemblyRefSchema).optional(),
});
export type ProductListResponse = z.infer<typeof ProductListResponseSchema>;

const limit = (fallback: number) => queryInt({ min: 1, max: MAX_PAGE_LIMIT, fallback });
const offset = queryInt({ min: 0, max: MAX_OFFSET, fallback: 0 });

/** GET /api/products: either a category listing (category, brand?) or the header search (search). */
export const ProductListQuerySchema = z
  .object({
    category: queryText.optional(),
    brand: queryText.optional(),
    search: queryText.optional(),
    limit: limit(75),
    offset,
    ...MachineFilterSchema.shape,
  })
  .refine((q) => q.category || q.search || q.brand, {
    message: 'give category (optionally with brand) or search',
    path: ['category'],
  })
  .refine(...oneMachineFilter);
export type ProductListQuery = z.infer<typeof ProductListQuerySchema>;

/** GET /api/catalog/products: the image gallery. */
export const CatalogQuerySchema = z
  .object({ search: queryText.optional(), limit: limit(48), offset, ...MachineFilterSchema.shape })
  .refine(...oneMachineFilter);
export type CatalogQuery = z.infer<typeof CatalogQuerySchema>;

/** GET /api/brands/{brand}/products */
export const BrandProductsQuerySchema = z
  .object({
    page: queryInt({ min: 1, max: 100_000, fallback: 1 }),
    limit: limit(75),
    ...MachineFilterSchema.shape,
  })
  .refine(...oneMachineFilter);
export const BrandProductsResponseSchema = ProductListResponseSchema.extend({
  brand: z.object({ name: z.string(), slug: z.string(), productCount: z.number().int() }),
});
export type BrandProductsResponse = z.infer<typeof BrandProductsResponseSchema>;

/** GET /api/subcategories: one item per brand and category pair. */
export const SubcategorySchema = z.object({
  id: z.string(),
  name: z.string(),
  brand: z.string(),
  category: z.string(),
  brandSlug: z.string(),
  categorySlug: z.string(),
  productCount: z.number().int(),
});
export type Subcategory = z.infer<typeof SubcategorySchema>;
export const SubcategoryListSchema = z.array(SubcategorySchema);

export const CategorySchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  imageUrl: z.string(),
  productCount: z.number().int(),
});
export type Category = z.infer<typeof CategorySchema>;

/** Spec section 3, Testimonial. */
export const TestimonialSchema = z.object({
  id: z.string(),
  customerName: z.string(),
  customerLocation: z.string(),
  customerPhoto: z.string().nullable(),
  rating: z.number().int().min(1).max(5),
  review: z.string(),
  featured: z.boolean(),
  createdAt: z.string(),
});
export type Testimonial = z.infer<typeof TestimonialSchema>;
export const TestimonialQuerySchema = z.object({ featured: z.enum(['true', 'false']).optional() });

/** Admin reads (behind the gateway's token check). */
export const AdminProductRowSchema = ProductSchema.pick({
  id: true,
  name: true,
  sku: true,
  partNumber: true,
  category: true,
  imageUrl: true,
}).extend({
  images: z.array(z.string()),
  /** The part's brand: two brands may number parts alike, so a picker shows it (the parts-diagram editor). */
  brandName: z.string().optional(),
});
export type AdminProductRow = z.infer<typeof AdminProductRowSchema>;
export const AdminProductsQuerySchema = z.object({ search: queryText.optional(), limit: limit(50) });
export const AdminProductListSchema = z.array(AdminProductRowSchema);
export const AdminCodeSearchQuerySchema = z.object({ q: queryText.min(1, 'is required') });
export const AdminCodeSearchResponseSchema = z.object({
  success: z.boolean(),
  products: z.array(AdminProductRowSchema),
});

/** Internal: the media worker tells the catalog a product's processed images. */
export const ProductImagesUpdateSchema = z.object({
  images: z.array(z.string().min(1).max(500)).max(50),
  imageUrl: z.string().max(500),
});
export type ProductImagesUpdate = z.infer<typeof ProductImagesUpdateSchema>;

/** Route parameters. Product ids are UUIDs (8-4-4-4-12 hex); anything else is refused before a lookup. */
export const ProductIdParamsSchema = z.object({ id: z.guid('must be a UUID') });
export const BrandParamsSchema = z.object({ brand: z.string().trim().min(1, 'is required').max(120) });
export const SkuParamsSchema = z.object({ sku: z.string().trim().min(1, 'is required').max(80) });

/** The most ids and SKUs one lookup takes, together. */
export const MAX_LOOKUP_ITEMS = 200;

/** POST /api/products/lookup: the parts of an earlier order (a reorder), by id or SKU, as they stand today. */
export const ProductLookupRequestSchema = z
  .object({
    ids: z.array(ProductIdParamsSchema.shape.id).max(MAX_LOOKUP_ITEMS, `must list at most ${MAX_LOOKUP_ITEMS}`).optional(),
    skus: z.array(SkuParamsSchema.shape.sku).max(MAX_LOOKUP_ITEMS, `must list at most ${MAX_LOOKUP_ITEMS}`).optional(),
  })
  .refine((b) => (b.ids?.length ?? 0) + (b.skus?.length ?? 0) > 0, { message: 'give at least one id or sku', path: ['ids'] })
  .refine((b) => (b.ids?.length ?? 0) + (b.skus?.length ?? 0) <= MAX_LOOKUP_ITEMS, {
    message: `give at most ${MAX_LOOKUP_ITEMS} ids and skus together`,
    path: ['ids'],
  });
export type ProductLookupRequest = z.infer<typeof ProductLookupRequestSchema>;

/**
 * current: on sale as it is. superseded: on sale, but another live part has replaced it (`replacedBy`, the end of the
 * chain, as a product page's replacedBy). not_sold: no such id or SKU, or taken off the storefront (`product` null;
 * `replacedBy` names the live part that replaced one taken off, when there is one).
 */
export const LOOKUP_STATUSES = ['current', 'superseded', 'not_sold'] as const;
export const ProductLookupItemSchema = z.object({
  /** The id or SKU as asked. */
  requested: z.string(),
  status: z.enum(LOOKUP_STATUSES),
  product: ProductSummarySchema.nullable(),
  replacedBy: ProductSummarySchema.nullable(),
});
export type ProductLookupItem = z.infer<typeof ProductLookupItemSchema>;
/** One item per id asked, then one per SKU asked, each in the order given (repeats answered again). */
export const ProductLookupResponseSchema = z.object({ items: z.array(ProductLookupItemSchema) });
export type ProductLookupResponse = z.infer<typeof ProductLookupResponseSchema>;

/** GET /media/generated/{category}/{brand}/{part}.svg: three slugs (spec section 5 rule). */
const slugParam = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a slug (a-z, 0-9, single hyphens)').max(120);
export const GeneratedImageParamsSchema = z.object({ category: slugParam, brand: slugParam, part: slugParam });

/** GET /api/fitment/makes: the machine makes parts fit, with how many parts fit each. */
export const FitmentMakeSchema = z.object({ make: z.string(), slug: z.string(), productCount: z.number().int() });
export const FitmentMakesResponseSchema = z.object({ makes: z.array(FitmentMakeSchema) });
export type FitmentMakesResponse = z.infer<typeof FitmentMakesResponseSchema>;
/** GET /api/fitment/models?make= */
export const FitmentModelsQuerySchema = z.object({ make: queryText.min(1, 'is required: a make from /api/fitment/makes') });
export const FitmentModelSchema = z.object({ model: z.string(), slug: z.string(), productCount: z.number().int() });
export const FitmentModelsResponseSchema = z.object({ make: z.string(), slug: z.string(), models: z.array(FitmentModelSchema) });
export type FitmentModelsResponse = z.infer<typeof FitmentModelsResponseSchema>;
