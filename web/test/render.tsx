import { QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { Toaster } from 'sonner';
import { AdminSessionProvider } from '../src/features/admin/hooks/use-admin-session.tsx';
import { createQueryClient } from '../src/lib/query-client.ts';

export interface Rendered extends RenderResult {
  user: UserEvent;
  /** The router's current address (path and query), as the component left it. */
  path: () => string;
}

/**
 * Renders a component as the app does: a fresh query client with the app's defaults, a router at `route`, the
 * toaster and, with `admin`, the admin session provider (it asks GET /api/admin/auth/session first).
 */
export function renderApp(ui: ReactElement, { route = '/', admin = false }: { route?: string; admin?: boolean } = {}): Rendered {
  const client = createQueryClient();
  const where = { current: route };
  function LocationProbe() {
    const l = useLocation();
    where.current = `${l.pathname}${l.search}`;
    return null;
  }
  const wrap = (children: ReactNode) => (admin ? <AdminSessionProvider>{children}</AdminSessionProvider> : children);
  const result = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[route]}>
        {wrap(ui)}
        <LocationProbe />
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...result, user: userEvent.setup(), path: () => where.current };
}
