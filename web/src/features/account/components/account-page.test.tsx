import {
  BuyerAccountSessionSchema,
  CompanyResponseSchema,
  FleetUnitSchema,
  SavedListSchema,
  SavedListInputSchema,
  type BuyerAccountSession,
  type CompanyRole,
  type FleetUnit,
  type SavedList,
} from '@forgeline/contracts/account';
import { BuyerOrderListSchema, BuyerOrderSchema, BuyerQuoteDetailSchema, BuyerQuoteListSchema, type BuyerLine } from '@forgeline/contracts/buyer-history';
import { ProductLookupRequestSchema, ProductLookupResponseSchema, type ProductLookupItem } from '@forgeline/contracts/products';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { useSyncExternalStore } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fitmentMakes, fitmentModels, product } from '../../../../test/fixtures.ts';
import { server } from '../../../../test/msw-server.ts';
import { renderApp } from '../../../../test/render.tsx';
import type { QuoteListAccess, QuoteListLineLike } from '../quote-list-access.ts';
import AccountPage from './account-page.tsx';

const NOW = '2026-11-20T10:00:00.000Z';
const ME = 'ana@quarry.example';

const session = (role: CompanyRole = 'admin'): BuyerAccountSession =>
  BuyerAccountSessionSchema.parse({ email: ME, expiresAt: '2099-01-01T00:00:00.000Z', company: { id: 'c-1', name: 'Quarry Works', role } });

const unit = (over: Partial<FleetUnit> = {}): FleetUnit =>
  FleetUnitSchema.parse({ id: 'u-1', unitName: 'Haul truck 07', make: 'Caterpillar', model: '777G', serial: 'LAJ00123', hours: 12400, createdAt: NOW, updatedAt: NOW, ...over });

const savedList = (over: Partial<SavedList> = {}): SavedList =>
  SavedListSchema.parse({
    id: 'l-1',
    name: '07 — 500 h service',
    unitId: 'u-1',
    lineCount: 2,
    createdBy: ME,
    updatedBy: 'bo@quarry.example',
    createdAt: NOW,
    updatedAt: NOW,
    lines: [
      { productId: 'p-filter', name: 'Oil Filter', sku: 'CAT-1R0750', partNumber: '1R-0750', brandName: 'Caterpillar', quantity: 2, note: 'genuine only' },
      { text: 'hydraulic hose 1/2 inch', quantity: 3, note: '' },
    ],
    ...over,
  });

/**
 * The quote list as the account page reaches it (the quote list's store, handed over by the app; a feature's test
 * cannot import another feature's store): kept in memory, adding as the store does (a part already there gets the
 * quantity added).
 */
function memoryQuoteList(initial: QuoteListLineLike[] = []) {
  let lines: readonly QuoteListLineLike[] = initial;
  const listeners = new Set<() => void>();
  const set = (next: readonly QuoteListLineLike[]) => {
    lines = next;
    for (const l of listeners) l();
  };
  const subscribe = (l: () => void) => {
    listeners.add(l);
    return () => listeners.delete(l);
  };
  const access: QuoteListAccess = {
    useQuoteList: function useQuoteList() {
      return useSyncExternalStore(subscribe, () => lines);
    },
    getQuoteList: () => lines,
    addProduct: (p, quantity) => {
      const at = lines.find((l) => l.key === p.id);
      if (at) set(lines.map((l) => (l === at ? { ...l, quantity: l.quantity + quantity } : l)));
      else set([...lines, { key: p.id, product: p, quantity, note: '' }]);
      return { ok: true, added: !at };
    },
    addText: (text, quantity) => {
      set([...lines, { key: `text:${lines.length}`, text, quantity, note: '' }]);
      return { ok: true, added: true };
    },
    updateLine: (key, change) => set(lines.map((l) => (l.key === key ? { ...l, ...change } : l))),
    clearQuoteList: () => set([]),
    productOfSummary: (p) => ({ id: p.id, name: p.name, sku: p.sku, partNumber: p.partNumber, brandName: p.brandName, slug: p.slug, image: '' }),
  };
  return { access, lines: () => lines };
}

function signedIn(role: CompanyRole = 'admin') {
  server.use(http.get('/api/account/session', () => HttpResponse.json(session(role))));
}

