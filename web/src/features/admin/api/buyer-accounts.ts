import type { BuyerAccountLookup } from '@forgeline/contracts/account';
import { useQuery } from '@tanstack/react-query';
import { withQuery } from '../../../lib/api-client.ts';
import { ADMIN_QUERY_KEY, useAdminSession } from '../hooks/use-admin-session.tsx';

/** GET /api/admin/buyer-accounts/lookup: the buyer's company, colleagues and machines behind an address, if any. */
export function useBuyerAccount(email: string) {
  const { adminFetch, session } = useAdminSession();
  return useQuery({
    queryKey: [ADMIN_QUERY_KEY, 'buyer-account', email.toLowerCase()],
    queryFn: () => adminFetch<BuyerAccountLookup>(withQuery('/api/admin/buyer-accounts/lookup', { email })),
    enabled: Boolean(session) && email.includes('@'),
    staleTime: 60_000,
  });
}
