import type { ProductSummary } from '@forgeline/contracts/products';
import { PackageSearch, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { FirstScreenGrid } from '../../../components/ui/first-screen-grid.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { StateMessage } from '../../../components/ui/state-message.tsx';
import type { MachineChoice } from '../../../lib/machine.ts';
import { MachineSelector } from '../../fitment/components/machine-selector.tsx';
import { NoPartsFit } from '../../fitment/components/no-parts-fit.tsx';

/** What the listing reads of the page's query (a TanStack Query result). */
export interface ListingQuery {
  isPending: boolean;
  isError: boolean;
  /** The previous page's products, shown faded while the next one loads. */
  isPlaceholderData: boolean;
  refetch: () => Promise<unknown>;
}

export interface ProductListingProps {
  query: ListingQuery;
  /** The page of products as the server sent it. */
  products: readonly ProductSummary[];
  /** What the grid shows when the page filters its products itself (the brand page's filter box); default `products`. */
  shown?: readonly ProductSummary[];
  /** The visitor's machine: the server narrowed `products` to the parts that fit it. */
  machine: MachineChoice | undefined;
  /** Where nothing fits, as NoPartsFit says it: "among Deere parts", "in the gallery". */
  noFitWhere: string;
  /** "No Products Found": why (the sentence under the heading) and what to do (buttons), when nothing is to show and not for want of fit. */
  empty: { message: ReactNode; actions?: ReactNode };
  /** Above and below the grid, shown with it (a pager, a count). */
  above?: ReactNode;
  below?: ReactNode;
  /** The grid's <ul> classes (columns and gaps). */
  gridClassName: string;
  /**
   * Cards rendered with the page; the rest once the visitor scrolls near them (FirstScreenGrid: in a <noscript>
   * without JavaScript). Default: every card with the page.
   */
  firstCards?: number;
  card: (product: ProductSummary, index: number) => ReactNode;
}

/**
 * The body every product listing shares (brand, category and gallery pages): the machine selector, then the
 * loading state, a failed load with Retry, "no matching parts" for the chosen machine, the page's empty state, or
 * the grid with what goes above and below it (faded while the next page loads over it).
 */
export function ProductListing({
  query,
  products,
  shown = products,
  machine,
  noFitWhere,
  empty,
  above,
  below,
  gridClassName,
  firstCards = Number.POSITIVE_INFINITY,
  card,
}: ProductListingProps) {
  return (
    <>
      <MachineSelector className="mb-8" />
      {query.isPending ? (
        <Spinner label="Loading products..." />
      ) : query.isError ? (
        <StateMessage
          icon={TriangleAlert}
          tone="error"
          title="Failed to fetch products"
          actions={<Button onClick={() => void query.refetch()}>Retry</Button>}
        >
          Please try again in a moment.
        </StateMessage>
      ) : products.length === 0 && machine && !query.isPlaceholderData ? (
        <NoPartsFit machine={machine} where={noFitWhere} />
      ) : shown.length === 0 ? (
        <StateMessage icon={PackageSearch} title="No Products Found" actions={empty.actions}>
          {empty.message}
        </StateMessage>
      ) : (
        <div className={query.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}>
          {above}
          <FirstScreenGrid items={shown} first={firstCards} className={gridClassName} gapClassName="mt-3 sm:mt-4">
            {card}
          </FirstScreenGrid>
          {below}
        </div>
      )}
    </>
  );
}
