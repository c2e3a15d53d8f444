import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { TOAST_DURATION_MS } from '../config/constants.ts';
import { seedPreloadedQueries } from '../lib/preloaded-queries.ts';
import { createQueryClient } from '../lib/query-client.ts';
import { useHydrated } from '../lib/use-hydrated.ts';

// The toaster's code is not needed for the first paint; it loads right after (toasts only follow user actions).
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

/**
 * Query client with the spec's defaults and the toaster (one toast at a time, 5000 ms). The server passes the client
 * it filled with the page's data (entry-server.tsx); the browser makes its own from what the server put in the page.
 */
export function AppProviders({ children, client: given }: { children: ReactNode; client?: QueryClient }) {
  const [client] = useState(() => {
    if (given) return given;
    const c = createQueryClient();
    seedPreloadedQueries(c);
    return c;
  });
  // The toaster mounts after hydration: the server cannot render a lazy component (it would mark the spot for client
  // rendering, which hydration reports as an error), and the hydrating render must match the server's.
  const mounted = useHydrated();
  return (
    <QueryClientProvider client={client}>
      {children}
      {mounted ? (
        <Suspense fallback={null}>
          <Toaster visibleToasts={1} duration={TOAST_DURATION_MS} position="top-center" richColors closeButton />
        </Suspense>
      ) : null}
    </QueryClientProvider>
  );
}
