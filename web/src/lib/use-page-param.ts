import { useCallback } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';

/** The list page kept in the address (?page=n, spec section 4); 1 when absent or not a positive whole number. */
export function usePageParam(): [number, (page: number) => void] {
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get('page'));
  const page = Number.isInteger(raw) && raw >= 1 ? raw : 1;
  const setPage = useCallback(
    (next: number) => {
      setParams(
        (prev) => {
          const p = new URLSearchParams(prev);
          p.set('page', String(Math.max(1, next)));
          return p;
        },
      );
      window.scrollTo({ top: 0 });
    },
    [setParams],
  );
  return [page, setPage];
}

/**
 * The address of another page of this list: the current path and query with `page` replaced. Pagination is made of
 * links to these, so it works from the server's HTML, before the app has started and without JavaScript.
 */
export function usePageHref(): (page: number) => string {
  const { pathname, search } = useLocation();
  return useCallback(
    (page: number) => {
      const p = new URLSearchParams(search);
      p.set('page', String(Math.max(1, page)));
      return `${pathname}?${p}`;
    },
    [pathname, search],
  );
}

/**
 * Back to the list's first page when what it lists changes outside the address (the chosen machine): `page` leaves
 * the address, replacing the entry (going back would not bring the old list back).
 */
export function useResetPage(): () => void {
  const [, setParams] = useSearchParams();
  return useCallback(
    () =>
      setParams(
        (prev) => {
          const p = new URLSearchParams(prev);
          p.delete('page');
          return p;
        },
        { replace: true },
      ),
    [setParams],
  );
}
