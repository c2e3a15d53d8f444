import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router-dom';
import { cn } from '../../lib/cn.ts';

export interface Crumb {
  label: string;
  to?: string;
}

/** Breadcrumb trail; the last crumb is the current page. */
export function Breadcrumb({ items, tone = 'dark' }: { items: Crumb[]; tone?: 'dark' | 'light' }) {
  return (
    <nav aria-label="Breadcrumb" className={cn('min-w-0 max-w-full text-sm', tone === 'dark' ? 'text-zinc-400' : 'text-steel')}>
      <ol className="flex flex-wrap items-center gap-1.5">
        {items.map((c, i) => (
          <li key={`${c.label}-${i}`} className="flex min-w-0 max-w-full items-center gap-1.5">
            {i > 0 ? <ChevronRight className="size-3.5 shrink-0" aria-hidden="true" /> : null}
            {c.to && i < items.length - 1 ? (
              <Link to={c.to} className={tone === 'dark' ? 'hover:text-safety' : 'hover:text-ink hover:underline'}>
                {c.label}
              </Link>
            ) : (
              <span aria-current="page" className={cn('truncate', tone === 'dark' ? 'text-zinc-200' : 'font-medium text-ink')}>
                {c.label}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
