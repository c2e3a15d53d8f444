import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { cn } from '../../lib/cn.ts';
import { clampPage, pageItems } from '../../lib/pagination.ts';

const cell =
  'inline-flex h-10 min-w-10 items-center justify-center rounded-md border px-2.5 text-sm font-semibold transition-colors disabled:pointer-events-none disabled:opacity-40';
const idle = 'border-zinc-300 bg-white text-ink hover:border-ink';
const active = 'border-ink bg-ink text-safety';

/** Previous, first, neighbours, ellipses, last, next (category, brand and search result pages). */
export function Pagination({
  page,
  totalPages,
  onChange,
  label = 'Pagination',
}: {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
  label?: string;
}) {
  if (totalPages <= 1) return null;
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-center gap-1.5">
      <button type="button" className={cn(cell, idle)} disabled={page <= 1} onClick={() => onChange(page - 1)}>
        <ChevronLeft className="size-4" aria-hidden="true" />
        <span className="sr-only sm:not-sr-only">Previous</span>
      </button>
      {pageItems(page, totalPages).map((item) =>
        typeof item === 'number' ? (
          <button
            key={item}
            type="button"
            className={cn(cell, item === page ? active : idle)}
            aria-current={item === page ? 'page' : undefined}
            aria-label={`Page ${item}`}
            onClick={() => onChange(item)}
          >
            {item}
          </button>
        ) : (
          <span key={item} className="px-1 text-steel" aria-hidden="true">
            …
          </span>
        ),
      )}
      <button type="button" className={cn(cell, idle)} disabled={page >= totalPages} onClick={() => onChange(page + 1)}>
        <span className="sr-only sm:not-sr-only">Next</span>
        <ChevronRight className="size-4" aria-hidden="true" />
      </button>
    </nav>
  );
}

/** First, previous, a page-number input limited to 1..total, next, last (the image gallery). */
export function PageInputPagination({
  page,
  totalPages,
  onChange,
}: {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
}) {
  const inputId = useId();
  const [draft, setDraft] = useState(String(page));
  useEffect(() => setDraft(String(page)), [page]);
  const commit = () => {
    const n = Number(draft);
    if (!draft.trim() || !Number.isFinite(n)) {
      setDraft(String(page));
      return;
    }
    const next = clampPage(n, totalPages);
    setDraft(String(next));
    if (next !== page) onChange(next);
  };
  return (
    <nav aria-label="Gallery pagination" className="flex flex-wrap items-center justify-center gap-1.5">
      <button type="button" className={cn(cell, idle)} disabled={page <= 1} onClick={() => onChange(1)} aria-label="First page">
        <ChevronsLeft className="size-4" aria-hidden="true" />
      </button>
      <button type="button" className={cn(cell, idle)} disabled={page <= 1} onClick={() => onChange(page - 1)} aria-label="Previous page">
        <ChevronLeft className="size-4" aria-hidden="true" />
      </button>
      <form
        className="flex items-center gap-1.5 px-0.5 text-sm text-steel sm:gap-2 sm:px-1"
        onSubmit={(e) => {
          e.preventDefault();
          commit();
        }}
      >
        <label htmlFor={inputId} className="sr-only sm:not-sr-only">
          Page
        </label>
        <input
          id={inputId}
          type="number"
          inputMode="numeric"
          min={1}
          max={totalPages}
          value={draft}
          onChange={(e) => {
            const v = e.target.value;
            if (v === '') return setDraft('');
            const n = Number(v);
            if (Number.isFinite(n)) setDraft(String(clampPage(n, totalPages)));
          }}
          onBlur={commit}
          className="h-10 w-16 rounded-md border sm:w-20 border-zinc-300 bg-white px-2 text-center font-semibold text-ink"
        />
        <span>
          of <span className="font-semibold text-ink">{totalPages}</span>
        </span>
      </form>
      <button type="button" className={cn(cell, idle)} disabled={page >= totalPages} onClick={() => onChange(page + 1)} aria-label="Next page">
        <ChevronRight className="size-4" aria-hidden="true" />
      </button>
      <button type="button" className={cn(cell, idle)} disabled={page >= totalPages} onClick={() => onChange(totalPages)} aria-label="Last page">
        <ChevronsRight className="size-4" aria-hidden="true" />
      </button>
    </nav>
  );
}
