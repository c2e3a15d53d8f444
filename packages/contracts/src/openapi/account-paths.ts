import { z } from 'zod';
import {
  ACCOUNT_LIMITS,
  BuyerAccountLookupQuerySchema,
  BuyerAccountLookupSchema,
  BuyerAccountSessionSchema,
  BuyerCodeRequestSchema,
  BuyerCodeResponseSchema,
  BuyerSignOutResponseSchema,
  BuyerVerifyRequestSchema,
  BuyerVerifyResponseSchema,
  CompanyInviteSchema,
  CompanyPatchSchema,
  CompanyResponseSchema,
  FleetImportResponseSchema,
  FleetResponseSchema,
  FleetUnitInputSchema,
  FleetUnitSchema,
  InviteRequestSchema,
  MemberPatchSchema,
  SavedListInputSchema,
  SavedListSchema,
  SavedListsResponseSchema,
} from '../account.ts';
import { BuyerHistoryQuerySchema, BuyerOrderListSchema, BuyerOrderSchema, BuyerQuoteDetailSchema, BuyerQuoteListSchema, BuyerViewLinkSchema } from '../buyer-history.ts';
import { KEY_ERRORS, body, buyer, csv, errors, json, open, parameters, staffOrKey, textId, type ErrorCode, type Paths } from './shared.ts';

const tags = ['Buyer account'];

/** A buyer's sign-in and session (auth service): its own cookie, `fl_buyer`; no staff route takes it. */
export const accountPaths: Paths = {
  '/api/account/sign-in/code': {
    post: {
      tags,
      operationId: 'sendBuyerSignInCode',
      security: open,
      summary: 'Mail a 6-digit sign-in code, and a link that fills it in, to any address (the same answer for every address)',
      requestBody: body(BuyerCodeRequestSchema),
      responses: {
        200: json(BuyerCodeResponseSchema, 'The sign-in attempt to verify the code against'),
        ...errors(400, 413, [429, 'Too many code requests for this address or from this network: try again later']),
      },
    },
  },
  '/api/account/sign-in/verify': {
    post: {
      tags,
      operationId: 'verifyBuyerSignInCode',
      security: open,
      summary: "Check the code: the buyer's session starts, in the fl_buyer cookie (httpOnly, SameSite=Lax; __Host- over HTTPS)",
      requestBody: body(BuyerVerifyRequestSchema),
      responses: {
        200: json(BuyerVerifyResponseSchema, 'Signed in; the session is in the cookie, never in the body'),
        ...errors(400, [401, 'Invalid OTP: unknown, wrong, used, expired, or a staff code'], 413, [429, 'Too many attempts, or the address is locked for a while']),
      },
    },
  },
  '/api/account/session': {
    get: {
      tags,
      operationId: 'getBuyerSession',
      security: open,
      summary: 'The signed-in buyer (from the fl_buyer cookie), their company and role',
      responses: { 200: json(BuyerAccountSessionSchema, 'The buyer, their company and when the session ends (no-store)'), ...errors([401, 'Not signed in, or the session ended']) },
    },
  },
  '/api/account/sign-out': {
    post: {
      tags,
      operationId: 'buyerSignOut',
      security: open,
      summary: "End the buyer's session at once and clear its cookie (idempotent)",
      responses: { 200: json(BuyerSignOutResponseSchema, 'Signed out'), ...errors(413) },
    },
  },
};

const IdPath = textId('The id as the list gave it');
const EmailPath = z.object({ email: z.string().describe("The member's e-mail address") });
const CheckQuery = z.object({ check: z.enum(['true', 'false']).optional().describe('true: only whether it would go through; nothing is deleted') });
const Success = z.object({ success: z.literal(true), checked: z.literal(true).optional() });
/** What every account call may answer besides its own: no session, a change from another site, the account service out. */
const ACCOUNT_ERRORS: ErrorCode[] = [[401, 'Not signed in, or the session ended'], [403, 'A change from another site, or (company calls) not a company admin'], 503];

const op = (operationId: string, summary: string, responses: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ tags, operationId, security: buyer, summary, responses, ...extra });

