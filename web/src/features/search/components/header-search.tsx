import type { ProductSummary } from '@forgeline/contracts/products';
import { productPath } from '@forgeline/contracts/slug';
import { LoaderCircle, Search, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { HEADER_SEARCH_DEBOUNCE_MS, SEARCH_MIN_CHARS } from '../../../config/constants.ts';
import { altCodeMatchLabel } from '../../../lib/alt-code-match.ts';
import { cn } from '../../../lib/cn.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { useSearchProducts } from '../api/search-products.ts';
import { recordSearch } from '../../../lib/search-analytics.ts';
import { HighlightedText } from './highlighted-text.tsx';

/** "Replaces 1R-0716" or "Cross-ref: Fleetguard LF9080" under a hit found by its history. */
function MatchLabel({ product }: { product: ProductSummary }) {
  const label = altCodeMatchLabel(product.match);
  return label ? (
    <p className="mt-1">
      <span className="inline-block rounded bg-safety/25 px-1.5 py-0.5 font-mono text-xs font-semibold text-ink">{label}</span>
    </p>
  ) : null;
}

/**
 * The header's product search (spec sections 2, 4, 5): a combobox over the first 10 hits, 300 ms debounce,
 * at least 2 trimmed characters, arrow keys cycle, Enter opens the highlighted hit or runs a full search.
 */
export function HeaderSearch({ variant = 'desktop', onNavigate }: { variant?: 'desktop' | 'mobile'; onNavigate?: () => void }) {
  const navigate = useNavigate();
  const baseId = useId();
  const listId = `${baseId}-list`;
  const rootRef = useRef<HTMLFormElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);

  const trimmed = text.trim();
  const debounced = useDebouncedValue(trimmed, HEADER_SEARCH_DEBOUNCE_MS);
  const query = useSearchProducts(debounced);
  const settled = debounced === trimmed;
  const results: ProductSummary[] = settled ? (query.data?.products ?? []) : [];
  const total = query.data?.pagination.totalProducts ?? query.data?.pagination.totalCount ?? results.length;
  const searching = trimmed.length >= SEARCH_MIN_CHARS && (!settled || query.isFetching);
  const showDropdown = open && trimmed.length >= SEARCH_MIN_CHARS;

  // A new result list highlights its first entry (set while rendering, so the list never paints without it).
  const [listShown, setListShown] = useState({ data: query.data, settled });
  if (listShown.data !== query.data || listShown.settled !== settled) {
    setListShown({ data: query.data, settled });
    setActive(results.length > 0 ? 0 : -1);
  }

  // Keep the highlighted option in view while the arrow keys move through a scrolled list.
  useEffect(() => {
    if (active < 0) return;
    document.getElementById(`${baseId}-opt-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, baseId]);

  // Close on a click or tap outside.
  useEffect(() => {
    if (!showDropdown) return;
    const onDown = (e: PointerEvent) => {
      if (rootRef.current && !rootRef.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [showDropdown]);

  const finish = () => {
    setOpen(false);
    setText('');
    setActive(-1);
    inputRef.current?.blur();
    onNavigate?.();
  };

  const openProduct = (p: ProductSummary) => {
    // The dropdown's search counts when a result of it is opened (the results page counts its own).
    if (settled && query.isSuccess) recordSearch(trimmed, total, 'header', results.map((r) => r.id));
    void navigate(productPath(p));
    finish();
  };

  const runFullSearch = () => {
    if (!trimmed) return;
    void navigate(`/?search=${encodeURIComponent(trimmed)}`);
    finish();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape') {
      setOpen(false);
      return;
    }
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (!showDropdown) {
        setOpen(true);
        return;
      }
      if (results.length === 0) return;
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + results.length) % results.length);
      return;
    }
    if (e.key === 'Enter') {
      e.preventDefault();
      const hit = showDropdown && active >= 0 ? results[active] : undefined;
      if (hit) openProduct(hit);
      else runFullSearch();
    }
  };

  const optionId = (i: number) => `${baseId}-opt-${i}`;

  return (
    // A GET form to the results page (/?search=…): it searches from the server's HTML, before the app has started
    // and without JavaScript; the app handles the submit itself.
    <form
      ref={rootRef}
      role="search"
      action="/"
      method="get"
      className="relative w-full"
      onSubmit={(e) => {
        e.preventDefault();
        runFullSearch();
      }}
    >
      <label htmlFor={`${baseId}-input`} className="sr-only">
        Search parts by name, part number or SKU
      </label>
      <div className="relative">
        <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-zinc-500" aria-hidden="true" />
        <input
          ref={inputRef}
          id={`${baseId}-input`}
          name="search"
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={showDropdown}
          aria-controls={listId}
          aria-activedescendant={showDropdown && active >= 0 && results[active] ? optionId(active) : undefined}
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="search"
          placeholder="Search parts, part numbers, SKUs..."
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onKeyDown={onKeyDown}
          data-variant={variant}
          className={cn(
            'h-11 w-full rounded-md border bg-white pl-9 pr-10 text-sm text-ink placeholder:text-zinc-500',
            variant === 'desktop' ? 'border-transparent' : 'border-zinc-300',
          )}
        />
        {text ? (
          <button
            type="button"
            aria-label="Clear search"
            onClick={() => {
              setText('');
              setOpen(false);
              inputRef.current?.focus();
            }}
            className="absolute right-1.5 top-1/2 grid size-8 -translate-y-1/2 place-items-center rounded text-zinc-600 hover:bg-zinc-100 hover:text-ink"
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        ) : null}
      </div>

      {showDropdown ? (
        <div className="absolute left-0 right-0 top-full z-50 mt-2 overflow-hidden rounded-lg border border-zinc-200 bg-white text-ink shadow-2xl">
          <div className="flex items-center justify-between border-b border-zinc-200 bg-zinc-50 px-4 py-2 text-xs font-semibold text-steel" aria-live="polite">
            {searching ? (
              <span className="inline-flex items-center gap-2">
                <LoaderCircle className="size-3.5 animate-spin" aria-hidden="true" />
                Searching...
              </span>
            ) : query.isError ? (
              <span>Search failed</span>
            ) : (
              <span>
                {total} result{total === 1 ? '' : 's'} found
              </span>
            )}
          </div>
          <ul id={listId} role="listbox" aria-label="Search results" className="max-h-[60vh] overflow-y-auto">
            {!searching &&
              results.map((p, i) => (
                // eslint-disable-next-line jsx-a11y/click-events-have-key-events -- the keyboard chooses through the combobox's input (arrows, Enter); options never take focus
                <li
                  key={p.id}
                  id={optionId(i)}
                  role="option"
                  aria-selected={i === active}
                  onPointerMove={() => setActive(i)}
                  onClick={() => openProduct(p)}
                  className={cn(
                    'cursor-pointer border-b border-zinc-100 px-4 py-2.5 last:border-b-0',
                    i === active ? 'bg-safety/15' : 'bg-white',
                  )}
                >
                  <div className="line-clamp-2 text-sm font-semibold">
                    <HighlightedText text={p.name} field="name" matches={p.matches} />
                  </div>
                  <div className="mt-0.5 flex flex-wrap gap-x-3 text-xs text-steel">
                    <span>{p.category}</span>
                    <span>
                      Part #:{' '}
                      <span className="font-mono text-ink">
                        {p.partNumber ? (
                          <HighlightedText text={p.partNumber} field="partNumber" matches={p.matches} />
                        ) : (
                          <HighlightedText text={p.sku} field="sku" matches={p.matches} />
                        )}
                      </span>
                    </span>
                  </div>
                  <MatchLabel product={p} />
                </li>
              ))}
          </ul>
          {!searching && !query.isError && settled && query.isSuccess && results.length === 0 ? (
            <div className="px-4 py-6 text-center text-sm">
              <p className="font-semibold">No products found for "{trimmed}"</p>
              <p className="mt-1 text-steel">
                Try different keywords or{' '}
                <Link to="/catalog" onClick={finish} className="font-semibold text-ink underline">
                  browse the catalog
                </Link>
                .
              </p>
            </div>
          ) : null}
          {!searching && results.length > 0 ? (
            <Link
              to={`/?search=${encodeURIComponent(trimmed)}`}
              onClick={finish}
              className="block border-t border-zinc-200 bg-ink px-4 py-2.5 text-center text-sm font-semibold text-safety hover:bg-ink-soft"
            >
              View all results
            </Link>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
