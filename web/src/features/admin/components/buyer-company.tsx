import { Building2 } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { useBuyerAccount } from '../api/buyer-accounts.ts';

/**
 * Beside a request or an order (issue 35): the buyer's company when they have an account, its people and machines,
 * and a way to the company's other requests. Quiet when the address has no account, or while it loads.
 */
export function BuyerCompany({ email, onShowRequests }: { email: string; onShowRequests?: (search: string) => void }) {
  const q = useBuyerAccount(email);
  const ids = useId();
  const account = q.data?.account;
  if (q.isPending) return null;
  if (q.isError) return <p className="text-sm text-steel">The buyer&apos;s account could not be read.</p>;
  if (!account) return <p className="text-sm text-steel">No buyer account for this address.</p>;
  const { company, members, units } = account;
  return (
    <section aria-labelledby={`${ids}-h`} className="rounded-md border border-zinc-200 bg-zinc-50 p-3 text-sm">
      <h3 id={`${ids}-h`} className="flex items-center gap-2 font-bold text-ink">
        <Building2 className="size-4 shrink-0" aria-hidden="true" />
        <span className="min-w-0 break-words">{company.name}</span>
        <span className="font-normal text-steel">
          · {account.role === 'admin' ? 'company admin' : 'buyer'}
          {company.domain ? ` · @${company.domain}` : ' · one-person account'}
        </span>
      </h3>
      <p className="mt-1 break-words text-steel">
        {members.length} {members.length === 1 ? 'person' : 'people'}: {members.map((m) => m.email).join(', ')}
      </p>
      {units.length ? (
        <details className="mt-1">
          <summary className="cursor-pointer font-semibold text-ink">
            {units.length} {units.length === 1 ? 'machine' : 'machines'} in their fleet
          </summary>
          <ul className="mt-1 space-y-0.5">
            {units.map((u) => (
              <li key={u.id} className="break-words">
                <span className="font-semibold">{u.unitName}</span> — {u.make} {u.model}
                {u.serial ? ` · S/N ${u.serial}` : ''}
                {u.hours !== null ? ` · ${u.hours} h` : ''}
              </li>
            ))}
          </ul>
        </details>
      ) : (
        <p className="mt-1 text-steel">No machines listed yet.</p>
      )}
      {onShowRequests ? (
        <Button variant="ghost" size="sm" className="mt-1 px-0" onClick={() => onShowRequests(company.domain ?? email)}>
          Show the company&apos;s requests
        </Button>
      ) : null}
    </section>
  );
}
