import { z } from 'zod';
import { QUOTE_PO_DOCUMENT, QuoteAcceptResponseSchema, QuoteAcceptSchema, QuoteChangesSchema, QuoteDeclineSchema, QuotePdfQuerySchema, QuoteViewSchema } from '../quote-view.ts';
import { binary, body, errors, json, multipart, open, parameters, schema, type ErrorCode, type Paths } from './shared.ts';

const tags = ['Buyer quote page'];
const token = parameters(
  z.object({ token: z.string().describe("The quote link's token (43 characters, base64url), from the reply mail: the only key to the page") }),
  'path',
);
const GONE: ErrorCode = [404, 'No such link: unknown, withdrawn by staff, or past the quote\'s validity plus the grace period (one answer for all)'];
const LIMITED: ErrorCode = [429, 'Too many quote page requests from this address: try again later'];
const REFUSED: ErrorCode = [409, 'The quote cannot take this answer: accepted or declined already, expired, closed, changes asked, or the version was replaced'];

/** The buyer's own quote page (quotes service), reached by the capability link in a quote reply: no account. */
export const quoteViewPaths: Paths = {
  '/api/quote-view/{token}': {
    get: {
      tags,
      operationId: 'getBuyerQuote',
      security: open,
      summary: 'The quote as the buyer sees it: every version, totals per currency, validity, history, and what can still be done',
      parameters: token,
      responses: { 200: json(QuoteViewSchema, 'The quote (no-store, noindex, no referrer)'), ...errors(GONE, LIMITED) },
    },
  },
  '/api/quote-view/{token}/pdf': {
    get: {
      tags,
      operationId: 'getBuyerQuotePdf',
      security: open,
      summary: 'The quote as a PDF: one version (the latest when none is asked), from the same data as the page',
      parameters: [...token, ...parameters(QuotePdfQuerySchema, 'query')],
      responses: {
        200: { description: 'The PDF (inline; no-store)', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
        ...errors(400, [404, 'No such link, or no such version of the quote'], LIMITED),
      },
    },
  },
  '/api/quote-view/{token}/accept': {
    post: {
      tags,
      operationId: 'acceptBuyerQuote',
      security: open,
      summary: 'Accept the latest version with a PO number and delivery details (and the PO as a PDF, sent multipart): creates the order (once) and marks the request won',
      parameters: token,
      requestBody: {
        required: true,
        content: {
          ...body(QuoteAcceptSchema).content,
          ...multipart(
            {
              [QUOTE_PO_DOCUMENT.bodyField]: { ...schema(QuoteAcceptSchema, 'input'), description: 'The same JSON as the application/json accept, as the text of this part' },
              [QUOTE_PO_DOCUMENT.field]: binary(`The purchase order as a PDF (checked by its bytes), at most ${QUOTE_PO_DOCUMENT.maxMb} MB`),
            },
            [QUOTE_PO_DOCUMENT.bodyField],
          ).content,
        },
      },
      responses: {
        201: json(QuoteAcceptResponseSchema, 'The order; the buyer and the seller are mailed'),
        ...errors(
          [400, 'Invalid body (each bad field named): a quantity above the quoted one or on an unpriced line, nothing ordered; a PO document that is not a PDF (`poDocument`)'],
          GONE,
          REFUSED,
          [413, `The body is too large: the JSON over 16 kB, or the PO document over ${QUOTE_PO_DOCUMENT.maxMb} MB (the message says which)`],
          LIMITED,
        ),
      },
    },
  },
  '/api/quote-view/{token}/changes': {
    post: {
      tags,
      operationId: 'askBuyerQuoteChanges',
      security: open,
      summary: 'Ask for changes to the latest version (per line another quantity or a target price, and a message): staff answer with a revised version',
      parameters: token,
      requestBody: body(QuoteChangesSchema),
      responses: { 200: json(QuoteViewSchema, 'The quote, changes asked'), ...errors(400, GONE, REFUSED, 413, LIMITED) },
    },
  },
  '/api/quote-view/{token}/reopen': {
    post: {
      tags,
      operationId: 'reopenBuyerQuote',
      security: open,
      summary: 'Ask for a new quote once this one expired: the request goes back to staff (in progress)',
      parameters: token,
      responses: { 200: json(QuoteViewSchema, 'The quote, a new one asked'), ...errors(GONE, [409, 'The quote has not expired, or a new one was asked already'], LIMITED) },
    },
  },
  '/api/quote-view/{token}/decline': {
    post: {
      tags,
      operationId: 'declineBuyerQuote',
      security: open,
      summary: 'Decline the quote with a reason: the request is lost, counted by reason in the inbox stats',
      parameters: token,
      requestBody: body(QuoteDeclineSchema),
      responses: { 200: json(QuoteViewSchema, 'The quote, declined'), ...errors(400, GONE, REFUSED, 413, LIMITED) },
    },
  },
};
