/**
 * Test data for the web component tests, built through the contracts' zod schemas (packages/contracts): a fixture
 * that drifts from what the services answer fails to parse, and the test with it.
 */
import { CurrentSessionResponseSchema } from '@forgeline/contracts/admin-access';
import { CatalogImportJobSchema, type CatalogImportJob } from '@forgeline/contracts/catalog-admin';
import { paginate } from '@forgeline/contracts/common';
import { PartsMatchResponseSchema, type PartsMatchLine, type PartsMatchResponse } from '@forgeline/contracts/parts-match';
import {
  FitmentMakesResponseSchema,
  FitmentModelsResponseSchema,
  ProductListResponseSchema,
  ProductSummarySchema,
  type FitmentMakesResponse,
  type FitmentModelsResponse,
  type ProductListResponse,
  type ProductSummary,
} from '@forgeline/contracts/products';
import {
  InboxDetailSchema,
  InboxItemSchema,
  InboxListResponseSchema,
  InboxStaffResponseSchema,
  InboxStatsSchema,
  INBOX_STATUSES,
  type InboxDetail,
  type InboxItem,
  type InboxListResponse,
  type InboxStats,
} from '@forgeline/contracts/quote-inbox';
import { QuoteRequestResponseSchema, type QuoteRequestResponse } from '@forgeline/contracts/quotes';
import { http, HttpResponse } from 'msw';

let seq = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;

export function product(over: Partial<ProductSummary> = {}): ProductSummary {
  const id = over.id ?? uuid();
  return ProductSummarySchema.parse({
    id,
    name: 'Oil Filter',
    sku: `SKU-${id.slice(-4)}`,
    category: 'Filters',
    tags: [],
    imageUrl: '',
    images: [],
    inStock: true,
    availability: 'In Stock',
    brandName: 'Caterpillar',
    brand: 'caterpillar',
    partNumber: `1R-${id.slice(-4)}`,
    slug: 'oil-filter',
    ...over,
  });
}

export const productList = (products: ProductSummary[], total = products.length, limit = 10): ProductListResponse =>
  ProductListResponseSchema.parse({ products, pagination: paginate(total, limit, 0) });

export const fitmentMakes = (makes: string[]): FitmentMakesResponse =>
  FitmentMakesResponseSchema.parse({ makes: makes.map((make) => ({ make, slug: make.toLowerCase(), productCount: 12 })) });

export const fitmentModels = (make: string, models: string[]): FitmentModelsResponse =>
  FitmentModelsResponseSchema.parse({ make, slug: make.toLowerCase(), models: models.map((model) => ({ model, slug: model.toLowerCase(), productCount: 4 })) });

export function matchLine(over: Partial<PartsMatchLine> & Pick<PartsMatchLine, 'line' | 'input' | 'status'>): PartsMatchLine {
  return { quantity: 1, alternatives: [], ...over };
}

export function partsMatch(lines: PartsMatchLine[]): PartsMatchResponse {
  const count = (s: PartsMatchLine['status']) => lines.filter((l) => l.status === s).length;
  return PartsMatchResponseSchema.parse({ lines, summary: { matched: count('matched'), ambiguous: count('ambiguous'), unmatched: count('unmatched') } });
}

export const quoteCreated = (): QuoteRequestResponse =>
  QuoteRequestResponseSchema.parse({ success: true, id: uuid(), status: 'pending', message: 'Quote request received' });

// ---- admin ------------------------------------------------------------------------------------------------------

export const ADMIN_EMAIL = 'staff@forgeline.example';

/** GET /api/admin/auth/session answering a signed-in admin (the admin screens wait for it). */
export const signedIn = () =>
  http.get('/api/admin/auth/session', () =>
    HttpResponse.json(CurrentSessionResponseSchema.parse({ email: ADMIN_EMAIL, expiresAt: '2099-01-01T00:00:00.000Z' })),
  );

export function inboxItem(over: Partial<InboxItem> = {}): InboxItem {
  const email = over.customerEmail ?? 'buyer@mining.example';
  return InboxItemSchema.parse({
    id: uuid(),
    kind: 'quote',
    status: 'pending',
    customerName: 'Ana Buyer',
    customerEmail: email,
    emailDomain: email.slice(email.indexOf('@') + 1),
    country: 'Chile',
    firstLine: { productId: 'p-1', productName: 'Oil Filter', productSku: 'SKU-1', quantity: 2 },
    lineCount: 1,
    subject: 'Oil Filter',
    assignee: null,
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    firstReplyAt: null,
    version: 1,
    ...over,
  });
}

export function inboxDetail(item: InboxItem, over: Partial<InboxDetail> = {}): InboxDetail {
  return InboxDetailSchema.parse({
    ...item,
    lines: item.firstLine ? [item.firstLine] : [],
    customerPhone: '+56 2 555 0100',
    message: 'Need these for a CAT 320D, urgent.',
    history: [],
    ...over,
  });
}

export function inboxList(items: InboxItem[], page = 1, totalPages = 1): InboxListResponse {
  const counts = Object.fromEntries(INBOX_STATUSES.map((s) => [s, items.filter((i) => i.status === s).length]));
  return InboxListResponseSchema.parse({ items, pagination: { page, limit: 25, total: items.length, totalPages }, counts });
}

export const inboxStats = (over: Partial<InboxStats> = {}): InboxStats =>
  InboxStatsSchema.parse({ requestsThisWeek: 7, medianHoursToFirstReply: 3, shareWon: 0.4, topParts: [], lostReasons: [], ...over });

export const inboxStaff = (staff: string[]) => InboxStaffResponseSchema.parse({ staff });

export function importJob(over: Partial<CatalogImportJob> = {}): CatalogImportJob {
  return CatalogImportJobSchema.parse({
    id: uuid(),
    state: 'completed',
    dryRun: true,
    missing: 'keep',
    fileName: 'parts.csv',
    total: 3,
    processed: 3,
    created: 1,
    updated: 1,
    unchanged: 1,
    deactivated: 0,
    errorCount: 0,
    errors: [],
    unknownColumns: [],
    message: null,
    createdBy: ADMIN_EMAIL,
    createdAt: '2026-01-01T10:00:00.000Z',
    startedAt: '2026-01-01T10:00:00.000Z',
    finishedAt: '2026-01-01T10:00:04.000Z',
    ...over,
  });
}
