import { Search, X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { cn } from '../../../lib/cn.ts';
import { toMachine } from '../../../lib/machine.ts';
import { setMachine } from '../../../lib/use-machine.ts';

/** The catalogue's limit on a serial (lib/machine.ts keeps the same). */
const MAX_SERIAL = 40;

/**
 * "Your serial number": the lines of other production runs are then dimmed. With JavaScript it sets the visit's
 * machine (lib/use-machine.ts, as "Find parts for your machine" does: the listings narrow to it too); without, it is a
 * GET form and the server renders the page for `?serial=`.
 */
export function SerialCheck({ make, model, serial }: { make: string; model: string; serial: string | null }) {
  const id = useId();
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  const [draft, setDraft] = useState(serial ?? '');
  // The field shows the serial in force: the stored one once the app has read it, and again after a change.
  const [draftFor, setDraftFor] = useState(serial);
  if (draftFor !== serial) {
    setDraftFor(serial);
    setDraft(serial ?? '');
  }

  const apply = (next: string) => {
    setMachine(toMachine({ make, model, serial: next }));
    if (params.has('serial')) {
      setParams(
        (prev) => {
          const p = new URLSearchParams(prev);
          p.delete('serial');
          return p;
        },
        { replace: true },
      );
    }
  };
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    apply(draft);
  };

  return (
    <form method="get" onSubmit={onSubmit} className="rounded-lg border border-zinc-200 bg-white p-4">
      <label htmlFor={`${id}-serial`} className="block text-sm font-semibold text-ink">
        Your machine&rsquo;s serial number <span className="font-normal text-steel">(optional)</span>
      </label>
      <div className="flex flex-wrap items-end gap-2">
        <input
          id={`${id}-serial`}
          name="serial"
          type="text"
          value={draft}
          maxLength={MAX_SERIAL}
          autoComplete="off"
          spellCheck={false}
          placeholder="e.g. RJS01000"
          aria-describedby={`${id}-hint`}
          onChange={(e) => setDraft(e.target.value)}
          className={cn(formControlClass, 'h-10 min-w-0 flex-1 font-mono')}
        />
        <Button type="submit" variant="dark" size="sm" className="h-10">
          <Search className="size-4" aria-hidden="true" /> Check fit
        </Button>
        {serial ? (
          // A link, so it clears an address's ?serial= without JavaScript too.
          <Link to={pathname} replace onClick={() => setMachine(toMachine({ make, model }))} className={buttonClass('ghost', 'sm', 'h-10')}>
            <X className="size-4" aria-hidden="true" /> Clear serial
          </Link>
        ) : null}
      </div>
      <p id={`${id}-hint`} className="mt-2 text-xs text-steel">
        {serial ? (
          <>
            Showing the parts for S/N <span className="font-mono font-semibold text-ink">{serial}</span>: lines for other serial numbers are dimmed.
          </>
        ) : (
          'Parts that changed at a serial number are then dimmed for the units they are not for.'
        )}
      </p>
    </form>
  );
}
