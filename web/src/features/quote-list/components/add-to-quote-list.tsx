import { ListPlus } from 'lucide-react';
import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { buttonClass } from '../../../components/ui/button.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { cn } from '../../../lib/cn.ts';
import { toast } from '../../../lib/toast.ts';
import { recordResultUse } from '../../../lib/search-analytics.ts';
import { addProduct, clampQuantity, productOfSummary, QUOTE_LIST_MAX_QUANTITY, useQuoteList, type QuoteListProduct } from '../quote-list-store.ts';

/**
 * "Add to quote list" with a quantity: on listing cards (compact) and the product page. Until the app has started
 * the button is disabled (server HTML cannot reach the buyer's list); adding a part already on the list adds to its
 * quantity. A toast confirms, with a way to the list.
 */
export function AddToQuoteList({ product, compact = false }: { product: QuoteListProduct; compact?: boolean }) {
  const uid = useId();
  const lines = useQuoteList();
  const navigate = useNavigate();
  const [quantity, setQuantity] = useState('1');
  const inList = lines?.find((l) => l.key === product.id);

  const add = () => {
    const n = clampQuantity(Number.parseInt(quantity, 10));
    const result = addProduct(product, n);
    if (!result.ok) {
      toast.error('Quote list full', { description: result.message });
      return;
    }
    setQuantity('1');
    recordResultUse('quote_add', product.id);
    toast.success(result.added ? 'Added to your quote list' : 'Quantity updated in your quote list', {
      description: `${product.partNumber || product.sku} × ${result.added ? n : (inList?.quantity ?? 0) + n}`,
      action: { label: 'View list', onClick: () => void navigate('/quote') },
    });
  };

  return (
    <div className={cn('flex items-stretch', compact ? 'gap-1.5 px-3 pb-3 sm:gap-2 sm:px-4 sm:pb-4' : 'flex-wrap gap-2')}>
      <label htmlFor={`${uid}-qty`} className="sr-only">
        Quantity of {product.name}
      </label>
      <input
        id={`${uid}-qty`}
        type="number"
        inputMode="numeric"
        min={1}
        max={QUOTE_LIST_MAX_QUANTITY}
        step={1}
        value={quantity}
        onChange={(e) => setQuantity(e.target.value.replace(/[^\d]/g, '').slice(0, 7))}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            add();
          }
        }}
        disabled={lines === null}
        className={cn(formControlClass, compact ? 'h-9 w-12 px-1.5 text-sm sm:w-14 sm:px-2' : 'h-12 w-24')}
      />
      <button
        type="button"
        onClick={add}
        disabled={lines === null}
        aria-label={compact ? `Add ${product.name} to quote list` : undefined}
        title={compact ? 'Add to quote list' : undefined}
        className={buttonClass('outline', compact ? 'sm' : 'lg', compact ? 'flex-1 whitespace-nowrap px-2' : 'flex-1')}
      >
        <ListPlus className={compact ? 'hidden size-4 min-[400px]:block' : 'size-5'} aria-hidden="true" />
        {compact ? 'Add' : 'Add to Quote List'}
      </button>
      {!compact && inList ? (
        <p className="w-full text-sm text-steel" role="status">
          On your{' '}
          <Link to="/quote" className="font-semibold text-ink underline">
            quote list
          </Link>{' '}
          × {inList.quantity}
        </p>
      ) : null}
    </div>
  );
}

/** AddToQuoteList for a catalogue product as the API sends it (a listing's card, the product page). */
export function AddProductToQuoteList({ product, compact }: { product: Parameters<typeof productOfSummary>[0]; compact?: boolean }) {
  return <AddToQuoteList product={productOfSummary(product)} compact={compact} />;
}
