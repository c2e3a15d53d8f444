import { BuyerCodeRequestSchema, BuyerCodeResponseSchema, BuyerSessionSchema, BuyerSignOutResponseSchema, BuyerVerifyRequestSchema, BuyerVerifyResponseSchema } from '../account.ts';
import { body, errors, json, open, type Paths } from './shared.ts';

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
      summary: "The signed-in buyer (from the fl_buyer cookie)",
      responses: { 200: json(BuyerSessionSchema, 'The buyer and when the session ends (no-store)'), ...errors([401, 'Not signed in, or the session ended']) },
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
