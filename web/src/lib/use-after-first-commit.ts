import { startTransition, useEffect, useState } from 'react';

/** Set once the first page of this document load has committed; later (client-side) navigations render in full. */
let documentSettled = false;

/**
 * On the document's first page: false on the first render, then true in a transition, so React renders what depends
 * on it (the rest of a 75-card grid, the home page's lower sections) in interruptible slices instead of one long
 * main-thread task together with what paints first. On client-side navigations it is true at once, so scroll
 * restoration (back to a card far down a listing) finds the whole page.
 */
export function useAfterFirstCommit(): boolean {
  const [after, setAfter] = useState(documentSettled);
  useEffect(() => {
    documentSettled = true;
    if (!after) startTransition(() => setAfter(true));
  }, [after]);
  return after;
}
