import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { product } from '../../../../test/fixtures.ts';
import { renderApp } from '../../../../test/render.tsx';
import { addText, clearQuoteList, FULL_MESSAGE, getQuoteList, productOfSummary, QUOTE_LIST_MAX_LINES } from '../quote-list-store.ts';
import { AddToQuoteList } from './add-to-quote-list.tsx';

const part = productOfSummary(product({ name: 'Oil Filter Element', partNumber: '1R-0750' }));

beforeEach(() => clearQuoteList());

describe('AddToQuoteList', () => {
  it('adds the part with the quantity typed, confirms it and offers the list', async () => {
    const { user } = renderApp(<AddToQuoteList product={part} />);
    const qty = screen.getByLabelText('Quantity of Oil Filter Element');
    await user.clear(qty);
    await user.type(qty, '3');
    await user.click(screen.getByRole('button', { name: 'Add to Quote List' }));
    expect(await screen.findByText('Added to your quote list')).toBeInTheDocument();
    expect(screen.getByText('1R-0750 × 3')).toBeInTheDocument();
    expect(getQuoteList()).toMatchObject([{ key: part.id, quantity: 3 }]);
    expect(screen.getByRole('status')).toHaveTextContent('On your quote list × 3');
    expect(qty).toHaveValue(1);
  });

  it('adds to the quantity of a part already on the list, with Enter in the quantity box', async () => {
    const { user } = renderApp(<AddToQuoteList product={part} />);
    await user.click(screen.getByRole('button', { name: 'Add to Quote List' }));
    const qty = screen.getByLabelText('Quantity of Oil Filter Element');
    await user.clear(qty);
    await user.type(qty, '4{Enter}');
    expect(await screen.findByText('Quantity updated in your quote list')).toBeInTheDocument();
    expect(getQuoteList()).toMatchObject([{ key: part.id, quantity: 5 }]);
    expect(screen.getByRole('status')).toHaveTextContent('On your quote list × 5');
  });

  it('refuses a 201st line and says the list is full', async () => {
    for (let i = 0; i < QUOTE_LIST_MAX_LINES; i++) addText(`PART-${i}`, 1);
    const { user } = renderApp(<AddToQuoteList product={part} compact />);
    await user.click(screen.getByRole('button', { name: 'Add Oil Filter Element to quote list' }));
    expect(await screen.findByText('Quote list full')).toBeInTheDocument();
    expect(screen.getByText(FULL_MESSAGE)).toBeInTheDocument();
    expect(getQuoteList()).toHaveLength(QUOTE_LIST_MAX_LINES);
    expect(getQuoteList().some((l) => l.key === part.id)).toBe(false);
  });
});
