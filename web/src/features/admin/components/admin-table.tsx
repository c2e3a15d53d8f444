import type { ReactNode } from 'react';
import { cn } from '../../../lib/cn.ts';

export interface AdminTableColumn {
  label: string;
  /** Named for screen readers only (an image or an actions column). */
  hidden?: boolean;
  className?: string;
}

/**
 * The admin panel's tables: a bordered box that scrolls sideways when the table is wider than the screen (a phone),
 * and can then be scrolled from the keyboard (it takes focus), a caption naming the table, and column headers.
 * `minWidth` keeps wide tables readable by scrolling instead of squeezing their columns; `maxHeight` makes a long one
 * scroll within the box, its column headers staying in view.
 */
export function AdminTable({
  caption,
  columns,
  minWidth,
  maxHeight,
  children,
}: {
  caption: string;
  columns: AdminTableColumn[];
  minWidth?: string;
  maxHeight?: string;
  children: ReactNode;
}) {
  return (
    <div
      role="region"
      aria-label={caption}
      tabIndex={0}
      className={cn(
        'relative rounded-lg border border-zinc-200 bg-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-500',
        maxHeight ? 'overflow-auto' : 'overflow-x-auto',
      )}
      style={maxHeight ? { maxHeight } : undefined}
    >
      <table className="w-full text-left text-sm" style={minWidth ? { minWidth } : undefined}>
        <caption className="sr-only">{caption}</caption>
        <thead className={cn('bg-zinc-50 text-xs uppercase tracking-wider text-steel', maxHeight && 'sticky top-0')}>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col" className={cn('px-3 py-2', c.className)}>
                {c.hidden ? <span className="sr-only">{c.label}</span> : c.label}
              </th>
            ))}
          </tr>
        </thead>
        {children}
      </table>
    </div>
  );
}
