import { InboxPatchSchema, InboxReplySchema, INBOX_STATUS_LABELS, type InboxDetail, type InboxStatus } from '@forgeline/contracts/quote-inbox';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, inboxDetail, inboxItem, inboxList, inboxStaff, inboxStats, signedIn } from '../../../../test/fixtures.ts';
import { server } from '../../../../test/msw-server.ts';
import { renderApp } from '../../../../test/render.tsx';
import InboxTab from './inbox-tab.tsx';

/**
 * The quotes service as the Inbox tab sees it, in memory: the list (filtered by status), a request, and the changes
 * (PATCH, reply) checked against the contracts and the If-Match version, as the service checks them.
 */
let requests: Map<string, InboxDetail>;
/** The query strings the list was asked with. */
let listQueries: URLSearchParams[];
/** The changes sent: method, If-Match and the body as the contract parsed it. */
let changes: { method: string; ifMatch: string | null; body: unknown }[];
let itemReads: number;

const quote = inboxDetail(inboxItem({ customerName: 'Ana Buyer', customerEmail: 'ana@mine-co.example', status: 'pending' }), {
  message: 'For a CAT 793, urgent.',
});
const contact = inboxDetail(
  inboxItem({ kind: 'contact', customerName: 'Bo Visitor', customerEmail: 'bo@quarry.example', status: 'in_progress', firstLine: null, lineCount: 0, subject: 'Opening hours' }),
);

function event(type: 'status' | 'assignee' | 'note' | 'reply', from: string | null, to: string | null, text: string | null = null) {
  return { at: new Date().toISOString(), actor: ADMIN_EMAIL, type, from, to, text, reply: null };
}

