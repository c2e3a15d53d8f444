import { quoteListLineErrorField } from '@forgeline/contracts/quote-list-link';
import type { QuoteListFormData } from '@forgeline/contracts/ssr';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { product } from '../../../../test/fixtures.ts';
import { renderApp } from '../../../../test/render.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { ServerQuoteListContext } from '../../../lib/server-quote-form.ts';
import QuoteListPage from './quote-list-page.tsx';
import { QuoteListRequestForm } from './quote-list-request-form.tsx';

const filter = product({ name: 'Oil Filter Element', partNumber: '1R-0750', sku: 'CAT-1R0750', slug: 'oil-filter-element' });
const seal = product({ name: 'Seal Kit', partNumber: '6I-2503', sku: 'CAT-6I2503', slug: 'seal-kit' });
const captcha = { num1: 3, num2: 4, token: 'token-1' };

const data = (over: Partial<QuoteListFormData> = {}): QuoteListFormData => ({
  lines: [
    { product: filter, quantity: 2 },
    { product: seal, quantity: 1 },
  ],
  notSold: [],
  form: { captcha },
  ...over,
});

describe('QuoteListRequestForm (the quote list without JavaScript)', () => {
  it('is a form posting every line (product id and editable quantity) with the buyer’s details and the security check', () => {
    const { container } = renderApp(<QuoteListRequestForm data={data()} />, { route: '/quote' });
    const form = container.querySelector('form')!;
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute('action', '/quote-request');
    const fields = new FormData(form);
    expect(fields.getAll('lineProductId')).toEqual([filter.id, seal.id]);
    expect(fields.getAll('lineQuantity')).toEqual(['2', '1']);
    expect(fields.get('captchaToken')).toBe('token-1');
    expect(screen.getByLabelText(/^Quantity for line 1, 1R-0750 Oil Filter Element/)).toHaveValue(2);
    expect(screen.getByRole('link', { name: 'Seal Kit' })).toHaveAttribute('href', `/products/${seal.id}/seal-kit`);
    for (const label of [/^Full Name/, /^Business Email/, /^Country/, /^Phone Number/, /Security check: what is 3 \+ 4\?/]) expect(screen.getByLabelText(label)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send Quote Request (2 parts)' })).toHaveAttribute('type', 'submit');
  });

  it('comes back refused with what was typed, each line’s error beside it and the others at the top', () => {
    renderApp(
      <QuoteListRequestForm
        data={data({
          form: {
            captcha,
            values: { customerName: 'Ada Buyer', customerEmail: 'ada@nowhere', customerCountry: 'Chile', message: 'For the 320D' },
            errors: [
              { field: 'customerEmail', message: 'Business e-mail must be a valid e-mail address.' },
              { field: quoteListLineErrorField(seal.id), message: 'Quantity must be at most 1000000.' },
              { field: quoteListLineErrorField('gone-part'), message: 'This part is not in the catalogue any more: it is left out of the list.' },
            ],
          },
        })}
      />,
      { route: '/quote' },
    );
    expect(screen.getByLabelText(/^Full Name/)).toHaveValue('Ada Buyer');
    expect(screen.getByLabelText(/^Country/)).toHaveValue('Chile');
    expect(screen.getByLabelText(/^Delivery location/)).toHaveValue('For the 320D');
    expect(screen.getByLabelText(/^Business Email/)).toHaveAccessibleDescription('Business e-mail must be a valid e-mail address.');
    expect(screen.getByLabelText(/^Quantity for line 2/)).toHaveAccessibleDescription('Quantity must be at most 1000000.');
    expect(screen.getByRole('alert')).toHaveTextContent('This part is not in the catalogue any more');
    expect(screen.getByRole('alert')).not.toHaveTextContent('Quantity must be');
  });

  it('offers WhatsApp and e-mail when there is no security check, and says when no part can be quoted', () => {
    const { unmount } = renderApp(<QuoteListRequestForm data={data({ form: { captcha: null } })} />, { route: '/quote' });
    expect(screen.getByRole('alert')).toHaveTextContent('The quote form is unavailable right now.');
    expect(within(screen.getByRole('alert')).getByRole('link', { name: 'WhatsApp' }).getAttribute('href')).toContain('1R-0750');
    expect(document.querySelector('form')).toBeNull();
    unmount();
    renderApp(<QuoteListRequestForm data={data({ lines: [], notSold: [{ id: 'x', replacedBy: null }], form: { captcha: null } })} />, { route: '/quote' });
    expect(screen.getByText(/1 part from the link is not in the catalogue/)).toBeInTheDocument();
    expect(screen.getByText(/None of the parts from the link can be quoted/)).toBeInTheDocument();
  });
});

describe('QuoteListPage rendered on the server', () => {
  const render = (url: string, server?: QuoteListFormData) =>
    renderToString(
      <ServerQuoteListContext.Provider value={server}>
        <QueryClientProvider client={createQueryClient()}>
          <StaticRouter location={url}>
            <QuoteListPage />
          </StaticRouter>
        </QueryClientProvider>
      </ServerQuoteListContext.Provider>,
    );

  it('puts the plain form in a <noscript>, hiding the list that needs JavaScript, only when the server read the parts', () => {
    const html = render(`/quote?add=${filter.id}~2`, data());
    const noscript = /<noscript>([\s\S]*?)<\/noscript>/.exec(html)?.[1] ?? '';
    expect(noscript).toContain('<style>#quote-list-app{display:none}</style>');
    expect(noscript).toContain('action="/quote-request"');
    expect(noscript).toContain(`value="${seal.id}"`);
    expect(html).toContain('id="quote-list-app"');
    expect(render('/quote')).not.toContain('<noscript>');
    // The address alone decides that there is a <noscript>, so the browser (which has no server data) renders one too.
    expect(render(`/quote?add=${filter.id}~2`)).toContain('<noscript></noscript>');
  });

  it('shows the confirmation the gateway leads to (?sent=<lines>) without JavaScript', () => {
    expect(/<noscript>([\s\S]*?)<\/noscript>/.exec(render('/quote?sent=3'))?.[1]).toContain('Your request for 3 parts has been received.');
    expect(render('/quote?sent=abc')).not.toContain('<noscript>');
  });
});
