import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

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
        { preventScrollReset: false },
      );
      window.scrollTo({ top: 0 });
    },
    [setParams],
  );
  return [page, setPage];
}
