import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { product } from '../../test/fixtures.ts';
import { server } from '../../test/msw-server.ts';
import { renderApp } from '../../test/render.tsx';
import { AppRoutes } from './router.tsx';

const errorTitle = 'Something went wrong. Please refresh the page.';

afterEach(() => vi.restoreAllMocks());

describe('AppRoutes (the route table, as main.tsx and the server render it)', () => {
  it('renders the screen of the address inside the layout', async () => {
    renderApp(<AppRoutes />, { route: '/no-such-page' });
    expect(await screen.findByRole('heading', { level: 1, name: /page not found/i })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /skip to content/i })).toBeInTheDocument();
  });

  it('shows the error screen, with its Refresh Page button, when a screen throws while rendering', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    // A product without its images list: the product screen fails to render it.
    server.use(http.get('/api/products/:id', () => HttpResponse.json({ ...product(), images: null })));
    renderApp(<AppRoutes />, { route: '/products/11111111-2222-5333-8444-555555555555/broken-part' });
    expect(await screen.findByRole('heading', { level: 1, name: errorTitle })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh Page' })).toBeInTheDocument();
    expect(logged.mock.calls.some(([first]) => first === 'Unhandled screen error')).toBe(true);
  });
});
