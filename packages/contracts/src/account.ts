import { z } from 'zod';
import { AdminEmailSchema, VerifyOtpRequestSchema } from './auth.ts';

/**
 * A buyer's account (issue 35): sign-in without a password, by an e-mail code or the link in its mail, into a session
 * of its own, apart from staff's: its own cookie, refused on every staff route, and a staff session refused here.
 *   POST /api/account/sign-in/code    { email }              -> { success, sessionId }  (the same for any address)
 *   POST /api/account/sign-in/verify  { sessionId, otp }     -> { success, email, expiresAt } and the session cookie
 *   GET  /api/account/session                                -> { email, expiresAt } or 401
 *   POST /api/account/sign-out                               -> { success } (the cookie cleared)
 */

/** The buyer session's cookie: `__Host-` over HTTPS (no sub-domain can plant or read it), as the staff one. */
export const buyerCookieName = (secure: boolean) => (secure ? '__Host-fl_buyer' : 'fl_buyer');

export const BuyerCodeRequestSchema = z.object({ email: AdminEmailSchema });
export type BuyerCodeRequest = z.infer<typeof BuyerCodeRequestSchema>;
export const BuyerCodeResponseSchema = z.object({ success: z.literal(true), sessionId: z.string() });
export type BuyerCodeResponse = z.infer<typeof BuyerCodeResponseSchema>;

export const BuyerVerifyRequestSchema = VerifyOtpRequestSchema;
export type BuyerVerifyRequest = z.infer<typeof BuyerVerifyRequestSchema>;

/** The signed-in buyer. The session's token is only ever in its httpOnly cookie, never in a body. */
export const BuyerSessionSchema = z.object({ email: z.string(), expiresAt: z.string() });
export type BuyerSession = z.infer<typeof BuyerSessionSchema>;
export const BuyerVerifyResponseSchema = BuyerSessionSchema.extend({ success: z.literal(true) });
export type BuyerVerifyResponse = z.infer<typeof BuyerVerifyResponseSchema>;

export const BuyerSignOutResponseSchema = z.object({ success: z.literal(true) });
export type BuyerSignOutResponse = z.infer<typeof BuyerSignOutResponseSchema>;

// ---- The buyer's company (issue 35) ----------------------------------------------------------------------------
//   GET    /api/account/company                      -> { company, members, invites }
//   PATCH  /api/account/company          { name }     (company admin)
//   DELETE /api/account/company                      (company admin: the company, its fleet and lists; every member's
//                                                      quote requests and orders kept with the person anonymised)
//   POST   /api/account/company/invites  { email, role } (company admin; the address gets a mail, and joins on sign-in)
//   DELETE /api/account/company/invites/{id}        (company admin)
//   PATCH  /api/account/company/members/{email} { role } (company admin; never the last admin)
//   DELETE /api/account/company/members/{email}     (company admin, or oneself; never the last admin)

export const COMPANY_ROLES = ['admin', 'buyer'] as const;
export type CompanyRole = (typeof COMPANY_ROLES)[number];
export const ACCOUNT_LIMITS = {
  companyName: 120,
  members: 200,
  invites: 100,
  fleetUnits: 500,
  unitName: 80,
  make: 120,
  model: 120,
  serial: 40,
  hours: 1_000_000,
  lists: 200,
  listName: 120,
  listLines: 200,
  fleetCsvBytes: 512 * 1024,
} as const;

const text = (max: number) => z.string('must be text').trim().max(max, `must be at most ${max} characters`);
const required = (max: number) => text(max).min(1, 'is required');

export const CompanySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The e-mail domain that joins colleagues to it on sign-up; null for a one-person company (a public mail domain). */
  domain: z.string().nullable(),
  createdAt: z.string(),
});
export type Company = z.infer<typeof CompanySchema>;
export const CompanyMemberSchema = z.object({ email: z.string(), role: z.enum(COMPANY_ROLES), joinedAt: z.string() });
export type CompanyMember = z.infer<typeof CompanyMemberSchema>;
export const CompanyInviteSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(COMPANY_ROLES),
  invitedBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type CompanyInvite = z.infer<typeof CompanyInviteSchema>;
export const CompanyResponseSchema = z.object({
  company: CompanySchema,
  members: z.array(CompanyMemberSchema),
  invites: z.array(CompanyInviteSchema),
});
export type CompanyResponse = z.infer<typeof CompanyResponseSchema>;
export const CompanyPatchSchema = z.object({ name: required(ACCOUNT_LIMITS.companyName) });
export const InviteRequestSchema = z.object({ email: AdminEmailSchema, role: z.enum(COMPANY_ROLES).default('buyer') });
export type InviteRequest = z.infer<typeof InviteRequestSchema>;
export const MemberPatchSchema = z.object({ role: z.enum(COMPANY_ROLES) });

/** GET /api/account/session, as it answers once the account exists: who, and in which company with which role. */
export const BuyerAccountSessionSchema = BuyerSessionSchema.extend({
  company: z.object({ id: z.string(), name: z.string(), role: z.enum(COMPANY_ROLES) }),
});
export type BuyerAccountSession = z.infer<typeof BuyerAccountSessionSchema>;