/** The buyer's account (auth service): company, people, fleet, saved parts lists, their data. */
export const accountDataPaths: Paths = {
  '/api/account/company': {
    get: op('getBuyerCompany', 'The company, its members, and (for its admins) the invitations standing', { 200: json(CompanyResponseSchema, 'The company'), ...errors(...ACCOUNT_ERRORS) }),
    patch: op('renameBuyerCompany', 'Rename the company (company admins)', { 200: json(CompanyResponseSchema, 'Renamed'), ...errors(400, ...ACCOUNT_ERRORS, 413) }, { requestBody: body(CompanyPatchSchema) }),
    delete: op(
      'deleteBuyerCompany',
      "Delete the company, its fleet and lists (company admins); every member's quote requests and orders are kept for the seller, anonymised",
      { 200: json(Success, 'Deleted (or, with check=true, it would be)'), ...errors(400, ...ACCOUNT_ERRORS) },
      { parameters: parameters(CheckQuery, 'query') },
    ),
  },
  '/api/account/company/invites': {
    post: op('inviteColleague', 'Invite a colleague by e-mail (company admins): they get a mail and join when they sign in', { 201: json(CompanyInviteSchema, 'Invited'), ...errors(400, ...ACCOUNT_ERRORS, [409, 'Already a member, or the company or its invitations are full'], 413) }, { requestBody: body(InviteRequestSchema) }),
  },
  '/api/account/company/invites/{id}': {
    delete: op('withdrawInvite', 'Withdraw an invitation (company admins)', { 200: json(Success, 'Withdrawn'), ...errors(400, ...ACCOUNT_ERRORS, [404, 'No such invitation in your company']) }, { parameters: parameters(IdPath, 'path') }),
  },
  '/api/account/company/members/{email}': {
    patch: op('setMemberRole', "Change a member's role (company admins; never the last admin)", { 200: json(CompanyResponseSchema, 'Changed'), ...errors(400, ...ACCOUNT_ERRORS, [404, 'No such member'], [409, 'The company would have no admin'], 413) }, { parameters: parameters(EmailPath, 'path'), requestBody: body(MemberPatchSchema) }),
    delete: op('removeMember', 'Remove a member (company admins), or leave (yourself); never the last admin', { 200: json(Success, 'Removed'), ...errors(400, ...ACCOUNT_ERRORS, [404, 'No such member'], [409, 'The company would have no admin']) }, { parameters: parameters(EmailPath, 'path') }),
  },
  '/api/account/fleet': {
    get: op('getFleet', "The company's machines", { 200: json(FleetResponseSchema, 'The fleet, by unit name'), ...errors(...ACCOUNT_ERRORS) }),
    post: op('addFleetUnit', 'Add a machine (make and model as /api/fitment names them)', { 201: json(FleetUnitSchema, 'Added'), ...errors(400, ...ACCOUNT_ERRORS, [409, 'A machine of the fleet has that name, or the fleet is full'], 413) }, { requestBody: body(FleetUnitInputSchema) }),
  },
  '/api/account/fleet/{id}': {
    put: op('updateFleetUnit', 'Change a machine', { 200: json(FleetUnitSchema, 'Changed'), ...errors(400, ...ACCOUNT_ERRORS, [404, 'No such machine in your fleet'], 409, 413) }, { parameters: parameters(IdPath, 'path'), requestBody: body(FleetUnitInputSchema) }),
    delete: op('deleteFleetUnit', 'Delete a machine (lists tied to it stay, untied)', { 200: json(Success, 'Deleted'), ...errors(400, ...ACCOUNT_ERRORS, [404, 'No such machine in your fleet']) }, { parameters: parameters(IdPath, 'path') }),
  },
  '/api/account/fleet.csv': {
    get: op('exportFleet', 'The fleet as CSV: unit_name,make,model,serial,hours', { 200: csv('The fleet'), ...errors(...ACCOUNT_ERRORS) }),
  },
  '/api/account/fleet/import': {
    post: op(
      'importFleet',
      'Add or update machines from a CSV (unit_name, make, model, serial, hours; commas or semicolons); a row whose unit name is in the fleet updates it',
      { 200: json(FleetImportResponseSchema, 'What was added and updated, and each row refused with its line'), ...errors([400, 'Not readable CSV, or a header without unit_name, make and model'], ...ACCOUNT_ERRORS, 413, [415, 'Not sent as text/csv']) },
      { requestBody: { required: true, content: { 'text/csv': { schema: { type: 'string', maxLength: ACCOUNT_LIMITS.fleetCsvBytes } } } } },
    ),
  },
  '/api/account/lists': {
    get: op('getSavedLists', "The company's saved parts lists, last changed first", { 200: json(SavedListsResponseSchema, 'The lists'), ...errors(...ACCOUNT_ERRORS) }),
    post: op('createSavedList', 'Save a parts list (optionally for one machine of the fleet)', { 201: json(SavedListSchema, 'Saved'), ...errors(400, ...ACCOUNT_ERRORS, [409, 'The company keeps its most lists'], 413) }, { requestBody: body(SavedListInputSchema) }),
  },
  '/api/account/lists/{id}': {
    get: op('getSavedList', 'One parts list with its lines', { 200: json(SavedListSchema, 'The list'), ...errors(400, ...ACCOUNT_ERRORS, [404, 'No such list in your company']) }, { parameters: parameters(IdPath, 'path') }),
    put: op('updateSavedList', 'Replace a parts list', { 200: json(SavedListSchema, 'Saved'), ...errors(400, ...ACCOUNT_ERRORS, [404, 'No such list in your company'], 413) }, { parameters: parameters(IdPath, 'path'), requestBody: body(SavedListInputSchema) }),
    delete: op('deleteSavedList', 'Delete a parts list', { 200: json(Success, 'Deleted'), ...errors(400, ...ACCOUNT_ERRORS, [404, 'No such list in your company']) }, { parameters: parameters(IdPath, 'path') }),
  },
  '/api/account/export': {
    get: op('exportBuyerData', 'Everything the account holds about you and your company, as a JSON download', { 200: json(z.record(z.string(), z.unknown()), 'Your data'), ...errors(...ACCOUNT_ERRORS) }),
  },
  '/api/account': {
    delete: op(
      'deleteBuyerAccount',
      'Delete your account (you leave the company; it goes too when you were its last member); your quote requests and orders are kept for the seller, anonymised',
      { 200: json(Success, 'Deleted and signed out (or, with check=true, it would be)'), ...errors(400, ...ACCOUNT_ERRORS, [409, 'You are the only admin of a company with other members']) },
      { parameters: parameters(CheckQuery, 'query') },
    ),
  },
};

