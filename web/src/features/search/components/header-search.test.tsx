import { productPath } from '@forgeline/contracts/slug';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { product, productList } from '../../../../test/fixtures.ts';
import { server } from '../../../../test/msw-server.ts';
import { renderApp } from '../../../../test/render.tsx';
import { HeaderSearch } from './header-search.tsx';

const hits = [
  product({ name: 'Oil Filter Element', partNumber: '1R-0750', slug: 'oil-filter-element' }),
  product({ name: 'Oil Pump Seal Kit', partNumber: '6I-2503', slug: 'oil-pump-seal-kit' }),
  product({ name: 'Oil Cooler Gasket', partNumber: '4N-0001', slug: 'oil-cooler-gasket', match: { kind: 'superseded', value: '1R-0716' } }),
];

/** The search texts the dropdown asked the catalogue for (GET /api/products?search=). */
let asked: string[];

beforeEach(() => {
  asked = [];
  server.use(
    http.get('/api/products', ({ request }) => {
      const search = new URL(request.url).searchParams.get('search') ?? '';
      asked.push(search);
      return HttpResponse.json(search.startsWith('oi') ? productList(hits, 23) : productList([]));
    }),
  );
});

const box = () => screen.getByRole('combobox', { name: /search parts/i });
const options = () => within(screen.getByRole('listbox', { name: 'Search results' })).getAllByRole('option');

async function typeAndWait(text: string) {
  const r = renderApp(<HeaderSearch />, { route: '/catalog' });
  await r.user.type(box(), text);
  await screen.findByRole('option', { name: /Oil Filter Element/ });
  return r;
}

describe('HeaderSearch', () => {
  it('needs two characters: one character opens no dropdown and asks nothing', async () => {
    const { user } = renderApp(<HeaderSearch />);
    await user.type(box(), 'o  ');
    expect(box()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    await user.type(box(), '{Backspace}{Backspace}i');
    await screen.findByRole('option', { name: /Oil Filter Element/ });
    expect(asked).toEqual(['oi']);
  });

  it('lists the hits with the total found and highlights the first one', async () => {
    await typeAndWait('oil');
    expect(screen.getByText('23 results found')).toBeInTheDocument();
    expect(options()).toHaveLength(3);
    expect(options()[0]).toHaveAttribute('aria-selected', 'true');
    expect(box()).toHaveAttribute('aria-activedescendant', options()[0]!.id);
  });

  it('says how a hit was found by an older number it replaces', async () => {
    await typeAndWait('oil');
    expect(within(options()[2]!).getByText('Replaces 1R-0716')).toBeInTheDocument();
  });

  it('moves the highlight down with ArrowDown and wraps from the last hit to the first', async () => {
    const { user } = await typeAndWait('oil');
    await user.keyboard('{ArrowDown}');
    expect(options()[1]).toHaveAttribute('aria-selected', 'true');
    expect(options()[0]).toHaveAttribute('aria-selected', 'false');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(options()[0]).toHaveAttribute('aria-selected', 'true');
  });

  it('moves the highlight up with ArrowUp and wraps from the first hit to the last', async () => {
    const { user } = await typeAndWait('oil');
    await user.keyboard('{ArrowUp}');
    expect(options()[2]).toHaveAttribute('aria-selected', 'true');
    expect(box()).toHaveAttribute('aria-activedescendant', options()[2]!.id);
  });

  it('opens the highlighted hit on Enter and empties the box', async () => {
    const { user, path } = await typeAndWait('oil');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(path()).toBe(productPath(hits[1]!));
    expect(box()).toHaveValue('');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('opens a hit when it is clicked', async () => {
    const { user, path } = await typeAndWait('oil');
    await user.click(options()[2]!);
    expect(path()).toBe(productPath(hits[2]!));
  });

  it('closes the dropdown on Escape and opens it again with ArrowDown', async () => {
    const { user } = await typeAndWait('oil');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(box()).toHaveAttribute('aria-expanded', 'false');
    expect(box()).toHaveValue('oil');
    await user.keyboard('{ArrowDown}');
    expect(options()).toHaveLength(3);
  });

  it('runs the full search on Enter when the dropdown is closed', async () => {
    const { user, path } = await typeAndWait('oil');
    await user.keyboard('{Escape}{Enter}');
    expect(path()).toBe('/?search=oil');
  });

  it('opens the full results from View all results', async () => {
    const { user, path } = await typeAndWait('oil filter');
    await user.click(screen.getByRole('link', { name: 'View all results' }));
    expect(path()).toBe('/?search=oil%20filter');
    expect(box()).toHaveValue('');
  });

  it('says when nothing is found, offers the catalogue, and Enter runs the full search', async () => {
    const { user, path } = renderApp(<HeaderSearch />);
    await user.type(box(), 'qqxz');
    expect(await screen.findByText('No products found for "qqxz"')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'browse the catalog' })).toHaveAttribute('href', '/catalog');
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'View all results' })).not.toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(path()).toBe('/?search=qqxz');
  });

  it('shows Searching... while the catalogue has not answered', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.get('/api/products', async () => {
        await answered;
        return HttpResponse.json(productList(hits));
      }),
    );
    const { user } = renderApp(<HeaderSearch />);
    await user.type(box(), 'oil');
    expect(await screen.findByText('Searching...')).toBeInTheDocument();
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    answer();
    await screen.findByRole('option', { name: /Oil Filter Element/ });
    expect(screen.queryByText('Searching...')).not.toBeInTheDocument();
  });

  it('says Search failed when the catalogue answers with an error', async () => {
    server.use(http.get('/api/products', () => HttpResponse.json({ message: 'down' }, { status: 503 })));
    const { user } = renderApp(<HeaderSearch />);
    await user.type(box(), 'oil');
    expect(await screen.findByText('Search failed')).toBeInTheDocument();
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
  });

  it('empties the box and closes the dropdown with the clear button', async () => {
    const { user } = await typeAndWait('oil');
    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(box()).toHaveValue('');
    expect(box()).toHaveFocus();
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
  });
});
