import { Eraser } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { forgetSearches } from '../../../lib/search-analytics.ts';
import { useAfterFirstCommit } from '../../../lib/use-after-first-commit.ts';

/** The privacy page's "Forget my searches on this device": the random id goes from this browser and from the seller's report. */
export function ForgetSearches() {
  // The page comes from the server: the button works once the app runs (disabled in the HTML until then).
  const started = useAfterFirstCommit();
  const [state, setState] = useState<'idle' | 'busy' | 'done' | 'failed'>('idle');
  const forget = () => {
    setState('busy');
    forgetSearches().then(
      () => setState('done'),
      () => setState('failed'),
    );
  };
  return (
    <section aria-labelledby="forget-searches">
      <h2 id="forget-searches" className="font-display text-2xl font-extrabold uppercase text-ink">
        Your searches
      </h2>
      <p className="mt-3 leading-relaxed text-steel">
        To learn which parts buyers look for and cannot find, we count what is searched here with a random number kept in this browser: never your address, name or e-mail.
        You can forget it at any time; your searches on this device are then no longer tied together.
      </p>
      <Button className="mt-4" variant="outline" onClick={forget} disabled={!started || state === 'busy'}>
        <Eraser className="size-4" aria-hidden="true" /> Forget my searches on this device
      </Button>
      <p className="mt-2 text-sm text-steel" role="status">
        {state === 'done' ? 'Done: this device’s searches are forgotten.' : state === 'failed' ? 'That did not work; please try again.' : ''}
      </p>
    </section>
  );
}
