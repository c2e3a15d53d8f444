import { lazy, Suspense, useState } from 'react';
import ProductPage, { type QuoteDialogSlotProps } from '../../features/products/components/product-page.tsx';

const QuoteDialog = lazy(() =>
  import('../../features/quotes/components/quote-dialog.tsx').then((m) => ({ default: m.QuoteDialog })),
);

/** Loads the quote dialog's code the first time it opens, then keeps it mounted so it can animate closed. */
function QuoteDialogSlot(props: QuoteDialogSlotProps) {
  const [wanted, setWanted] = useState(props.open);
  if (props.open && !wanted) setWanted(true);
  if (!wanted && !props.open) return null;
  return (
    <Suspense fallback={null}>
      <QuoteDialog {...props} />
    </Suspense>
  );
}

/** The product screen with the quotes feature's dialog plugged into its 'Get Instant Quote' button. */
export default function ProductRoute() {
  return <ProductPage quoteDialog={(p) => <QuoteDialogSlot {...p} />} />;
}
