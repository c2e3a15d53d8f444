import type { ExternalToast } from 'sonner';

/**
 * sonner's `toast` for code in the entry script (the listing cards' Add to quote list): loaded when first used, since
 * a toast only ever follows a buyer's action, so the library (about 9 kB gzipped) stays out of every first visit.
 * The toaster (app/providers.tsx) imports the same module right after hydration, so by a buyer's first tap it is in
 * memory and the toast shows at once; both share sonner's one store. Code in a lazy chunk (admin, dialogs, pages
 * beyond the entry) imports `toast` from sonner itself: it is not in the entry either way. The size budget
 * (npm run budget) fails if sonner comes back into the entry.
 */
const sonner = () => import('sonner');

/** When sonner cannot load (offline, a deploy replaced the chunk), the message still reaches the console. */
function show(kind: 'success' | 'error', message: string, data?: ExternalToast): void {
  sonner().then(
    (m) => m.toast[kind](message, data),
    (err: unknown) => console.error(`toast (${kind}) not shown: ${message}`, err),
  );
}

export const toast = {
  success: (message: string, data?: ExternalToast) => show('success', message, data),
  error: (message: string, data?: ExternalToast) => show('error', message, data),
};
