import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, startTransition, Suspense, useEffect, useState, type ReactNode } from 'react';
import { TOAST_DURATION_MS } from '../config/constants.ts';
import { seedPreloadedQueries } from '../lib/preloaded-queries.ts';
import { createQueryClient } from '../lib/query-client.ts';

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
  // The toaster mounts after the first render: the server cannot render a lazy component (it would mark the spot for
  // client rendering, which hydration reports as an error), and the hydrating render must match the server's. As a
  // transition, not as a store whose value changed after hydration (useSyncExternalStore), which React renders again
  // at once and synchronously: that render was one 50-70 ms task at 4x CPU just after the header became the app's.
  const [mounted, setMounted] = useState(false);
  useEffect(() => startTransition(() => setMounted(true)), []);
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
