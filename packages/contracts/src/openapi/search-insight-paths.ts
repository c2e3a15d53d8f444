import { z } from 'zod';
import {
  AliasInputSchema,
  AliasSchema,
  DemandQuerySchema,
  DemandRowSchema,
  QueryStatusInputSchema,
  QUERY_STATUSES,
  RulesImportResultSchema,
  SEARCH_RULE_LIMITS,
  SearchEventsInputSchema,
  SearchInsightsQuerySchema,
  SearchInsightsSchema,
  SearchVisitorParamsSchema,
  SynonymInputSchema,
  SynonymSchema,
} from '../search-insights.ts';
import { body, csv, errors, json, KEY_ERRORS, open, parameters, staffOrKey, textId, type Paths } from './shared.ts';

const tags = ['Search insights'];
const EventsAcceptedSchema = z.object({ accepted: z.number().describe('Events kept'), dropped: z.number().describe('Events dropped: the buffer was full') });
const RemovedSchema = z.object({ removed: z.string() });
const csvBody = (columns: string) => ({
  required: true,
  content: { 'text/csv': { schema: { type: 'string', description: `A header row naming ${columns}, then one row per rule; at most ${SEARCH_RULE_LIMITS.csvBytes / 1024 / 1024} MB` } } },
});

/**
 * What buyers search (#36): the events buyers' pages send (open, no personal data: a random visitor id from the
 * browser's storage), the staff's reports, and the rules staff keep (aliases, synonym sets, query statuses).
 */
