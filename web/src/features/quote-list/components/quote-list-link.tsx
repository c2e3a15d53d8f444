import { ClipboardList } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useQuoteListCount } from '../quote-list-store.ts';

/** The header's way to the quote list, with its line count (shown once the app has read the list). */
export function QuoteListLink() {
  const count = useQuoteListCount();
  return (
    <Link
      to="/quote"
      className="relative inline-flex h-9 items-center gap-2 rounded-md border border-ink-line px-2 text-sm font-bold text-white hover:bg-ink-soft sm:h-10 sm:px-3"
      aria-label={count ? `Quote list, ${count} line${count === 1 ? '' : 's'}` : 'Quote list'}
    >
      <ClipboardList className="size-5 sm:size-4" aria-hidden="true" />
      <span className="hidden lg:inline">Quote list</span>
      {count ? (
        <span
          data-testid="quote-list-count"
          className="absolute -right-2 -top-2 grid h-5 min-w-5 place-items-center rounded-full bg-safety px-1 text-xs font-extrabold text-ink"
          aria-hidden="true"
        >
          {count > 99 ? '99+' : count}
        </span>
      ) : null}
    </Link>
  );
}
