import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Toaster } from 'sonner';
import { TOAST_DURATION_MS } from '../config/constants.ts';
import { createQueryClient } from '../lib/query-client.ts';

/** Query client with the spec's defaults and the toaster (one toast at a time, 5000 ms). */
export function AppProviders({ children }: { children: ReactNode }) {
  const [client] = useState(createQueryClient);
  return (
    <QueryClientProvider client={client}>
      {children}
      <Toaster visibleToasts={1} duration={TOAST_DURATION_MS} position="top-center" richColors closeButton />
    </QueryClientProvider>
  );
}
