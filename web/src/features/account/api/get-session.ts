import type { BuyerAccountSession } from '@forgeline/contracts/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../../lib/api-client.ts';
import { markBuyerSignedIn } from '../../../lib/my-fleet.ts';

/**
 * GET /api/account/session: the signed-in buyer (address, session end, company and role), or null when no buyer
 * session is (the one 401). Tells the rest of the site (lib/my-fleet.ts) whether this browser has a buyer signed in.
 */
export const buyerSessionQuery = queryOptions({
  queryKey: ['account', 'session'],
  queryFn: async (): Promise<BuyerAccountSession | null> => {
    try {
      const session = await apiFetch<BuyerAccountSession>('/api/account/session');
      markBuyerSignedIn(true);
      return session;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        markBuyerSignedIn(false);
        return null;
      }
      throw err;
    }
  },
  staleTime: 60_000,
  retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
});

export const useBuyerSession = () => useQuery(buyerSessionQuery);
