/**
 * GET /api/account/export: everything the account holds about the buyer and their company, as a JSON file (an
 * attachment: downloaded by a plain link, the session cookie going with it).
 */
export const ACCOUNT_EXPORT_URL = '/api/account/export';
