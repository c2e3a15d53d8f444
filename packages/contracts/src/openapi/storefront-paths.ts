import { z } from 'zod';
import { PartsMatchRequestSchema, PartsMatchResponseSchema } from '../parts-match.ts';
import {
  BrandParamsSchema,
  BrandProductsQuerySchema,
  BrandProductsResponseSchema,
  CatalogQuerySchema,
  FitmentMakesResponseSchema,
  FitmentModelsQuerySchema,
  FitmentModelsResponseSchema,
  ProductDetailSchema,
  ProductIdParamsSchema,
  ProductListQuerySchema,
  ProductListResponseSchema,
  ProductLookupRequestSchema,
  ProductLookupResponseSchema,
  SubcategoryListSchema,
  TestimonialQuerySchema,
  TestimonialSchema,
} from '../products.ts';
import { CaptchaSchema, ContactInputSchema, ContactResponseSchema, QuoteRequestInputSchema, QuoteRequestResponseSchema } from '../quotes.ts';
import { binary, body, ErrorSchema, errors, HEADERS_TOO_LARGE, json, open, parameters, schema, type Paths } from './shared.ts';

/** The 410 of a product taken off the storefront: the error body, and the way to its category. */
const ProductGoneSchema = ErrorSchema.extend({
  category: z.string().describe('The category the product was in'),
  categoryPath: z.string().describe("The category page's path"),
});

const tags = ['Storefront'];

/** The public calls of the storefront (catalog and quotes services): no sign-in. */
export const storefrontPaths: Paths = {
  '/api/products': {
    get: {
      tags,
      operationId: 'listProducts',
      security: open,
      summary: 'Search the catalogue, or list a category or brand (give category, brand or search); narrow to a machine or a fleet',
      parameters: parameters(ProductListQuerySchema, 'query'),
      responses: { 200: json(ProductListResponseSchema, 'A page of products'), ...errors(400, [404, 'No such category or brand']) },
    },
  },
  '/api/products/lookup': {
    post: {
      tags,
      operationId: 'lookUpProducts',
      security: open,
      summary: "A reorder's parts by id or SKU (up to 200 together), as they stand today: current, superseded (and by what) or not sold",
      requestBody: body(ProductLookupRequestSchema),
      responses: { 200: json(ProductLookupResponseSchema, 'One item per id asked, then per SKU asked, in the order given'), ...errors(400, 413) },
    },
  },
  '/api/products/{id}': {
    get: {
      tags,
      operationId: 'getProduct',
      security: open,
      summary: 'One product, with the part that supersedes it (replacedBy) when it has been superseded',
      parameters: parameters(ProductIdParamsSchema, 'path', { id: "The product's id (a UUID)" }),
      responses: {
        200: json(ProductDetailSchema, 'The product'),
        ...errors(400, 404),
        410: json(ProductGoneSchema, 'Taken off the storefront by an import: the answer names its category'),
      },
    },
  },
  '/api/catalog/products': {
    get: {
      tags,
      operationId: 'listGallery',
      security: open,
      summary: 'The image gallery: every product, or those a search finds, narrowed by machine',
      parameters: parameters(CatalogQuerySchema, 'query'),
      responses: { 200: json(ProductListResponseSchema, 'A page of products'), ...errors(400) },
    },
  },
  '/api/brands/{brand}/products': {
    get: {
      tags,
      operationId: 'listBrandProducts',
      security: open,
      summary: "A brand's products, by page",
      parameters: [...parameters(BrandParamsSchema, 'path', { brand: "The brand's name or slug" }), ...parameters(BrandProductsQuerySchema, 'query')],
      responses: { 200: json(BrandProductsResponseSchema, 'The brand and a page of its products'), ...errors(400, [404, 'No such brand']) },
    },
  },
  '/api/subcategories': {
    get: {
      tags,
      operationId: 'listSubcategories',
      security: open,
      summary: 'Every brand and category pair, with how many products it has',
      responses: { 200: json(SubcategoryListSchema, 'The pairs'), ...HEADERS_TOO_LARGE },
    },
  },
  '/api/testimonials': {
    get: {
      tags,
      operationId: 'listTestimonials',
      security: open,
      summary: "Customers' reviews, or only the featured ones",
      parameters: parameters(TestimonialQuerySchema, 'query'),
      responses: { 200: json(z.array(TestimonialSchema), 'The reviews'), ...errors(400) },
    },
  },
  '/api/fitment/makes': {
    get: {
      tags,
      operationId: 'listFitmentMakes',
      security: open,
      summary: 'The machine makes parts fit, with how many parts fit each',
      responses: { 200: json(FitmentMakesResponseSchema, 'Makes by name'), ...HEADERS_TOO_LARGE },
    },
  },
  '/api/fitment/models': {
    get: {
      tags,
      operationId: 'listFitmentModels',
      security: open,
      summary: 'The models of one make parts fit; then narrow any list or search with make, model and serial',
      parameters: parameters(FitmentModelsQuerySchema, 'query'),
      responses: { 200: json(FitmentModelsResponseSchema, 'Models by name'), ...errors(400, [404, 'No such make']) },
    },
  },
  '/api/parts/match': {
    post: {
      tags,
      operationId: 'matchPartsList',
      security: open,
      summary: 'Match a pasted parts list (or a CSV/XLSX file, multipart field `file`) to the catalogue, line by line',
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: schema(PartsMatchRequestSchema, 'input') },
          'multipart/form-data': { schema: { type: 'object', properties: { file: binary('The list as a CSV or XLSX file (at most 2 MB)') }, required: ['file'] } },
        },
      },
      responses: { 200: json(PartsMatchResponseSchema, 'Each line with what it matched'), ...errors(400, 413, [429, 'Too many lists from this address: try again in a minute']) },
    },
  },
  '/api/quote-requests': {
    post: {
      tags,
      operationId: 'createQuoteRequest',
      security: open,
      summary: 'Ask for a quote: one product, or up to 200 lines',
      requestBody: body(QuoteRequestInputSchema),
      responses: {
        201: json(QuoteRequestResponseSchema, 'Received; the buyer and the seller are mailed'),
        ...errors(
          [400, 'Invalid input (each bad field named), an unknown product, or a wrong security check'],
          413,
          [429, 'Too many quote requests from this address: try again later'],
          [503, 'The catalogue cannot check the product right now: nothing was stored; try again in a minute'],
        ),
      },
    },
  },
  '/api/captcha': {
    get: {
      tags,
      operationId: 'getCaptcha',
      security: open,
      summary: 'A security check for the contact form: num1 + num2 answers it; the token expires and is good for one try',
      responses: { 200: json(CaptchaSchema, 'The check'), ...errors([429, 'Too many security checks from this address: try again later']) },
    },
  },
  '/api/contact': {
    post: {
      tags,
      operationId: 'sendContactMessage',
      security: open,
      summary: 'Send the seller a message (with the answer to a security check from /api/captcha)',
      requestBody: body(ContactInputSchema),
      responses: {
        200: json(ContactResponseSchema, 'Received; the seller is mailed'),
        ...errors([400, 'Invalid input (each bad field named), or a wrong or expired security check'], 413, [429, 'Too many messages from this address: try again later']),
      },
    },
  },
};
