import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { TOAST_DURATION_MS } from '../config/constants.ts';
import { seedPreloadedQueries } from '../lib/preloaded-queries.ts';
import { createQueryClient } from '../lib/query-client.ts';

// The toaster's code is not needed for the first paint; it loads right after (toasts only follow user actions).
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

/** Query client with the spec's defaults and the toaster (one toast at a time, 5000 ms). */
export function AppProviders({ children }: { children: ReactNode }) {
  const [client] = useState(() => {
    const c = createQueryClient();
    seedPreloadedQueries(c);
    return c;
  });
  return (
    <QueryClientProvider client={client}>
      {children}
      <Suspense fallback={null}>
        <Toaster visibleToasts={1} duration={TOAST_DURATION_MS} position="top-center" richColors closeButton />
      </Suspense>
    </QueryClientProvider>
  );
}
