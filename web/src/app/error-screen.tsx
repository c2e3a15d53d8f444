import { TriangleAlert } from 'lucide-react';
import { useEffect } from 'react';

/** The fallback error screen (spec section 2): shown when a screen throws while rendering (router.tsx: AppRoutes). */
export function ErrorScreen({ error }: { error: unknown }) {
  useEffect(() => {
    console.error('Unhandled screen error', error);
  }, [error]);
  return (
    <main className="grid min-h-screen place-items-center bg-ink px-4 text-center text-white">
      <div className="max-w-md">
        <span className="mx-auto grid size-16 place-items-center rounded-full bg-safety text-ink">
          <TriangleAlert className="size-8" aria-hidden="true" />
        </span>
        <h1 className="mt-6 font-display text-3xl font-extrabold uppercase">Something went wrong. Please refresh the page.</h1>
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="mt-8 inline-flex h-12 items-center rounded-md bg-safety px-6 font-semibold text-ink hover:bg-safety-hover"
        >
          Refresh Page
        </button>
      </div>
    </main>
  );
}
