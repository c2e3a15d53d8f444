import { useEffect } from 'react';
import { site } from '../config/site.ts';

/** Sets document.title to "<title> | <site name>" while the screen is shown. */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    if (!title) return;
    document.title = `${title} | ${site.name}`;
  }, [title]);
}
