import { PartsMatchRequestSchema } from '@forgeline/contracts/parts-match';
import { ProductLookupRequestSchema, type ProductLookupItem, type ProductSummary } from '@forgeline/contracts/products';
import { quoteListAddPath } from '@forgeline/contracts/quote-list-link';
import { QuoteRequestInputSchema, type QuoteRequestParsed } from '@forgeline/contracts/quotes';
import { productPath } from '@forgeline/contracts/slug';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { matchLine, partsMatch, product, quoteCreated } from '../../../../test/fixtures.ts';
import { server } from '../../../../test/msw-server.ts';
import { renderApp } from '../../../../test/render.tsx';
import { addProduct, addText, clearQuoteList, getQuoteList, productOfSummary, QUOTE_LIST_MAX_LINES } from '../quote-list-store.ts';
import QuoteListPage from './quote-list-page.tsx';

const filter = product({ name: 'Oil Filter Element', partNumber: '1R-0750', sku: 'CAT-1R0750', brandName: 'Caterpillar', slug: 'oil-filter-element' });
const seal = product({ name: 'Seal Kit', partNumber: '6I-2503', sku: 'CAT-6I2503', brandName: 'Caterpillar', slug: 'seal-kit' });
const sealAlt = product({ name: 'Seal Kit, Aftermarket', partNumber: '6I-2503A', sku: 'AFT-6I2503', brandName: 'Fleetguard', slug: 'seal-kit-aftermarket' });

beforeEach(() => clearQuoteList());

const lines = () => within(screen.getByRole('list', { name: 'Quote list lines' })).getAllByRole('listitem');
const sendButton = () => screen.getByRole('button', { name: /^Send Quote Request/ });

function renderPage() {
  return renderApp(<QuoteListPage />, { route: '/quote' });
}

describe('QuoteListPage: the lines', () => {
  it('says the list is empty, points to the catalogue, and cannot be sent', () => {
    renderPage();
    expect(screen.getByText('Your quote list is empty')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse the catalog' })).toHaveAttribute('href', '/catalog');
    expect(sendButton()).toBeDisabled();
  });

  it('lists a catalogue part and a line of the buyer’s own words, with the count of the 200 allowed', () => {
    addProduct(productOfSummary(filter), 2);
    addText('hydraulic hose 1/2 inch', 3);
    renderPage();
    expect(lines()).toHaveLength(2);
    expect(within(lines()[0]!).getByRole('link', { name: 'Oil Filter Element' })).toHaveAttribute('href', productPath(filter));
    expect(within(lines()[1]!).getByText('hydraulic hose 1/2 inch')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Quantity for line 2/)).toHaveValue(3);
    expect(screen.getByText(`2 of ${QUOTE_LIST_MAX_LINES} lines`)).toBeInTheDocument();
    expect(sendButton()).toHaveTextContent('Send Quote Request (2 parts)');
  });

  it('keeps a changed quantity and a note on the line', async () => {
    addProduct(productOfSummary(filter), 1);
    const { user } = renderPage();
    const qty = screen.getByLabelText(/^Quantity for line 1/);
    await user.clear(qty);
    await user.type(qty, '12');
    await user.type(screen.getByLabelText(/^Note for line 1/), 'genuine only');
    expect(getQuoteList()[0]).toMatchObject({ key: filter.id, quantity: 12, note: 'genuine only' });
  });

  it('removes a line with its Remove button', async () => {
    addProduct(productOfSummary(filter), 1);
    addProduct(productOfSummary(seal), 1);
    const { user } = renderPage();
    await user.click(screen.getByRole('button', { name: /^Remove line 1, 1R-0750/ }));
    expect(lines()).toHaveLength(1);
    expect(getQuoteList().map((l) => l.key)).toEqual([seal.id]);
  });

  it('clears every line after asking, and keeps them when the buyer says no', async () => {
    addProduct(productOfSummary(filter), 1);
    const { user } = renderPage();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    await user.click(screen.getByRole('button', { name: 'Clear the list' }));
    expect(getQuoteList()).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Clear the list' }));
    expect(confirm).toHaveBeenCalledTimes(2);
    expect(screen.getByText('Your quote list is empty')).toBeInTheDocument();
    expect(getQuoteList()).toHaveLength(0);
  });

  it('shows a full list as 200 of 200 lines', () => {
    for (let i = 0; i < QUOTE_LIST_MAX_LINES; i++) addText(`PART-${i}`, 1);
    renderPage();
    expect(lines()).toHaveLength(QUOTE_LIST_MAX_LINES);
    expect(screen.getByText('200 of 200 lines')).toBeInTheDocument();
  });
});