// ---- The fleet -------------------------------------------------------------------------------------------------
//   GET    /api/account/fleet              -> { units }
//   POST   /api/account/fleet   FleetUnitInput -> FleetUnit (201)
//   PUT    /api/account/fleet/{id} FleetUnitInput -> FleetUnit
//   DELETE /api/account/fleet/{id}
//   GET    /api/account/fleet.csv          unit_name,make,model,serial,hours
//   POST   /api/account/fleet/import       text/csv (the same columns) -> { added, updated, errors: [{ line, message }] }

export const FleetUnitInputSchema = z.object({
  /** The company's own name for the machine: "Haul truck 07". */
  unitName: required(ACCOUNT_LIMITS.unitName),
  make: required(ACCOUNT_LIMITS.make),
  model: required(ACCOUNT_LIMITS.model),
  serial: text(ACCOUNT_LIMITS.serial).optional().transform((s) => (s ? s : undefined)),
  hours: z.coerce.number('must be a number').int('must be whole hours').min(0, 'must be 0 or more').max(ACCOUNT_LIMITS.hours, `must be at most ${ACCOUNT_LIMITS.hours}`).optional(),
});
export type FleetUnitInput = z.infer<typeof FleetUnitInputSchema>;
export const FleetUnitSchema = z.object({
  id: z.string(),
  unitName: z.string(),
  make: z.string(),
  model: z.string(),
  serial: z.string().nullable(),
  hours: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FleetUnit = z.infer<typeof FleetUnitSchema>;
export const FleetResponseSchema = z.object({ units: z.array(FleetUnitSchema) });
export type FleetResponse = z.infer<typeof FleetResponseSchema>;
export const FleetImportResponseSchema = z.object({
  added: z.number().int(),
  updated: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), message: z.string() })),
});
export type FleetImportResponse = z.infer<typeof FleetImportResponseSchema>;

// ---- Saved parts lists (requisition lists) ---------------------------------------------------------------------
//   GET    /api/account/lists              -> { lists: SavedListSummary[] }
//   POST   /api/account/lists   SavedListInput -> SavedList (201)
//   GET    /api/account/lists/{id}         -> SavedList
//   PUT    /api/account/lists/{id} SavedListInput -> SavedList
//   DELETE /api/account/lists/{id}

/** A line as the quote list keeps it: a catalogue part (productId and what its card showed) or free text. */
export const SavedListLineSchema = z.object({
  productId: text(100).optional(),
  sku: text(200).optional(),
  partNumber: text(200).optional(),
  name: text(500).optional(),
  brandName: text(200).optional(),
  slug: text(300).optional(),
  image: text(2000).optional(),
  /** A line the buyer typed that matched no part. */
  text: text(500).optional(),
  quantity: z.coerce.number('must be a number').int('must be whole').min(1, 'must be at least 1').max(1_000_000, 'must be at most 1000000'),
  note: text(500).default(''),
}).refine((l) => (l.productId && l.name) || l.text, { message: 'give a part (productId and name) or a text', path: ['productId'] });
export type SavedListLine = z.infer<typeof SavedListLineSchema>;
export const SavedListInputSchema = z.object({
  name: required(ACCOUNT_LIMITS.listName),
  /** The fleet unit the list is for ("07 — 500 h service"), or none. */
  unitId: z.string().trim().max(100).nullable().optional(),
  lines: z.array(SavedListLineSchema).max(ACCOUNT_LIMITS.listLines, `must hold at most ${ACCOUNT_LIMITS.listLines} lines`),
});
export type SavedListInput = z.infer<typeof SavedListInputSchema>;
export const SavedListSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  unitId: z.string().nullable(),
  lineCount: z.number().int(),
  createdBy: z.string(),
  updatedBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SavedListSummary = z.infer<typeof SavedListSummarySchema>;
export const SavedListSchema = SavedListSummarySchema.extend({ lines: z.array(SavedListLineSchema) });
export type SavedList = z.infer<typeof SavedListSchema>;
export const SavedListsResponseSchema = z.object({ lists: z.array(SavedListSummarySchema) });

// ---- The buyer's assertion (gateway -> quotes) -----------------------------------------------------------------

/**
 * Who a buyer call acts for, as the gateway signs it after asking auth (POST /internal/buyer-sessions/verify) for
 * the routes of a buyer's own quotes and orders: the buyer, their company, and the addresses whose requests the
 * company sees (its members').
 */
export const BuyerActorSchema = z.object({
  email: z.string().min(3).max(254),
  companyId: z.string().min(1).max(100),
  role: z.enum(COMPANY_ROLES),
  memberEmails: z.array(z.string().min(3).max(254)).min(1).max(ACCOUNT_LIMITS.members),
});
export type BuyerActor = z.infer<typeof BuyerActorSchema>;
export const BUYER_ASSERTION_HEADER = 'x-buyer-assertion';
export const VerifyBuyerSessionRequestSchema = z.object({ token: z.string().min(1).max(200) });

// ---- Staff see the company (issue 35) --------------------------------------------------------------------------
//   GET /api/admin/buyer-accounts/lookup?email=   (staff) -> { account: { company, role, members, units } | null }

export const BuyerAccountLookupQuerySchema = z.object({ email: AdminEmailSchema });
export const BuyerAccountLookupSchema = z.object({
  account: z
    .object({ company: CompanySchema, role: z.enum(COMPANY_ROLES), members: z.array(CompanyMemberSchema), units: z.array(FleetUnitSchema) })
    .nullable(),
});
export type BuyerAccountLookup = z.infer<typeof BuyerAccountLookupSchema>;
