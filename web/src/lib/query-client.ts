import { QueryClient } from '@tanstack/react-query';

/** Spec section 9: no refetch interval, no refetch on focus, data never stale, no retries by default. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
