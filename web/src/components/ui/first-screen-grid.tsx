import { startTransition, useEffect, useRef, useState, type ReactNode } from 'react';
import { useAfterFirstCommit } from '../../lib/use-after-first-commit.ts';

/**
 * A listing's grid. On the document's first page only the first `first` items render with the page (the first
 * screenful; the page's largest paint is among them); the rest renders, as an interruptible transition, once the
 * visitor scrolls within 1,500 px of the end of it, so a phone's first seconds are not spent parsing and laying out
 * dozens of cards below the fold (on the gallery that was 200-300 ms of Lighthouse's blocking time). Without
 * JavaScript the rest is in the server's HTML all the same, in a <noscript>. On client-side navigations everything
 * renders at once, so scroll restoration (back to a card far down) finds it.
 */
export function FirstScreenGrid<T extends { id: string }>({
  items,
  first,
  className,
  gapClassName,
  children,
}: {
  items: readonly T[];
  first: number;
  /** The <ul>'s classes (grid columns and gaps). */
  className: string;
  /** The gap between the first rows and the <noscript> rest, the same as the grid's own. */
  gapClassName: string;
  children: (item: T, index: number) => ReactNode;
}) {
  const after = useAfterFirstCommit();
  const [all, setAll] = useState(after);
  const sentinel = useRef<HTMLDivElement>(null);
  // Whether cards wait below the first ones: a filter that leaves `first` or fewer takes the sentinel away, and the
  // next one that leaves more brings a new sentinel, which the effect then observes.
  const waiting = !all && items.length > first;
  useEffect(() => {
    const el = sentinel.current;
    if (!waiting || !after || !el) return;
    if (typeof IntersectionObserver === 'undefined') return void startTransition(() => setAll(true));
    const io = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        io.disconnect();
        startTransition(() => setAll(true));
      },
      { rootMargin: '1500px 0px' },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [waiting, after]);
  const shown = waiting ? items.slice(0, first) : items;
  return (
    <>
      <ul className={className}>
        {shown.map((item, i) => (
          <li key={item.id}>{children(item, i)}</li>
        ))}
      </ul>
      {shown.length < items.length ? (
        <>
          <div ref={sentinel} aria-hidden="true" />
          <noscript>
            <ul className={`${className} ${gapClassName}`}>
              {items.slice(shown.length).map((item, i) => (
                <li key={item.id}>{children(item, shown.length + i)}</li>
              ))}
            </ul>
          </noscript>
        </>
      ) : null}
    </>
  );
}
