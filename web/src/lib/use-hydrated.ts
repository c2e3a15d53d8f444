import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False on the server and in the browser's hydrating render, true in every render after (and from the first render
 * of a page the browser renders alone). For what the server cannot render and the first render must leave out so
 * that it matches the server's HTML. Without an effect, so nothing renders twice when the app starts without SSR.
 */
export const useHydrated = (): boolean =>
  useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