function renderAccount(route = '/account', quoteList = memoryQuoteList()) {
  return { ...renderApp(<AccountPage quoteList={quoteList.access} />, { route }), quoteList };
}

beforeEach(() => {
  server.use(
    http.get('/api/account/fleet', () => HttpResponse.json({ units: [unit()] })),
    http.get('/api/fitment/makes', () => HttpResponse.json(fitmentMakes(['Caterpillar', 'Komatsu']))),
    http.get('/api/fitment/models', ({ request }) => {
      const make = new URL(request.url).searchParams.get('make')!;
      return HttpResponse.json(fitmentModels(make, make === 'Caterpillar' ? ['777G', '320D'] : ['PC200']));
    }),
  );
});

describe('AccountPage: who is signed in', () => {
  it('shows the sign-in form when no buyer is signed in', async () => {
    server.use(http.get('/api/account/session', () => HttpResponse.json({ message: 'Not signed in' }, { status: 401 })));
    renderAccount();
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Your work e-mail/)).toBeInTheDocument();
  });

  it('names the company, the buyer and their role, and opens the section the address names', async () => {
    signedIn('buyer');
    server.use(
      http.get('/api/account/company', () =>
        HttpResponse.json(
          CompanyResponseSchema.parse({
            company: { id: 'c-1', name: 'Quarry Works', domain: 'quarry.example', createdAt: NOW },
            members: [
              { email: 'bo@quarry.example', role: 'admin', joinedAt: NOW },
              { email: ME, role: 'buyer', joinedAt: NOW },
            ],
            invites: [],
          }),
        ),
      ),
    );
    renderAccount('/account?tab=company');
    expect(await screen.findByRole('heading', { level: 1, name: /Your account\s*Quarry Works/ })).toBeInTheDocument();
    expect(screen.getByText(ME).closest('p')).toHaveTextContent(`Signed in as ${ME}. Buyer`);
    expect(screen.getByRole('tab', { name: 'Company' })).toHaveAttribute('aria-selected', 'true');
    // A buyer sees the people read-only: no role to change, nobody to remove, no invitations; they can leave.
    const people = await screen.findByRole('list', { name: 'People in the company' });
    expect(within(people).getAllByRole('listitem')).toHaveLength(2);
    expect(within(people).queryByRole('combobox')).not.toBeInTheDocument();
    expect(within(people).queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
    expect(within(people).getByRole('button', { name: 'Leave Quarry Works' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Invitations' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rename' })).not.toBeInTheDocument();
  });

  it('goes back to the sign-in form when a call finds the session ended', async () => {
    signedIn();
    renderAccount('/account?tab=lists');
    await screen.findByRole('heading', { level: 1, name: /Quarry Works/ });
    server.use(
      http.get('/api/account/session', () => HttpResponse.json({ message: 'Not signed in' }, { status: 401 })),
      http.get('/api/account/lists', () => HttpResponse.json({ message: 'Sign in to your account first' }, { status: 401 })),
    );
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });
});

