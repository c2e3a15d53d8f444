import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { cn } from '../../lib/cn.ts';
import { clampPage, pageItems } from '../../lib/pagination.ts';
import { usePageHref } from '../../lib/use-page-param.ts';

const cell = 'inline-flex h-10 min-w-10 items-center justify-center rounded-md border px-2.5 text-sm font-semibold transition-colors';
const idle = 'border-zinc-300 bg-white text-ink hover:border-ink';
const active = 'border-ink bg-ink text-safety';
const off = 'pointer-events-none border-zinc-300 bg-white text-ink opacity-40';

/**
 * A step to another page: a link (it works from the server's HTML and without JavaScript; the router takes it over
 * once the app runs), or, where there is no such page, a dimmed placeholder of the same size.
 */
function PageLink({ to, label, children }: { to: string | null; label?: string; children: ReactNode }) {
  if (to === null) {
    return (
      // A link with nowhere to go: announced as a disabled link, not focusable, not clickable.
      <span role="link" className={cn(cell, off)} aria-disabled="true" aria-label={label}>
        {children}
      </span>
    );
  }
  return (
    <Link to={to} className={cn(cell, idle)} aria-label={label}>
      {children}
    </Link>
  );
}

/** Previous, first, neighbours, ellipses, last, next (category, brand and search result pages). */
export function Pagination({ page, totalPages, label = 'Pagination' }: { page: number; totalPages: number; label?: string }) {
  const href = usePageHref();
  if (totalPages <= 1) return null;
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-center gap-1.5">
      <PageLink to={page > 1 ? href(page - 1) : null}>
        <ChevronLeft className="size-4" aria-hidden="true" />
        <span className="sr-only sm:not-sr-only">Previous</span>
      </PageLink>
      {pageItems(page, totalPages).map((item) =>
        typeof item === 'number' ? (
          <Link
            key={item}
            to={href(item)}
            className={cn(cell, item === page ? active : idle)}
            aria-current={item === page ? 'page' : undefined}
            aria-label={`Page ${item}`}
          >
            {item}
          </Link>
        ) : (
          <span key={item} className="px-1 text-steel" aria-hidden="true">
            …
          </span>
        ),
      )}
      <PageLink to={page < totalPages ? href(page + 1) : null}>
        <span className="sr-only sm:not-sr-only">Next</span>
        <ChevronRight className="size-4" aria-hidden="true" />
      </PageLink>
    </nav>
  );
}

/**
 * First, previous, a page-number input limited to 1..total, next, last (the image gallery). The input is a GET form
 * keeping the list's other parameters (search), so it works without JavaScript too.
 */
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
  const href = usePageHref();
  const [params] = useSearchParams();
  const [draft, setDraft] = useState(String(page));
  // A new page (a link, Back) shows in the box. Checked while rendering, not in an effect: an effect after the first
  // render would put "1" back over what a quick visitor had already typed.
  const [shown, setShown] = useState(page);
  if (shown !== page) {
    setShown(page);
    setDraft(String(page));
  }
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
  const kept = [...params.entries()].filter(([k]) => k !== 'page');
  return (
    <nav aria-label="Gallery pagination" className="flex flex-wrap items-center justify-center gap-1.5">
      <PageLink to={page > 1 ? href(1) : null} label="First page">
        <ChevronsLeft className="size-4" aria-hidden="true" />
      </PageLink>
      <PageLink to={page > 1 ? href(page - 1) : null} label="Previous page">
        <ChevronLeft className="size-4" aria-hidden="true" />
      </PageLink>
      <form
        method="get"
        className="flex items-center gap-1.5 px-0.5 text-sm text-steel sm:gap-2 sm:px-1"
        onSubmit={(e) => {
          e.preventDefault();
          commit();
        }}
      >
        {kept.map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
        <label htmlFor={inputId} className="sr-only sm:not-sr-only">
          Page
        </label>
        <input
          id={inputId}
          name="page"
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
      <PageLink to={page < totalPages ? href(page + 1) : null} label="Next page">
        <ChevronRight className="size-4" aria-hidden="true" />
      </PageLink>
      <PageLink to={page < totalPages ? href(totalPages) : null} label="Last page">
        <ChevronsRight className="size-4" aria-hidden="true" />
      </PageLink>
    </nav>
  );
}
