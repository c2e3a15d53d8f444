import type { LucideIcon } from 'lucide-react';
import { RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { serverMessage } from '../../../lib/api-error.ts';

/** A section's failed load: what failed, the server's word on why (or the likely reason), and Retry. */
export function LoadError({ title, error, onRetry, retrying = false }: { title: string; error: unknown; onRetry: () => void; retrying?: boolean }) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm">
      <p className="font-semibold text-red-800">{title}</p>
      <p className="mt-1 break-words text-red-800">{serverMessage(error) ?? 'Check your connection and try again.'}</p>
      <Button size="sm" variant="outline" className="mt-3 bg-white" disabled={retrying} onClick={onRetry}>
        <RefreshCw className={`size-4 ${retrying ? 'animate-spin' : ''}`} aria-hidden="true" /> {retrying ? 'Retrying...' : 'Retry'}
      </Button>
    </div>
  );
}

/** A section with nothing in it yet: why it is worth filling, and the way to. */
export function EmptyState({ icon: Icon, title, children, actions }: { icon: LucideIcon; title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-zinc-300 bg-white px-4 py-8 text-center sm:px-8">
      <span className="mx-auto grid size-12 place-items-center rounded-full bg-ink text-safety">
        <Icon className="size-6" aria-hidden="true" />
      </span>
      <p className="mt-3 font-display text-xl font-bold uppercase text-ink">{title}</p>
      <div className="mx-auto mt-1 max-w-prose text-sm text-steel">{children}</div>
      {actions ? <div className="mt-4 flex flex-wrap justify-center gap-2">{actions}</div> : null}
    </div>
  );
}

/** A form's or an action's refusal, said where the buyer is looking. */
export function FormError({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p id={id} role="alert" className="break-words text-sm font-semibold text-red-700">
      {children}
    </p>
  );
}