const anasAccount = {
  company: { id: 'c-1', name: 'Mine Co', domain: 'mine-co.example', createdAt: '2026-01-01T00:00:00.000Z' },
  role: 'admin',
  members: [
    { email: 'ana@mine-co.example', role: 'admin', joinedAt: '2026-01-01T00:00:00.000Z' },
    { email: 'tech@mine-co.example', role: 'buyer', joinedAt: '2026-01-02T00:00:00.000Z' },
  ],
  units: [{ id: 'u-1', unitName: 'Haul truck 07', make: 'Caterpillar', model: '793F', serial: null, hours: 12000, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' }],
};

beforeEach(() => {
  requests = new Map([quote, contact].map((r) => [r.id, structuredClone(r)]));
  listQueries = [];
  changes = [];
  itemReads = 0;
  server.use(
    signedIn(),
    http.get('/api/admin/quotes/stats', () => HttpResponse.json(inboxStats({ requestsThisWeek: 7, medianHoursToFirstReply: 3, shareWon: 0.4, lostReasons: [{ reason: 'price', requests: 2 }, { reason: 'lead_time', requests: 1 }] }))),
    http.get('/api/admin/quotes/staff', () => HttpResponse.json(inboxStaff([ADMIN_EMAIL, 'second@forgeline.example']))),
    http.get('/api/admin/buyer-accounts/lookup', ({ request }) =>
      HttpResponse.json(new URL(request.url).searchParams.get('email') === 'ana@mine-co.example' ? { account: anasAccount } : { account: null }),
    ),
    http.get('/api/admin/quotes', ({ request }) => {
      const q = new URL(request.url).searchParams;
      listQueries.push(q);
      const all = [...requests.values()];
      const shown = q.get('status') ? all.filter((r) => r.status === q.get('status')) : all;
      const list = inboxList(shown, Number(q.get('page') ?? 1), 3);
      return HttpResponse.json({ ...list, counts: inboxList(all).counts });
    }),
    http.get('/api/admin/quotes/:id', ({ params }) => {
      itemReads++;
      const r = requests.get(params.id as string);
      return r ? HttpResponse.json(r) : HttpResponse.json({ message: 'Quote request not found' }, { status: 404 });
    }),
    http.patch('/api/admin/quotes/:id', async ({ params, request }) => {
      const r = requests.get(params.id as string)!;
      const body = InboxPatchSchema.parse(await request.json());
      const ifMatch = request.headers.get('if-match');
      changes.push({ method: 'PATCH', ifMatch, body });
      if (ifMatch !== `"v${r.version}"`) return HttpResponse.json({ message: 'Someone else changed this request; reload it.' }, { status: 409 });
      if (body.status) r.history.push(event('status', r.status, body.status));
      if (body.status) r.status = body.status;
      if (body.assignee !== undefined) r.history.push(event('assignee', r.assignee, body.assignee));
      if (body.assignee !== undefined) r.assignee = body.assignee;
      if (body.note) r.history.push(event('note', null, null, body.note));
      r.version++;
      return HttpResponse.json(r);
    }),
    http.post('/api/admin/quotes/:id/reply', async ({ params, request }) => {
      const r = requests.get(params.id as string)!;
      const body = InboxReplySchema.parse(await request.json());
      changes.push({ method: 'POST', ifMatch: request.headers.get('if-match'), body });
      r.history.push(event('reply', null, r.customerEmail, body.message), event('status', r.status, 'quoted'));
      r.status = 'quoted';
      r.version++;
      return HttpResponse.json(r);
    }),
  );
});

const requestList = () => screen.findByRole('list', { name: 'Requests' });
const row = (name: RegExp) => within(screen.getByRole('list', { name: 'Requests' })).getByRole('button', { name });

async function openQuote() {
  const r = renderApp(<InboxTab />, { admin: true });
  await requestList();
  await r.user.click(row(/Ana Buyer/));
  const panel = await screen.findByRole('region', { name: 'Ana Buyer' });
  return { ...r, panel };
}

describe('InboxTab: the list', () => {
  it('shows the numbers: requests this week, median time to first reply, share won', async () => {
    renderApp(<InboxTab />, { admin: true });
    const numbers = screen.getByRole('region', { name: 'Inbox numbers' });
    expect(await within(numbers).findByText('3 h')).toBeInTheDocument();
    expect(within(numbers).getByText('7')).toBeInTheDocument();
    expect(within(numbers).getByText('40%')).toBeInTheDocument();
    expect(within(numbers).getByText('Declined: the price 2, the lead time 1')).toBeInTheDocument();
  });

  it('lists quote requests and messages with their status, sender, company and first part', async () => {
    renderApp(<InboxTab />, { admin: true });
    await requestList();
    expect(row(/Ana Buyer/)).toHaveTextContent('New');
    expect(row(/Ana Buyer/)).toHaveTextContent('@mine-co.example');
    expect(row(/Ana Buyer/)).toHaveTextContent('SKU-1 · Oil Filter × 2');
    expect(row(/Bo Visitor/)).toHaveTextContent('In progress');
    expect(row(/Bo Visitor/)).toHaveTextContent('Message');
    expect(row(/Bo Visitor/)).toHaveTextContent('Opening hours');
    expect(screen.getByText('2 requests')).toBeInTheDocument();
  });

  it('counts the requests per status and filters the list by the status chosen', async () => {
    const { user } = renderApp(<InboxTab />, { admin: true });
    await requestList();
    const statuses = screen.getByRole('group', { name: 'Status' });
    expect(within(statuses).getByRole('button', { name: /^All\s*2$/ })).toHaveAttribute('aria-pressed', 'true');
    const inProgress = within(statuses).getByRole('button', { name: /^In progress\s*1$/ });
    await user.click(inProgress);
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Requests' })).getAllByRole('button')).toHaveLength(1));
    expect(inProgress).toHaveAttribute('aria-pressed', 'true');
    expect(row(/Bo Visitor/)).toBeInTheDocument();
    expect(listQueries.at(-1)?.get('status')).toBe('in_progress');
  });

  it('searches by the text typed, from the first page', async () => {
    const { user } = renderApp(<InboxTab />, { admin: true });
    await requestList();
    await user.type(screen.getByLabelText('Search'), 'mine-co');
    await waitFor(() => expect(listQueries.at(-1)?.get('q')).toBe('mine-co'));
    expect(listQueries.at(-1)?.get('page')).toBe('1');
  });

  it('pages through the list with Next and Previous', async () => {
    const { user } = renderApp(<InboxTab />, { admin: true });
    await requestList();
    const pages = screen.getByRole('navigation', { name: 'Inbox pages' });
    expect(within(pages).getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await within(pages).findByText('Page 2 of 3')).toBeInTheDocument();
    expect(listQueries.at(-1)?.get('page')).toBe('2');
  });

  it('says when the inbox is empty', async () => {
    requests.clear();
    renderApp(<InboxTab />, { admin: true });
    expect(await screen.findByText('Nothing here')).toBeInTheDocument();
    expect(screen.getByText('No quote requests or messages yet.')).toBeInTheDocument();
  });

  it('says why the inbox did not load, and loads it on Retry', async () => {
    let failing = true;
    server.use(
      http.get('/api/admin/quotes', ({ request }) =>
        failing ? HttpResponse.json({ message: 'The quotes service is not answering' }, { status: 503 }) : passthroughList(request),
      ),
    );
    const { user } = renderApp(<InboxTab />, { admin: true });
    expect(await screen.findByText('The inbox did not load')).toBeInTheDocument();
    expect(screen.getByText('The quotes service is not answering')).toBeInTheDocument();
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await requestList()).toBeInTheDocument();
  });
});

/** The list as the default handler answers it (for a handler that fails first). */
function passthroughList(request: Request) {
  listQueries.push(new URL(request.url).searchParams);
  return HttpResponse.json(inboxList([...requests.values()]));
}

describe('InboxTab: one request', () => {
  it('opens a request beside the list: heading focused, contact, parts, message, and only the moves its status allows', async () => {
    const { panel } = await openQuote();
    expect(within(panel).getByRole('heading', { name: 'Ana Buyer' })).toHaveFocus();
    expect(within(panel).getByRole('link', { name: 'ana@mine-co.example' })).toHaveAttribute('href', 'mailto:ana@mine-co.example');
    expect(within(panel).getByRole('cell', { name: 'Oil Filter' })).toBeInTheDocument();
    expect(within(panel).getByText('For a CAT 793, urgent.')).toBeInTheDocument();
    const moves = within(within(panel).getByRole('group', { name: 'Move to' })).getAllByRole('button').map((b) => b.textContent);
    expect(moves).toEqual((['in_progress', 'quoted', 'spam', 'closed'] as InboxStatus[]).map((s) => `Mark ${INBOX_STATUS_LABELS[s]}`));
    expect(row(/Ana Buyer/)).toHaveAttribute('aria-current', 'true');
  });

  it("shows the buyer's company, people and machines beside the request, and finds the company's other requests", async () => {
    const { user, panel } = await openQuote();
    const company = await within(panel).findByRole('heading', { name: /Mine Co/ });
    expect(company).toHaveTextContent('company admin · @mine-co.example');
    expect(within(panel).getByText(/2 people: ana@mine-co.example, tech@mine-co.example/)).toBeInTheDocument();
    expect(within(panel).getByText('1 machine in their fleet')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: "Show the company's requests" }));
    await waitFor(() => expect(listQueries.at(-1)?.get('q')).toBe('mine-co.example'));
  });

  it('moves a request to another status with the version it shows, and records it in the history', async () => {
    const { user, panel } = await openQuote();
    await user.click(within(panel).getByRole('button', { name: 'Mark In progress' }));
    expect(await within(panel).findByText('Moved from New to In progress')).toBeInTheDocument();
    expect(changes).toEqual([{ method: 'PATCH', ifMatch: '"v1"', body: { status: 'in_progress' } }]);
    expect(await screen.findByText('Moved to In progress')).toBeInTheDocument();
    await waitFor(() => expect(row(/Ana Buyer/)).toHaveTextContent('In progress'));
    expect(within(panel).queryByRole('button', { name: 'Mark In progress' })).not.toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Mark New' })).toBeInTheDocument();
  });

  it('assigns a request to a member of staff', async () => {
    const { user, panel } = await openQuote();
    await user.selectOptions(within(panel).getByLabelText('Assignee'), ADMIN_EMAIL);
    expect(await within(panel).findByText(`Assigned to ${ADMIN_EMAIL}`)).toBeInTheDocument();
    expect(changes.map((c) => c.body)).toEqual([{ assignee: ADMIN_EMAIL }]);
  });

  it('adds an internal note and empties the note box', async () => {
    const { user, panel } = await openQuote();
    const note = within(panel).getByLabelText('Internal note');
    await user.type(note, 'Called the buyer');
    await user.click(within(panel).getByRole('button', { name: 'Add note' }));
    expect(await within(panel).findByText('Note: Called the buyer')).toBeInTheDocument();
    await waitFor(() => expect(note).toHaveValue(''));
    expect(changes.map((c) => c.body)).toEqual([{ note: 'Called the buyer' }]);
  });

  it('replies with a price and lead time per part: the buyer is answered and the request is Quoted', async () => {
    const { user, panel } = await openQuote();
    await user.type(within(panel).getByLabelText(/^Unit price/), '125.50');
    await user.type(within(panel).getByLabelText(/^Lead time/), '2 weeks');
    await user.type(within(panel).getByLabelText('Message to the buyer'), 'Our best price, ex works.');
    await user.click(within(panel).getByRole('button', { name: 'Send reply' }));
    expect(await within(panel).findByText('Replied to ana@mine-co.example: Our best price, ex works.')).toBeInTheDocument();
    expect(within(panel).getByText('Moved from New to Quoted')).toBeInTheDocument();
    expect(changes).toEqual([
      {
        method: 'POST',
        ifMatch: '"v1"',
        body: { message: 'Our best price, ex works.', lines: [{ unitPrice: 125.5, currency: 'USD', leadTime: '2 weeks' }], validUntil: null },
      },
    ]);
    expect(await screen.findByText('Reply sent')).toBeInTheDocument();
  });

  it("revises a quote after the buyer's answer: another quantity for a line, and the buyer's request shown in the history", async () => {
    const r = requests.get(quote.id)!;
    r.history.push({
      ...event('status', null, null, 'Can you do 5 at 110?'),
      type: 'buyer',
      actor: 'buyer',
      buyer: { action: 'changes', version: 1, lines: [{ quantity: 5, targetPrice: 110 }] },
    });
    const { user, panel } = await openQuote();
    expect(within(panel).getByText('Asked for changes to version 1 (line 1: qty 5, target 110): Can you do 5 at 110?')).toBeInTheDocument();
    const qty = within(panel).getByLabelText(/^Quantity/);
    await user.clear(qty);
    await user.type(qty, '5');
    await user.type(within(panel).getByLabelText(/^Unit price/), '110');
    await user.type(within(panel).getByLabelText('Message to the buyer'), 'Revised: five at 110.');
    await user.click(within(panel).getByRole('button', { name: 'Send reply' }));
    await waitFor(() => expect(changes).toHaveLength(1));
    expect(changes[0]!.body).toMatchObject({ lines: [{ quantity: 5, unitPrice: 110, currency: 'USD', leadTime: null }] });
  });

  it('does not send a reply without a message, or with a price that is not a number', async () => {
    const { user, panel } = await openQuote();
    await user.click(within(panel).getByRole('button', { name: 'Send reply' }));
    expect(within(panel).getByRole('alert')).toHaveTextContent('Write a message to the buyer.');
    await user.type(within(panel).getByLabelText('Message to the buyer'), 'Price below.');
    await user.type(within(panel).getByLabelText(/^Unit price/), 'abc');
    await user.click(within(panel).getByRole('button', { name: 'Send reply' }));
    expect(within(panel).getByRole('alert')).toHaveTextContent('Line 1: the price must be a number.');
    expect(changes).toEqual([]);
  });

  it('says "Not saved" when a colleague changed the request meanwhile, and shows their change', async () => {
    const { user, panel } = await openQuote();
    const readsBefore = itemReads;
    // A colleague's change, not yet on screen: the request moved on to In progress (version 2).
    const theirs = requests.get(quote.id)!;
    theirs.history.push(event('status', 'pending', 'in_progress'));
    Object.assign(theirs, { status: 'in_progress', version: 2 });
    await user.click(within(panel).getByRole('button', { name: 'Mark Spam' }));
    expect(await screen.findByText('Not saved')).toBeInTheDocument();
    expect(screen.getByText('Someone else changed this request; reload it.')).toBeInTheDocument();
    expect(await within(panel).findByText('Moved from New to In progress')).toBeInTheDocument();
    expect(itemReads).toBeGreaterThan(readsBefore);
    expect(changes).toEqual([{ method: 'PATCH', ifMatch: '"v1"', body: { status: 'spam' } }]);
    expect(theirs.status).toBe('in_progress');
  });

  it('says why a request did not open, and closes it', async () => {
    server.use(http.get('/api/admin/quotes/:id', () => HttpResponse.json({ message: 'Quote request not found' }, { status: 404 })));
    const { user } = renderApp(<InboxTab />, { admin: true });
    await requestList();
    await user.click(row(/Ana Buyer/));
    expect(await screen.findByText('The request did not open')).toBeInTheDocument();
    expect(screen.getByText('Quote request not found')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByText('The request did not open')).not.toBeInTheDocument();
  });
});
