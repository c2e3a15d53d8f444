import type { BuyerAccountSession } from '@forgeline/contracts/account';
import { Building2, ClipboardList, FileText, LogOut, ShieldCheck, Tractor, type LucideIcon } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { cn } from '../../../lib/cn.ts';
import { useSignOut } from '../api/sign-out.ts';
import { ROLE_LABELS } from '../account-constants.ts';
import { failed } from '../field-errors.ts';
import { useSessionEnd } from '../hooks/use-session-end.ts';
import { FormError } from './section-states.tsx';

export interface AccountTabProps {
  session: BuyerAccountSession;
}

function accountTab(value: string, label: string, icon: LucideIcon, load: () => Promise<{ default: ComponentType<AccountTabProps> }>) {
  return { value, label, icon, load, Panel: lazy(load) };
}

/** Each section is its own chunk, loaded when opened (the others are fetched once the page is idle). */
const tabs = [
  accountTab('machines', 'Machines', Tractor, () => import('./machines-tab.tsx')),
  accountTab('lists', 'Parts lists', ClipboardList, () => import('./lists-tab.tsx')),
  accountTab('history', 'Quotes & orders', FileText, () => import('./history-tab.tsx')),
  accountTab('company', 'Company', Building2, () => import('./company-tab.tsx')),
  accountTab('data', 'Your data', ShieldCheck, () => import('./data-tab.tsx')),
];

/**
 * The signed-in buyer's account: who and which company, Sign out, and the five sections as tabs. The open tab is in
 * the address (`?tab=lists`), so a section can be linked to; arrow keys move between the tabs.
 */
export function SignedInAccount({ session }: { session: BuyerAccountSession }) {
  useSessionEnd();
  const signOut = useSignOut();
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const tab = tabs.find((t) => t.value === params.get('tab'))?.value ?? tabs[0]!.value;

  // Signed in from the mail's link (/account/sign-in): the account's own address from now on.
  useEffect(() => {
    if (location.pathname === '/account/sign-in') void navigate({ pathname: '/account', search: location.search }, { replace: true });
  }, [location.pathname, location.search, navigate]);

  useEffect(() => {
    const loadAll = () => {
      for (const { load } of tabs) void load().catch(() => undefined);
    };
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(loadAll);
      return () => window.cancelIdleCallback(id);
    }
    const id = setTimeout(loadAll, 500);
    return () => clearTimeout(id);
  }, []);

  return (
    <div className="container-page py-6 sm:py-10">
      <header className="flex flex-wrap items-start justify-between gap-4 rounded-lg bg-ink p-5 text-white sm:p-6">
        <div className="min-w-0">
          <h1 className="min-w-0">
            <span className="block text-xs font-bold uppercase tracking-widest text-safety">Your account</span>
            <span className="mt-1 block break-words font-display text-3xl font-extrabold uppercase sm:text-4xl">{session.company.name}</span>
          </h1>
          <p className="mt-2 text-sm text-zinc-300">
            Signed in as <strong className="break-all font-semibold text-white">{session.email}</strong>.{' '}
            <span className="ml-1 inline-block rounded bg-white/10 px-2 py-0.5 text-xs font-bold uppercase tracking-wide text-safety">{ROLE_LABELS[session.company.role]}</span>
          </p>
        </div>
        <Button variant="outline-light" size="sm" disabled={signOut.isPending} onClick={() => signOut.mutate()}>
          <LogOut className="size-4" aria-hidden="true" /> {signOut.isPending ? 'Signing out...' : 'Sign out'}
        </Button>
      </header>
      {signOut.isError ? (
        <div className="mt-3">
          <FormError>{failed(signOut.error, 'Signing out failed.')}</FormError>
        </div>
      ) : null}

      <Tabs.Root value={tab} onValueChange={(value) => setParams({ tab: value }, { replace: true })} className="mt-6">
        <Tabs.List aria-label="Account sections" className="flex flex-wrap gap-2">
          {tabs.map(({ value, label, icon: Icon }) => (
            <Tabs.Trigger
              key={value}
              value={value}
              className={cn(
                'inline-flex h-10 items-center gap-2 rounded-full border px-3.5 text-sm font-semibold transition-colors sm:px-4',
                'border-zinc-300 bg-white text-ink hover:border-ink data-[state=active]:border-ink data-[state=active]:bg-ink data-[state=active]:text-safety',
              )}
            >
              <Icon className="size-4" aria-hidden="true" />
              {label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {tabs.map(({ value, Panel }) => (
          <Tabs.Content key={value} value={value} className="mt-6">
            <Suspense fallback={<Spinner label="Loading..." />}>
              <Panel session={session} />
            </Suspense>
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </div>
  );
}