describe('AccountPage: machines', () => {
  it('lists the fleet, says why a failed load failed, and retries', async () => {
    signedIn();
    let fail = true;
    server.use(
      http.get('/api/account/fleet', () => (fail ? HttpResponse.json({ message: 'Your account is unavailable right now.' }, { status: 503 }) : HttpResponse.json({ units: [unit()] }))),
    );
    const { user } = renderAccount();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your machines did not load.');
    expect(alert).toHaveTextContent('Your account is unavailable right now.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    const list = await screen.findByRole('list', { name: 'Your machines' });
    expect(within(list).getByText('Haul truck 07')).toBeInTheDocument();
    expect(within(list).getByText('Caterpillar 777G · S/N LAJ00123 · 12,400 h')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/api/account/fleet.csv');
  });

  it('says why to add machines when there are none', async () => {
    signedIn();
    server.use(http.get('/api/account/fleet', () => HttpResponse.json({ units: [] })));
    renderAccount();
    expect(await screen.findByText('No machines yet')).toBeInTheDocument();
    expect(screen.getByText(/narrow to the parts that fit them/)).toBeInTheDocument();
  });

  it('adds a machine chosen from the fitment lists, and shows the API’s refusal beside the field it names', async () => {
    signedIn();
    const sent: unknown[] = [];
    server.use(
      http.post('/api/account/fleet', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ message: 'unitName: your fleet already has a machine named "Haul truck 07"' }, { status: 409 });
      }),
    );
    const { user } = renderAccount();
    await user.click(await screen.findByRole('button', { name: 'Add a machine' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a machine' });
    await user.type(within(dialog).getByLabelText(/Unit name/), 'Haul truck 07');
    await within(dialog).findByRole('option', { name: 'Caterpillar' });
    await user.selectOptions(within(dialog).getByLabelText(/Make/), 'Caterpillar');
    await within(dialog).findByRole('option', { name: '320D' });
    await user.selectOptions(within(dialog).getByLabelText(/Model/), '320D');
    await user.type(within(dialog).getByLabelText('Hours'), '5100');
    await user.click(within(dialog).getByRole('button', { name: 'Add the machine' }));
    const name = within(dialog).getByLabelText(/Unit name/);
    await waitFor(() => expect(name).toHaveAccessibleDescription('your fleet already has a machine named "Haul truck 07"'));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveFocus();
    expect(sent).toEqual([{ unitName: 'Haul truck 07', make: 'Caterpillar', model: '320D', hours: 5100 }]);
  });

  it('imports a CSV as text/csv and names each refused row by its line', async () => {
    signedIn();
    let body: { type: string | null; text: string } | null = null;
    server.use(
      http.post('/api/account/fleet/import', async ({ request }) => {
        body = { type: request.headers.get('content-type'), text: await request.text() };
        return HttpResponse.json({ added: 1, updated: 1, errors: [{ line: 4, message: 'make: is required' }] });
      }),
    );
    const { user } = renderAccount();
    const csv = 'unit_name,make,model\nLoader 2,Volvo,L120H\nHaul truck 07,Caterpillar,777G\nBroken,,D9T\n';
    await user.upload(await screen.findByLabelText('Import CSV'), new File([csv], 'fleet.csv', { type: 'text/csv' }));
    expect(await screen.findByText(/fleet\.csv: 1 machine added, 1 updated, 1 row not imported/)).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Rows not imported' })).getByRole('listitem')).toHaveTextContent('Line 4: make: is required');
    expect(body).toEqual({ type: 'text/csv; charset=utf-8', text: csv });
  });
});

describe('AccountPage: parts lists', () => {
  beforeEach(() => {
    signedIn();
    const list = savedList();
    const head = { ...list, lines: undefined };
    server.use(
      http.get('/api/account/lists', () => HttpResponse.json({ lists: [head] })),
      http.get('/api/account/lists/l-1', () => HttpResponse.json(savedList())),
    );
  });

  it('shows a list with its machine and last change, and copies its lines to the quote list, notes and text lines included', async () => {
    const { user, quoteList } = renderAccount('/account?tab=lists');
    const row = within(await screen.findByRole('list', { name: 'Your parts lists' })).getByRole('listitem');
    expect(row).toHaveTextContent('07 — 500 h service');
    expect(await within(row).findByText('For Haul truck 07')).toBeInTheDocument();
    expect(row).toHaveTextContent('2 lines · changed by bo@quarry.example on 20 Nov 2026');
    await user.click(within(row).getByRole('button', { name: /Show the lines/ }));
    expect(await within(row).findByRole('list', { name: 'Lines of 07 — 500 h service' })).toHaveTextContent('hydraulic hose 1/2 inch');

    await user.click(within(row).getByRole('button', { name: 'Add 07 — 500 h service to the quote list' }));
    await waitFor(() => expect(quoteList.lines()).toHaveLength(2));
    expect(quoteList.lines()).toEqual([
      {
        key: 'p-filter',
        product: { id: 'p-filter', name: 'Oil Filter', sku: 'CAT-1R0750', partNumber: '1R-0750', brandName: 'Caterpillar', slug: null, image: '' },
        quantity: 2,
        note: 'genuine only',
      },
      { key: 'text:1', text: 'hydraulic hose 1/2 inch', quantity: 3, note: '' },
    ]);
  });

  it('sends a list as a quote: asks before mixing it with lines already on the quote list, then opens the quote list', async () => {
    const existing = memoryQuoteList([{ key: 'text:0', text: 'V-belt', quantity: 1, note: '' }]);
    const { user, path, quoteList } = renderAccount('/account?tab=lists', existing);
    const row = within(await screen.findByRole('list', { name: 'Your parts lists' })).getByRole('listitem');
    await user.click(within(row).getByRole('button', { name: 'Send 07 — 500 h service as a quote request' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your quote list has lines already' });
    await user.click(within(dialog).getByRole('button', { name: 'Replace them' }));
    await waitFor(() => expect(path()).toBe('/quote'));
    expect(quoteList.lines().map((l) => l.product?.id ?? l.text)).toEqual(['p-filter', 'hydraulic hose 1/2 inch']);
  });

  it('saves the quote list as a parts list: parts with what their cards showed, typed lines as text', async () => {
    let posted: unknown = null;
    server.use(
      http.post('/api/account/lists', async ({ request }) => {
        posted = await request.json();
        return HttpResponse.json(savedList({ id: 'l-2', name: 'Monthly' }), { status: 201 });
      }),
    );
    const quoteList = memoryQuoteList([
      { key: 'p-1', product: { id: 'p-1', name: 'Seal Kit', sku: 'CAT-6I2503', partNumber: '6I-2503', brandName: 'Caterpillar', slug: 'seal-kit', image: '/media/a.webp' }, quantity: 4, note: ' urgent ' },
      { key: 'text:1', text: 'grease gun', quantity: 1, note: '' },
    ]);
    const { user } = renderAccount('/account?tab=lists', quoteList);
    const form = (await screen.findByRole('heading', { name: 'Save your quote list as a parts list' })).closest('section')!;
    await user.type(within(form).getByLabelText(/List name/), 'Monthly');
    await within(form).findByRole('option', { name: /Haul truck 07/ });
    await user.selectOptions(within(form).getByLabelText('For the machine'), 'u-1');
    await user.click(within(form).getByRole('button', { name: 'Save as a parts list' }));
    await waitFor(() => expect(posted).not.toBeNull());
    expect(SavedListInputSchema.parse(posted)).toEqual({
      name: 'Monthly',
      unitId: 'u-1',
      lines: [
        { productId: 'p-1', name: 'Seal Kit', sku: 'CAT-6I2503', partNumber: '6I-2503', brandName: 'Caterpillar', slug: 'seal-kit', image: '/media/a.webp', quantity: 4, note: 'urgent' },
        { text: 'grease gun', quantity: 1, note: '' },
      ],
    });
  });
});

describe('AccountPage: quotes, orders and a reorder', () => {
  const filter = product({ name: 'Oil Filter', sku: 'CAT-1R0750' });
  const oldSeal = product({ name: 'Seal Kit', sku: 'CAT-6I2503' });
  const newSeal = product({ name: 'Seal Kit, improved', sku: 'CAT-6I2503B' });
  const GONE = '00000000-0000-4000-8000-0000000000ff';
  const lines: BuyerLine[] = [
    { productId: filter.id, sku: filter.sku, name: filter.name, quantity: 2, note: '' },
    { productId: oldSeal.id, sku: oldSeal.sku, name: oldSeal.name, quantity: 1, note: 'for unit 07' },
    { productId: GONE, sku: 'OLD-123', name: 'Discontinued gasket', quantity: 5, note: '' },
    { productId: null, sku: '', name: 'hydraulic hose 1/2 inch', quantity: 3, note: '' },
  ];
  const quote = {
    id: 'q-1',
    createdAt: NOW,
    email: 'bo@quarry.example',
    status: 'quoted',
    lineCount: 4,
    firstLine: 'Oil Filter',
    latestVersion: { version: 2, quotedAt: NOW, validUntil: '2026-12-04T10:00:00.000Z', totals: [{ currency: 'USD', total: 1240 }] },
    orderNumber: null,
  };
  const items: ProductLookupItem[] = [
    { requested: filter.id, status: 'current', product: filter, replacedBy: null },
    { requested: oldSeal.id, status: 'superseded', product: oldSeal, replacedBy: newSeal },
    { requested: GONE, status: 'not_sold', product: null, replacedBy: null },
  ];

  beforeEach(() => {
    signedIn();
    server.use(
      http.get('/api/account/quotes', () => HttpResponse.json(BuyerQuoteListSchema.parse({ items: [quote], pagination: { page: 1, limit: 25, total: 1, totalPages: 1 } }))),
      http.get('/api/account/orders', () => HttpResponse.json({ message: 'No route for GET /api/account/orders' }, { status: 404 })),
      http.get('/api/account/quotes/q-1', () => HttpResponse.json(BuyerQuoteDetailSchema.parse({ ...quote, lines }))),
    );
  });

  it('lists the requests with who asked, the status and the latest quote, and says which part failed to load', async () => {
    renderAccount('/account?tab=history');
    const row = within(await screen.findByRole('list', { name: 'Your quote requests' })).getByRole('listitem');
    expect(row).toHaveTextContent('20 Nov 2026');
    expect(row).toHaveTextContent('bo@quarry.example');
    expect(row).toHaveTextContent('Quoted');
    expect(row).toHaveTextContent('Oil Filter and 3 more lines');
    expect(row).toHaveTextContent('Quote v2: 1,240.00 USD, valid until 4 Dec 2026');
    expect(await screen.findByText('Your orders did not load.')).toBeInTheDocument();
  });

  it('checks a reorder against today’s catalogue: a superseded part’s replacement by default, a part no longer sold as text', async () => {
    let asked: unknown = null;
    server.use(
      http.post('/api/products/lookup', async ({ request }) => {
        asked = await request.json();
        return HttpResponse.json(ProductLookupResponseSchema.parse({ items }));
      }),
    );
    const { user, quoteList } = renderAccount('/account?tab=history');
    const row = within(await screen.findByRole('list', { name: 'Your quote requests' })).getByRole('listitem');
    await user.click(within(row).getByRole('button', { name: /^Reorder/ }));
    const dialog = await screen.findByRole('dialog', { name: /^Reorder the request of 20 Nov 2026/ });
    const lineItems = within(await within(dialog).findByRole('list', { name: 'Lines to reorder' })).getAllByRole('listitem');
    expect(ProductLookupRequestSchema.parse(asked)).toEqual({ ids: [filter.id, oldSeal.id, GONE] });
    expect(lineItems[0]).toHaveTextContent('On sale: added as it is.');
    const superseded = within(lineItems[1]!).getByRole('group', { name: `Superseded by ${newSeal.sku} — ${newSeal.name}` });
    expect(within(superseded).getByRole('radio', { name: `Add the replacement: ${newSeal.sku} — ${newSeal.name}` })).toBeChecked();
    expect(lineItems[2]).toHaveTextContent('No longer sold.');
    expect(within(lineItems[2]!).getByRole('checkbox', { name: 'Add it as a free-text line' })).toBeChecked();
    // The buyer keeps the old seal, and leaves the discontinued gasket out.
    await user.click(within(superseded).getByRole('radio', { name: /^Add the part as before/ }));
    await user.click(within(lineItems[2]!).getByRole('checkbox', { name: 'Add it as a free-text line' }));
    expect(within(dialog).getByText('3 lines will go on your quote list.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add to quote list' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(quoteList.lines().map((l) => [l.product?.sku ?? l.text, l.quantity, l.note])).toEqual([
      [filter.sku, 2, ''],
      [oldSeal.sku, 1, 'for unit 07'],
      ['hydraulic hose 1/2 inch', 3, ''],
    ]);
  });

  it('opens the quote page by a fresh link', async () => {
    server.use(http.post('/api/account/quotes/q-1/view-link', () => HttpResponse.json({ url: 'http://localhost:3000/quote/view/abc123' })));
    const { user, path } = renderAccount('/account?tab=history');
    const row = within(await screen.findByRole('list', { name: 'Your quote requests' })).getByRole('listitem');
    await user.click(within(row).getByRole('button', { name: /^View the quote/ }));
    await waitFor(() => expect(path()).toBe('/quote/view/abc123'));
  });

  it('lists the orders with PO, shipment and totals, and reorders one from its lines', async () => {
    const order = BuyerOrderSchema.parse({
      id: 'o-1',
      number: 'FL-1024',
      quoteId: 'q-1',
      createdAt: NOW,
      email: ME,
      status: 'shipped',
      poNumber: 'PO-4500012',
      delivery: { company: 'Quarry Works', address: 'Pit road 1', contactName: 'Ana', contactPhone: '+56 2 555 0100' },
      shipment: { carrier: 'DHL', trackingNumber: 'JD0146000' },
      totals: [{ currency: 'USD', total: 980.5 }],
      lineCount: 1,
    });
    server.use(
      http.get('/api/account/orders', () => HttpResponse.json(BuyerOrderListSchema.parse({ items: [order], pagination: { page: 1, limit: 25, total: 1, totalPages: 1 } }))),
      http.get('/api/account/orders/o-1', () => HttpResponse.json(BuyerOrderSchema.parse({ ...order, lines: [lines[0]] }))),
      http.post('/api/products/lookup', () => HttpResponse.json(ProductLookupResponseSchema.parse({ items: [items[0]] }))),
    );
    const { user, quoteList } = renderAccount('/account?tab=history');
    const row = within(await screen.findByRole('list', { name: 'Your orders' })).getByRole('listitem');
    expect(row).toHaveTextContent('FL-1024');
    expect(row).toHaveTextContent('Shipped');
    expect(row).toHaveTextContent('PO numberPO-4500012');
    expect(row).toHaveTextContent('ShipmentDHL · JD0146000');
    expect(row).toHaveTextContent('Total980.50 USD · 1 line');
    await user.click(within(row).getByRole('button', { name: 'Reorder order FL-1024' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reorder order FL-1024' });
    await user.click(await within(dialog).findByRole('button', { name: 'Add to quote list' }));
    await waitFor(() => expect(quoteList.lines().map((l) => [l.product?.sku, l.quantity])).toEqual([[filter.sku, 2]]));
  });

  it('says when the parts cannot be checked, and retries', async () => {
    let fail = true;
    server.use(
      http.post('/api/products/lookup', () =>
        fail ? HttpResponse.json({ message: 'Service unavailable' }, { status: 503 }) : HttpResponse.json(ProductLookupResponseSchema.parse({ items })),
      ),
    );
    const { user } = renderAccount('/account?tab=history');
    const row = within(await screen.findByRole('list', { name: 'Your quote requests' })).getByRole('listitem');
    await user.click(within(row).getByRole('button', { name: /^Reorder/ }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText("The parts could not be checked against today's catalogue.")).toBeInTheDocument();
    fail = false;
    await user.click(within(dialog).getByRole('button', { name: 'Retry' }));
    expect(await within(dialog).findByRole('list', { name: 'Lines to reorder' })).toBeInTheDocument();
  });
});

describe('AccountPage: your data', () => {
  it('links the export, and deleting the account says what is kept, then goes back to the sign-in form', async () => {
    signedIn();
    server.use(
      http.delete('/api/account', () => {
        server.use(http.get('/api/account/session', () => HttpResponse.json({ message: 'Not signed in' }, { status: 401 })));
        return HttpResponse.json({ success: true });
      }),
    );
    const { user } = renderAccount('/account?tab=data');
    expect(await screen.findByRole('link', { name: 'Download my data (JSON)' })).toHaveAttribute('href', '/api/account/export');
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete your account?' });
    expect(dialog).toHaveTextContent("Your quotes and orders are kept for the seller's records, with your details removed.");
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('deletes the company only once its name is typed, and says why it could not', async () => {
    signedIn();
    let deletes = 0;
    server.use(
      http.delete('/api/account/company', () => {
        deletes += 1;
        return HttpResponse.json({ message: 'Your account could not be deleted right now (nothing was deleted). Please try again shortly.' }, { status: 503 });
      }),
    );
    const { user } = renderAccount('/account?tab=data');
    await user.click(await screen.findByRole('button', { name: 'Delete the company' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Quarry Works?' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete the company' });
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/Type the company's name/), 'Quarry Work');
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/Type the company's name/), 's');
    await user.click(confirm);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('nothing was deleted');
    expect(deletes).toBe(1);
  });

  it('offers a buyer (not an admin) no way to delete the company', async () => {
    signedIn('buyer');
    renderAccount('/account?tab=data');
    expect(await screen.findByRole('button', { name: 'Delete my account' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete the company' })).not.toBeInTheDocument();
  });
});