describe('QuoteListPage: a pasted or uploaded parts list', () => {
  /** What the match call received: the pasted text, or the uploaded file's name and content. */
  let received: { text?: string; file?: { name: string; content: string } }[];

  beforeEach(() => {
    received = [];
    server.use(
      http.post('/api/parts/match', async ({ request }) => {
        if (request.headers.get('content-type')?.startsWith('multipart/form-data')) {
          const file = (await request.formData()).get('file') as File;
          received.push({ file: { name: file.name, content: await file.text() } });
          return HttpResponse.json(partsMatch([matchLine({ line: 1, input: '1R-0750', quantity: 2, status: 'matched', match: { kind: 'exact', confidence: 1, product: filter } })]));
        }
        const body = PartsMatchRequestSchema.parse(await request.json());
        received.push(body);
        return HttpResponse.json(
          partsMatch([
            matchLine({ line: 1, input: '1R 0750', quantity: 4, status: 'matched', match: { kind: 'normalized', confidence: 0.95, product: filter } }),
            matchLine({ line: 2, input: 'seal kit', quantity: 2, status: 'ambiguous', alternatives: [seal, sealAlt] }),
            matchLine({ line: 3, input: 'qqq unknown thing', quantity: 7, status: 'unmatched' }),
          ]),
        );
      }),
    );
  });

  async function pasteList(user: ReturnType<typeof renderPage>['user']) {
    await user.click(screen.getByLabelText('Your list'));
    await user.paste('1R 0750;4\n2 x seal kit\nqqq unknown thing 7 pcs');
    await user.click(screen.getByRole('button', { name: 'Match parts' }));
    return screen.findByText(/lines? read:/);
  }

  it('matches a pasted list: matched lines and unknown ones go on the list, an ambiguous one waits for a choice', async () => {
    const { user } = renderPage();
    const summary = await pasteList(user);
    expect(received).toEqual([{ text: '1R 0750;4\n2 x seal kit\nqqq unknown thing 7 pcs' }]);
    expect(summary).toHaveTextContent('3 lines read: 1 matched and added, 1 needs your choice, 1 not found (added as your text).');
    expect(screen.getByText(/1R-0750 · Oil Filter Element · Caterpillar \(same number, written differently\)/)).toBeInTheDocument();
    expect(getQuoteList().map((l) => [l.product?.id ?? l.text, l.quantity])).toEqual([
      [filter.id, 4],
      ['qqq unknown thing', 7],
    ]);
    expect(screen.getByLabelText('Your list')).toHaveValue('');
  });

  it('adds the alternative the buyer picks for an ambiguous line', async () => {
    const { user } = renderPage();
    await pasteList(user);
    const chooser = screen.getByRole('group', { name: 'Which part do you mean?' });
    await user.click(within(chooser).getByRole('button', { name: /6I-2503A/ }));
    expect(screen.queryByRole('group', { name: 'Which part do you mean?' })).not.toBeInTheDocument();
    expect(getQuoteList().find((l) => l.key === sealAlt.id)?.quantity).toBe(2);
    expect(lines()).toHaveLength(3);
  });

  it('keeps the buyer’s words for an ambiguous line with "None of these"', async () => {
    const { user } = renderPage();
    await pasteList(user);
    await user.click(screen.getByRole('button', { name: 'None of these: keep my text' }));
    expect(getQuoteList().find((l) => l.text === 'seal kit')?.quantity).toBe(2);
  });

  it('asks for at least one line before matching, without calling the catalogue', async () => {
    const { user } = renderPage();
    await user.type(screen.getByLabelText('Your list'), '   {Enter}  ');
    await user.click(screen.getByRole('button', { name: 'Match parts' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Paste at least one line');
    expect(received).toEqual([]);
  });

  it('refuses a list of more than 500 lines, without calling the catalogue', async () => {
    const { user } = renderPage();
    const input = screen.getByLabelText('Your list');
    await user.click(input);
    await user.paste(Array.from({ length: 501 }, (_, i) => `P-${i}`).join('\n'));
    await user.click(screen.getByRole('button', { name: 'Match parts' }));
    expect(screen.getByRole('alert')).toHaveTextContent('The list has 501 lines; at most 500 can be matched at once.');
    expect(received).toEqual([]);
  });

  it('reads an uploaded CSV file and adds what it matched', async () => {
    const { user, container } = renderPage();
    const csv = 'Part Number,Quantity\n1R-0750,2\n';
    await user.upload(container.querySelector<HTMLInputElement>('input[type=file]')!, new File([csv], 'list.csv', { type: 'text/csv' }));
    expect(await screen.findByText(/read:/)).toHaveTextContent('1 line read: 1 matched and added.');
    expect(received).toEqual([{ file: { name: 'list.csv', content: csv } }]);
    expect(getQuoteList()).toMatchObject([{ key: filter.id, quantity: 2 }]);
  });

  it('refuses a file over 2 MB before sending it', async () => {
    const { user, container } = renderPage();
    const big = new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'huge.csv', { type: 'text/csv' });
    await user.upload(container.querySelector<HTMLInputElement>('input[type=file]')!, big);
    expect(screen.getByRole('alert')).toHaveTextContent('"huge.csv" is larger than 2 MB');
    expect(received).toEqual([]);
  });

  it('does not add the lines a full list has no room for, and says so', async () => {
    for (let i = 0; i < QUOTE_LIST_MAX_LINES; i++) addText(`PART-${i}`, 1);
    const { user, container } = renderPage();
    await user.upload(container.querySelector<HTMLInputElement>('input[type=file]')!, new File(['1R-0750,2'], 'list.csv', { type: 'text/csv' }));
    expect(await screen.findByText(/read:/)).toHaveTextContent('1 line read: 0 matched and added, 1 not added: the list is full.');
    expect(screen.getByText('Not added: the quote list is full.')).toBeInTheDocument();
    expect(getQuoteList()).toHaveLength(QUOTE_LIST_MAX_LINES);
  });

  it('shows the server’s reason when the list cannot be matched', async () => {
    server.use(http.post('/api/parts/match', () => HttpResponse.json({ message: 'Too many lists matched from your address; wait a minute.' }, { status: 429 })));
    const { user } = renderPage();
    await user.type(screen.getByLabelText('Your list'), '1R-0750');
    await user.click(screen.getByRole('button', { name: 'Match parts' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many lists matched from your address; wait a minute.');
  });
});

describe('QuoteListPage: sending the request', () => {
  let sent: QuoteRequestParsed[];

  beforeEach(() => {
    sent = [];
    server.use(
      http.post('/api/quote-requests', async ({ request }) => {
        sent.push(QuoteRequestInputSchema.parse(await request.json()));
        return HttpResponse.json(quoteCreated(), { status: 201 });
      }),
    );
  });

  async function fillCustomer(user: ReturnType<typeof renderPage>['user'], email = 'ana@mining.example') {
    await user.click(screen.getByLabelText(/^Full Name/));
    await user.paste('Ana Buyer');
    await user.click(screen.getByLabelText(/^Business Email/));
    await user.paste(email);
    await user.selectOptions(screen.getByLabelText(/^Country/), 'Chile');
    const label = await screen.findByText(/Security check: what is \d+ \+ \d+\?/);
    const [, a, b] = /what is (\d+) \+ (\d+)\?/.exec(label.textContent ?? '')!;
    await user.type(screen.getByLabelText(/Security check/), String(Number(a) + Number(b)));
  }

  it('sends every line (part or text, quantity, note) in one request, thanks the buyer and empties the list', async () => {
    addProduct(productOfSummary(filter), 2);
    addText('hydraulic hose 1/2 inch', 3);
    const { user } = renderPage();
    await user.type(screen.getByLabelText(/^Note for line 1/), 'genuine only');
    await fillCustomer(user);
    await user.click(sendButton());
    expect(await screen.findByText('Thank you, Ana Buyer!')).toBeInTheDocument();
    expect(screen.getByText(/request for 2 parts has been received/)).toBeInTheDocument();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      customerName: 'Ana Buyer',
      customerEmail: 'ana@mining.example',
      customerCountry: 'Chile',
      lines: [
        { productId: filter.id, quantity: 2, note: 'genuine only' },
        { text: 'hydraulic hose 1/2 inch', quantity: 3 },
      ],
    });
    expect(getQuoteList()).toHaveLength(0);
    expect(screen.getByText('Your quote list is empty')).toBeInTheDocument();
  });

  it('does not send with an invalid e-mail address and says what is wrong', async () => {
    addProduct(productOfSummary(filter), 1);
    const { user } = renderPage();
    await fillCustomer(user, 'ana@nowhere');
    await user.click(sendButton());
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Business Email/)).toHaveFocus();
    expect(sent).toEqual([]);
  });

  it('keeps the list and shows the server’s reason when the request is refused', async () => {
    server.use(http.post('/api/quote-requests', () => HttpResponse.json({ message: 'Too many quote requests; try again in an hour.' }, { status: 429 })));
    addProduct(productOfSummary(filter), 1);
    const { user } = renderPage();
    await fillCustomer(user);
    await user.click(sendButton());
    expect(await screen.findByText('Too many quote requests; try again in an hour.')).toBeInTheDocument();
    expect(screen.getByText('Failed to Send Quote Request')).toBeInTheDocument();
    expect(getQuoteList()).toHaveLength(1);
    await waitFor(() => expect(sendButton()).toBeEnabled());
  });
});

describe('QuoteListPage: a link that adds parts (/quote?add=<id>~<quantity>)', () => {
  /** The ids each lookup asked for. */
  let looked: string[][];
  const retired = '00000000-0000-4000-8000-00000000dead';
  const unknown = '00000000-0000-4000-8000-00000000beef';

  beforeEach(() => {
    looked = [];
    const known = new Map([filter, seal, sealAlt].map((p) => [p.id, p]));
    server.use(
      http.post('/api/products/lookup', async ({ request }) => {
        const { ids = [] } = ProductLookupRequestSchema.parse(await request.json());
        looked.push(ids);
        const item = (id: string): ProductLookupItem => {
          const p: ProductSummary | undefined = known.get(id);
          if (p) return { requested: id, status: 'current', product: p, replacedBy: null };
          return { requested: id, status: 'not_sold', product: null, replacedBy: id === retired ? sealAlt : null };
        };
        return HttpResponse.json({ items: ids.map(item) });
      }),
    );
  });

  const openLink = (adds: { productId: string; quantity: number }[], extra = '') => renderApp(<QuoteListPage />, { route: `${quoteListAddPath(adds)}${extra}` });

  it('puts the parts on the list with their quantities, says so, and leaves the address at /quote', async () => {
    const { path } = openLink([
      { productId: filter.id, quantity: 2 },
      { productId: seal.id, quantity: 1 },
    ]);
    expect(await screen.findByText('2 parts added to your quote list.')).toBeInTheDocument();
    expect(getQuoteList().map((l) => [l.key, l.quantity])).toEqual([
      [filter.id, 2],
      [seal.id, 1],
    ]);
    expect(lines()).toHaveLength(2);
    expect(screen.getByLabelText(/^Quantity for line 1/)).toHaveValue(2);
    await waitFor(() => expect(path()).toBe('/quote'));
    expect(looked).toEqual([[filter.id, seal.id]]);
  });

  it('raises a line already on the list to the quantity asked, never doubles it, and leaves a bigger one alone', async () => {
    addProduct(productOfSummary(filter), 5);
    addProduct(productOfSummary(seal), 1);
    openLink([
      { productId: filter.id, quantity: 2 },
      { productId: seal.id, quantity: 3 },
    ]);
    const notice = await screen.findByText(/already on it/);
    expect(notice).toHaveTextContent('1 part already on it: quantity raised to the one asked. 1 part already on it with as many or more: left as it was.');
    expect(getQuoteList().map((l) => [l.key, l.quantity])).toEqual([
      [filter.id, 5],
      [seal.id, 3],
    ]);
  });

  it('reports the parts the catalogue does not sell (with what replaced one) and skips malformed values unasked', async () => {
    const { user } = renderApp(<QuoteListPage />, {
      route: `/quote?add=${filter.id}~1&add=${retired}~2&add=${unknown}~1&add=not-an-id~4&add=${seal.id}~x`,
    });
    expect(await screen.findByText('1 part added to your quote list.')).toBeInTheDocument();
    expect(screen.getByText(/2 parts from the link are not in the catalogue \(any more\) and were not added/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '6I-2503A Seal Kit, Aftermarket' })).toHaveAttribute('href', productPath(sealAlt));
    expect(looked).toEqual([[filter.id, retired, unknown]]);
    expect(getQuoteList().map((l) => l.key)).toEqual([filter.id]);
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('1 part added to your quote list.')).not.toBeInTheDocument();
  });

  it('says so when the parts cannot be looked up, keeps the link, and adds them on "Try again"', async () => {
    let fail = true;
    server.use(
      http.post('/api/products/lookup', async ({ request }) => {
        if (fail) return HttpResponse.json({ message: 'catalog down' }, { status: 503 });
        const { ids = [] } = ProductLookupRequestSchema.parse(await request.json());
        return HttpResponse.json({ items: ids.map((id) => ({ requested: id, status: 'current', product: filter, replacedBy: null })) });
      }),
    );
    const { user, path } = openLink([{ productId: filter.id, quantity: 4 }]);
    expect(await screen.findByRole('alert')).toHaveTextContent('The parts from the link could not be added just now.');
    expect(path()).toBe(quoteListAddPath([{ productId: filter.id, quantity: 4 }]));
    expect(getQuoteList()).toHaveLength(0);
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('1 part added to your quote list.')).toBeInTheDocument();
    expect(getQuoteList()).toMatchObject([{ key: filter.id, quantity: 4 }]);
    await waitFor(() => expect(path()).toBe('/quote'));
  });

  it('shows no plain form in the browser: that is for pages rendered without JavaScript', async () => {
    openLink([{ productId: filter.id, quantity: 1 }]);
    await screen.findByText('1 part added to your quote list.');
    expect(screen.queryByRole('region', { name: 'Request a quote for these parts' })).not.toBeInTheDocument();
  });
});