/** Staff see a buyer's company beside a request or an order. */
export const accountStaffPaths: Paths = {
  '/api/admin/buyer-accounts/lookup': {
    get: {
      tags: ['Quote inbox'],
      operationId: 'lookupBuyerAccount',
      summary: "The buyer account behind an address: its company, role, the company's people and machines (null: no account)",
      security: staffOrKey('quotes:read'),
      parameters: parameters(BuyerAccountLookupQuerySchema, 'query'),
      responses: { 200: json(BuyerAccountLookupSchema, 'The account, or null'), ...errors(400, ...KEY_ERRORS) },
    },
  },
};

/** The buyer's own quote requests and orders (quotes service, behind the gateway's buyer check). */
export const accountHistoryPaths: Paths = {
  '/api/account/quotes': {
    get: op(
      'getBuyerQuotes',
      "The company's quote requests (every member's address, in any letter case; spam left out), newest first, with the latest priced version and the order",
      { 200: json(BuyerQuoteListSchema, 'A page of requests'), ...errors(400, ...ACCOUNT_ERRORS) },
      { parameters: parameters(BuyerHistoryQuerySchema, 'query') },
    ),
  },
  '/api/account/quotes/{id}': {
    get: op('getCompanyQuote', "One of the company's requests with its lines (the latest version's, else those asked): what a reorder copies", { 200: json(BuyerQuoteDetailSchema, 'The request'), ...errors(400, ...ACCOUNT_ERRORS, [404, "Not one of your company's requests"]) }, { parameters: parameters(IdPath, 'path') }),
  },
  '/api/account/quotes/{id}/view-link': {
    post: op('getCompanyQuoteLink', "A fresh link to the request's quote page", { 200: json(BuyerViewLinkSchema, 'The link'), ...errors(400, ...ACCOUNT_ERRORS, [404, "Not one of your company's requests"], [409, 'No priced reply yet']) }, { parameters: parameters(IdPath, 'path') }),
  },
  '/api/account/orders': {
    get: op('getCompanyOrders', "The company's orders, newest first: status, PO, shipping and tracking", { 200: json(BuyerOrderListSchema, 'A page of orders'), ...errors(400, ...ACCOUNT_ERRORS) }, { parameters: parameters(BuyerHistoryQuerySchema.omit({ status: true }), 'query') }),
  },
  '/api/account/orders/{id}': {
    get: op('getCompanyOrder', "One of the company's orders with its lines", { 200: json(BuyerOrderSchema, 'The order'), ...errors(400, ...ACCOUNT_ERRORS, [404, "Not one of your company's orders"]) }, { parameters: parameters(IdPath, 'path') }),
  },
};
