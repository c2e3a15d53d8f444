import { useEffect, useLayoutEffect, useRef } from 'react';
import { NavigationType, useLocation, useNavigationType, type Location } from 'react-router-dom';

const STORAGE_KEY = 'forgeline-scroll-positions';
/** History entries whose positions are kept: a long visit does not grow sessionStorage without end. */
const MAX_ENTRIES = 100;

/** Records `y` for `key` as the newest entry, dropping the oldest beyond MAX_ENTRIES. */
function remember(positions: Map<string, number> | null, key: string, y: number) {
  if (!positions) return;
  positions.delete(key);
  positions.set(key, y);
  while (positions.size > MAX_ENTRIES) positions.delete(positions.keys().next().value!);
}

/**
 * Scroll positions kept per history entry, as a browser does for whole documents (the data router's
 * ScrollRestoration did this before the app moved to the declarative router, router.tsx):
 * - a new page (a link, a form) opens at its top, or at its #hash;
 * - back and forward come back to where that entry was left, also across a reload (kept in sessionStorage);
 * - a replaced address (a filter, a search typed, a dialog closed) stays where the visitor is.
 * `getKey` names the entry a position belongs to.
 */
export function useScrollRestoration(getKey: (location: Location) => string) {
  const location = useLocation();
  const action = useNavigationType();
  const positions = useRef<Map<string, number> | null>(null);
  const currentKey = useRef('');

  // Positions are recorded as the visitor scrolls (not at the navigation, when the new screen may already have
  // shortened the page) and written to sessionStorage when the document is left.
  useEffect(() => {
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        remember(positions.current, currentKey.current, window.scrollY);
      });
    };
    const save = () => {
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...(positions.current ?? [])]));
      } catch {
        // Storage full or refused (private mode): positions are kept for this document only.
      }
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', save);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', save);
    };
  }, []);

  useLayoutEffect(() => {
    if (!positions.current) {
      // The app restores positions itself; the browser's own restoring would jump before the app's content is there.
      window.history.scrollRestoration = 'manual';
      positions.current = new Map(readSaved());
    }
    const key = getKey(location);
    currentKey.current = key;
    if (action === NavigationType.Replace) return;
    const saved = action === NavigationType.Pop ? positions.current.get(key) : undefined;
    if (saved !== undefined) {
      window.scrollTo(0, saved);
      return;
    }
    const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
    // A new entry only (the key names it): not every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.key, location.pathname, location.search]);
}

function readSaved(): [string, number][] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((e): e is [string, number] => Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'number') : [];
  } catch {
    return [];
  }
}
