import type { ExternalToast } from 'sonner';

/**
 * sonner's `toast`, loaded when first used: a toast only ever follows a buyer's action, so the library stays out of
 * the entry script (about 9 kB gzipped). The toaster (app/providers.tsx) imports the same module right after
 * hydration, so by a buyer's first tap it is in memory and the toast shows at once; both share sonner's one store.
 */
const sonner = () => import('sonner');

export const toast = {
  success: (message: string, data?: ExternalToast) => void sonner().then((m) => m.toast.success(message, data)),
  error: (message: string, data?: ExternalToast) => void sonner().then((m) => m.toast.error(message, data)),
};