export const searchInsightPaths: Paths = {
  '/api/search/events': {
    post: {
      tags,
      operationId: 'recordSearchEvents',
      security: open,
      summary: 'A page\'s searches, results opened or added to the quote list, and quote requests sent (written in batches, off the search\'s path)',
      requestBody: body(SearchEventsInputSchema),
      responses: { 202: json(EventsAcceptedSchema, 'Taken'), ...errors(400, 413, [429, 'Too many event batches from this address']) },
    },
  },
  '/api/search/visitors/{visitor}': {
    delete: {
      tags,
      operationId: 'forgetSearchVisitor',
      security: open,
      summary: 'Forget a visitor id: the buyer cleared it on their device',
      parameters: parameters(SearchVisitorParamsSchema, 'path'),
      responses: { 200: json(z.object({ forgotten: z.number() }), 'Rows forgotten'), ...errors(400) },
    },
  },
  '/api/admin/search/insights': {
    get: {
      tags,
      operationId: 'getSearchInsights',
      security: staffOrKey('catalog:read'),
      summary: 'Searches per day, top queries, the zero-result queue and queries whose results nobody opened',
      parameters: parameters(SearchInsightsQuerySchema, 'query'),
      responses: { 200: json(SearchInsightsSchema, 'The report'), ...errors(400, ...KEY_ERRORS) },
    },
  },
  '/api/admin/search/demand': {
    get: {
      tags,
      operationId: 'getSearchDemand',
      security: staffOrKey('catalog:read'),
      summary: 'Not-stocked and zero-result queries by distinct visitors, and how many of them sent a quote request anyway',
      parameters: parameters(DemandQuerySchema, 'query'),
      responses: { 200: json(z.object({ days: z.number(), rows: z.array(DemandRowSchema) }), 'The report'), ...errors(400, ...KEY_ERRORS) },
    },
  },
  '/api/admin/search/demand.csv': {
    get: {
      tags,
      operationId: 'exportSearchDemand',
      security: staffOrKey('catalog:read'),
      summary: 'The demand report as CSV, for purchasing',
      parameters: parameters(DemandQuerySchema, 'query'),
      responses: { 200: csv('query,example,status,note,visitors,visitors_who_sent_a_quote_request,searches,first_seen,last_seen'), ...errors(400, ...KEY_ERRORS) },
    },
  },
  '/api/admin/search/queries/status': {
    put: {
      tags,
      operationId: 'setSearchQueryStatus',
      security: staffOrKey('catalog:write'),
      summary: `Mark a query not stocked (with a note buyers see beside its results), dismissed, or open again (statuses: ${QUERY_STATUSES.join(', ')})`,
      requestBody: body(QueryStatusInputSchema),
      responses: { 200: json(QueryStatusInputSchema, 'The status set, for the normalised query'), ...errors(400, 413, ...KEY_ERRORS) },
    },
  },
  '/api/admin/search/aliases': {
    get: {
      tags,
      operationId: 'listSearchAliases',
      security: staffOrKey('catalog:read'),
      summary: 'Aliases: texts that find given parts',
      responses: { 200: json(z.object({ aliases: z.array(AliasSchema) }), 'Every alias'), ...errors(...KEY_ERRORS) },
    },
    post: {
      tags,
      operationId: 'saveSearchAlias',
      security: staffOrKey('catalog:write'),
      summary: 'Add the alias of a text (or replace it): searching that text shows these parts first, on every replica within seconds',
      requestBody: body(AliasInputSchema),
      responses: { 201: json(AliasSchema, 'Saved'), ...errors(400, 409, 413, ...KEY_ERRORS) },
    },
  },
  '/api/admin/search/aliases/{id}': {
    delete: {
      tags,
      operationId: 'removeSearchAlias',
      security: staffOrKey('catalog:write'),
      summary: 'Remove an alias',
      parameters: parameters(textId('The alias'), 'path'),
      responses: { 200: json(RemovedSchema, 'Removed'), ...errors(400, ...KEY_ERRORS, 404) },
    },
  },
  '/api/admin/search/aliases.csv': {
    get: {
      tags,
      operationId: 'exportSearchAliases',
      security: staffOrKey('catalog:read'),
      summary: 'Aliases as CSV (text, the SKUs joined by " | ")',
      responses: { 200: csv('text,skus'), ...errors(...KEY_ERRORS) },
    },
    post: {
      tags,
      operationId: 'importSearchAliases',
      security: staffOrKey('catalog:write'),
      summary: 'Add aliases from CSV (text,skus); rows that cannot be taken are named by line, the rest go in',
      requestBody: csvBody('text and skus'),
      responses: { 200: json(RulesImportResultSchema, 'What was added, unchanged, and refused'), ...errors(400, 413, ...KEY_ERRORS) },
    },
  },
  '/api/admin/search/synonyms': {
    get: {
      tags,
      operationId: 'listSearchSynonyms',
      security: staffOrKey('catalog:read'),
      summary: 'Synonym sets',
      responses: { 200: json(z.object({ synonyms: z.array(SynonymSchema) }), 'Every set'), ...errors(...KEY_ERRORS) },
    },
    post: {
      tags,
      operationId: 'addSearchSynonyms',
      security: staffOrKey('catalog:write'),
      summary: 'Add a synonym set: every word finds the others (both), or the first finds the rest (one-way); never followed from set to set',
      requestBody: body(SynonymInputSchema),
      responses: { 201: json(SynonymSchema, 'Added'), 200: json(SynonymSchema, 'The same set was there already'), ...errors(400, 409, 413, ...KEY_ERRORS) },
    },
  },
  '/api/admin/search/synonyms/{id}': {
    delete: {
      tags,
      operationId: 'removeSearchSynonyms',
      security: staffOrKey('catalog:write'),
      summary: 'Remove a synonym set',
      parameters: parameters(textId('The set'), 'path'),
      responses: { 200: json(RemovedSchema, 'Removed'), ...errors(400, ...KEY_ERRORS, 404) },
    },
  },
  '/api/admin/search/synonyms.csv': {
    get: {
      tags,
      operationId: 'exportSearchSynonyms',
      security: staffOrKey('catalog:read'),
      summary: 'Synonym sets as CSV (words joined by ", ", mode)',
      responses: { 200: csv('words,mode'), ...errors(...KEY_ERRORS) },
    },
    post: {
      tags,
      operationId: 'importSearchSynonyms',
      security: staffOrKey('catalog:write'),
      summary: 'Add synonym sets from CSV (words,mode); rows that cannot be taken are named by line, the rest go in',
      requestBody: csvBody('words and mode'),
      responses: { 200: json(RulesImportResultSchema, 'What was added, unchanged, and refused'), ...errors(400, 413, ...KEY_ERRORS) },
    },
  },
};
