import { z } from 'zod';
import {
  InboxDetailSchema,
  InboxListResponseSchema,
  InboxPatchSchema,
  InboxQuerySchema,
  InboxReplySchema,
  InboxStaffResponseSchema,
  InboxStatsSchema,
} from '../quote-inbox.ts';
import { body, csv, errors, ifMatch, json, KEY_ERRORS, parameters, staffOrKey, textId, type Paths } from './shared.ts';

const tags = ['Quote inbox'];
const requestId = parameters(textId('The id of a quote request or contact message'), 'path');
const version = ifMatch(false, 'The ETag of the request as read ("v<version>"); or send `version` in the body. One of them is required');


/** The staff inbox over quote requests and contact messages (quotes service). */
export const inboxPaths: Paths = {
  '/api/admin/quotes': {
    get: {
      tags,
      operationId: 'listInbox',
      summary: 'Quote requests and contact messages, filtered and paged',
      security: staffOrKey('quotes:read'),
      parameters: parameters(InboxQuerySchema, 'query'),
      responses: { 200: json(InboxListResponseSchema, 'A page of the inbox'), ...errors([400, 'Invalid query, or an assignee who is not staff'], ...KEY_ERRORS) },
    },
  },
  '/api/admin/quotes/staff': {
    get: {
      tags,
      operationId: 'listInboxStaff',
      summary: 'The staff a request can be assigned to',
      security: staffOrKey('quotes:read'),
      responses: { 200: json(InboxStaffResponseSchema, 'Their addresses'), ...errors(...KEY_ERRORS) },
    },
  },
  '/api/admin/quotes/stats': {
    get: {
      tags,
      operationId: 'getInboxStats',
      summary: 'Requests this week, median hours to a first reply, share won, most asked-for parts',
      security: staffOrKey('quotes:read'),
      responses: { 200: json(InboxStatsSchema, 'The numbers'), ...errors(...KEY_ERRORS) },
    },
  },
  '/api/admin/quotes/export.csv': {
    get: {
      tags,
      operationId: 'exportInbox',
      summary: 'The filtered inbox as CSV',
      security: staffOrKey('quotes:read'),
      parameters: parameters(InboxQuerySchema, 'query'),
      responses: { 200: csv('One row per request'), ...errors([400, 'Invalid query, or an assignee who is not staff'], ...KEY_ERRORS) },
    },
  },
  '/api/admin/quotes/{id}': {
    get: {
      tags,
      operationId: 'getInboxRequest',
      summary: 'One request with its lines and history (ETag: its version)',
      security: staffOrKey('quotes:read'),
      parameters: requestId,
      responses: { 200: json(InboxDetailSchema, 'The request'), ...errors(...KEY_ERRORS, 404) },
    },
    patch: {
      tags,
      operationId: 'updateInboxRequest',
      summary: 'Change status, assignee or add a note (If-Match, or `version`: the version as read)',
      security: staffOrKey('quotes:write'),
      parameters: [...requestId, version],
      requestBody: body(InboxPatchSchema),
      responses: {
        200: json(InboxDetailSchema, 'The request as it is now'),
        ...errors(
          [400, 'Invalid body or If-Match, or an assignee who is not staff'],
          ...KEY_ERRORS,
          404,
          [409, 'Changed by someone else since it was read, or a status it cannot move to from its own'],
          413,
          428,
        ),
      },
    },
  },
  '/api/admin/quotes/{id}/reply': {
    post: {
      tags,
      operationId: 'replyToInboxRequest',
      summary: 'Reply to the buyer by e-mail, with prices per line (If-Match, or `version`: the version as read)',
      security: staffOrKey('quotes:write'),
      parameters: [...requestId, version],
      requestBody: body(InboxReplySchema),
      responses: {
        200: json(InboxDetailSchema, 'The request with the reply in its history'),
        ...errors(
          [400, 'Invalid body or If-Match, or more priced lines than the request has'],
          ...KEY_ERRORS,
          404,
          [409, 'Changed by someone else since it was read, or it cannot be replied to in its status'],
          413,
          428,
        ),
      },
    },
  },
  '/api/admin/quotes/{id}/revoke-links': {
    post: {
      tags,
      operationId: 'revokeBuyerQuoteLinks',
      summary: "Withdraw every link to the buyer's quote page sent so far (the next reply sends a new one)",
      security: staffOrKey('quotes:write'),
      parameters: requestId,
      responses: { 200: json(z.object({ revoked: z.number().int().describe('How many links were withdrawn') }), 'Withdrawn'), ...errors(...KEY_ERRORS, 404) },
    },
  },
};
