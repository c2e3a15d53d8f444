import type { CompanyRole } from '@forgeline/contracts/account';
import type { OrderStatus } from '@forgeline/contracts/orders';
import type { InboxStatus } from '@forgeline/contracts/quote-inbox';

/**
 * The account's fixed values, without zod: a zod schema built in a storefront chunk needs `new Function`, which the
 * Content-Security-Policy refuses, so the contracts' modules (which build schemas when imported) are only ever
 * imported here for their types. Each value is a copy; its source is named beside it, and its type is checked
 * against the contract's where the contract has one.
 */

/** COMPANY_ROLES of packages/contracts/src/account.ts. */
export const COMPANY_ROLES = ['admin', 'buyer'] as const satisfies readonly CompanyRole[];
export const ROLE_LABELS: Record<CompanyRole, string> = { admin: 'Company admin', buyer: 'Buyer' };

/** ACCOUNT_LIMITS of packages/contracts/src/account.ts (the ones the forms use). */
export const ACCOUNT_LIMITS = {
  companyName: 120,
  unitName: 80,
  serial: 40,
  hours: 1_000_000,
  listName: 120,
  listLines: 200,
  fleetCsvBytes: 512 * 1024,
} as const;

/** The columns of GET /api/account/fleet.csv and of an import (services/auth/src/domain/fleet.ts FLEET_CSV_COLUMNS). */
export const FLEET_CSV_COLUMNS = 'unit_name,make,model,serial,hours';

/**
 * A request's status as the buyer reads it (INBOX_STATUSES of packages/contracts/src/quote-inbox.ts; the staff
 * labels, INBOX_STATUS_LABELS, speak of the seller's work: "New", "Won").
 */
export const QUOTE_STATUS_LABELS: Record<InboxStatus, string> = {
  pending: 'Sent',
  in_progress: 'Being priced',
  quoted: 'Quoted',
  changes_requested: 'Changes asked',
  won: 'Accepted',
  lost: 'Declined',
  spam: 'Closed',
  closed: 'Closed',
};
/** The statuses a buyer filters by (spam is never shown to a buyer as such: it reads "Closed"). */
export const QUOTE_FILTER_STATUSES = ['pending', 'in_progress', 'quoted', 'changes_requested', 'won', 'lost', 'closed'] as const satisfies readonly InboxStatus[];

/** ORDER_STATUS_LABELS of packages/contracts/src/orders.ts. */
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  confirmed: 'Confirmed',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};

/** The pages of a buyer's quotes and orders (the API's default limit). */
export const HISTORY_PAGE_SIZE = 25;
