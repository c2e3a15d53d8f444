import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../../test/render.tsx';
import { WhereUsedSection } from './part-history.tsx';

const used = (assemblySlug: string, assemblyName: string, callouts: string[], quantity: number) => ({
  make: 'Caterpillar',
  model: '320D Excavator',
  makeSlug: 'caterpillar',
  modelSlug: '320d-excavator',
  assemblySlug,
  assemblyName,
  callouts,
  quantity,
});

describe('WhereUsedSection (#38)', () => {
  it('links each assembly the part is drawn in, with its callouts and quantity, and says how many more there are', () => {
    renderApp(<WhereUsedSection whereUsed={{ total: 5, assemblies: [used('track-roller-frame', 'Track roller frame', ['3'], 2), used('final-drive', 'Final drive', ['7', '12A'], 6)] }} />);
    const section = screen.getByRole('region', { name: 'Where used' });
    const items = within(section).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'Caterpillar 320D Excavator — Track roller frame, callout 3, qty 2',
      'Caterpillar 320D Excavator — Final drive, callout 7, 12A, qty 6',
    ]);
    expect(within(items[0]!).getByRole('link')).toHaveAttribute('href', '/machines/caterpillar/320d-excavator/track-roller-frame');
    expect(within(section).getByText('and 3 more')).toBeInTheDocument();
  });

  it('shows nothing for a part in no diagram', () => {
    renderApp(
      <>
        <WhereUsedSection whereUsed={{ total: 0, assemblies: [] }} />
        <WhereUsedSection whereUsed={undefined} />
      </>,
    );
    expect(screen.queryByRole('heading', { name: 'Where used' })).not.toBeInTheDocument();
  });
});
