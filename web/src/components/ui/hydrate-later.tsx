import { Suspense, type ReactNode } from 'react';

/**
 * On a server-rendered page React hydrates what lies outside any Suspense boundary first, in one pass, then each
 * boundary on its own, in page order at low priority (and at once if the visitor types or clicks inside it before).
 * Wrapping what the first moments do not need (the header's nav and links, the footer, the floating buttons; the
 * screen has its own boundary) makes that first pass short, so the header search is the app's soon after load.
 * Nothing inside suspends: on a page drawn in the browser the boundary changes nothing.
 */
export function HydrateLater({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}
