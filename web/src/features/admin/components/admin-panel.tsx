import { Archive, Database, DraftingCompass, ImageUp, Inbox, KeyRound, LogOut, Package, PackageCheck, ScrollText, Search, Webhook, type LucideIcon } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useAdminSession } from '../hooks/use-admin-session.tsx';
import { confirmLeave } from '../hooks/use-leave-guard.ts';

/**
 * Each tab is its own chunk (only the open tab is mounted): the sign-in screen does not download the seven tools, and
 * no tool's code is over the budget's 60 kB for a route (web/bundle-budget.json). Once the panel shows, the other
 * tabs' code is fetched in the background, so switching tabs does not wait on the network.
 */
function adminTab(value: string, label: string, icon: LucideIcon, load: () => Promise<{ default: ComponentType }>) {
  return { value, label, icon, load, Panel: lazy(load) };
}

const tabs = [
  adminTab('product', 'Product Upload', Package, () => import('./product-upload-tab.tsx')),
  adminTab('sku', 'SKU Image Uploader', ImageUp, () => import('./sku-upload-tab.tsx')),
  adminTab('bulk', 'Bulk Upload', Archive, () => import('./bulk-upload-tab.tsx')),
  adminTab('inbox', 'Inbox', Inbox, () => import('./inbox-tab.tsx')),
  adminTab('orders', 'Orders', PackageCheck, () => import('./orders-tab.tsx')),
  adminTab('catalog', 'Catalogue', Database, () => import('./catalog-tab.tsx')),
  adminTab('diagrams', 'Diagrams', DraftingCompass, () => import('./diagrams-tab.tsx')),
  adminTab('search', 'Search insights', Search, () => import('./search-tab.tsx')),
  adminTab('api-keys', 'API keys', KeyRound, () => import('./api-keys-tab.tsx')),
  adminTab('webhooks', 'Webhooks', Webhook, () => import('./webhooks-tab.tsx')),
  adminTab('audit', 'Audit log', ScrollText, () => import('./audit-log-tab.tsx')),
];

/** The signed-in panel: who is signed in, Logout, the three tabs of spec section 2, the quote inbox, the catalogue, API keys and the audit log. */
export function AdminPanel() {
  const { session, logout } = useAdminSession();
  const [tab, setTab] = useState<string>('product');
  useEffect(() => {
    const loadAll = () => {
      for (const { load } of tabs) void load().catch(() => undefined);
    };
    if ('requestIdleCallback' in window) window.requestIdleCallback(loadAll);
    else setTimeout(loadAll, 200);
  }, []);
  return (
    <>
      <header className="bg-ink text-white">
        <div className="container-page flex h-16 items-center justify-between gap-4">
          <div className="flex items-center gap-3">
            <h1 className="font-display text-2xl font-bold uppercase tracking-wide">Admin Panel</h1>
          </div>
          <div className="flex items-center gap-3">
            <span className="hidden text-sm text-zinc-300 sm:inline" data-testid="admin-email">
              {session?.email}
            </span>
            <Button variant="outline-light" size="sm" onClick={() => confirmLeave() && void logout()}>
              <LogOut className="size-4" aria-hidden="true" />
              Logout
            </Button>
          </div>
        </div>
      </header>
      <main className="container-page py-8">
        {/* A tab with unsaved work (the diagram editor) asks before another one replaces it. */}
        <Tabs.Root value={tab} onValueChange={(next) => confirmLeave() && setTab(next)}>
          <Tabs.List aria-label="Admin tools" className="mb-6 flex flex-wrap gap-2 border-b border-zinc-300">
            {tabs.map(({ value, label, icon: Icon }) => (
              <Tabs.Trigger
                key={value}
                value={value}
                className="-mb-px inline-flex items-center gap-2 border-b-3 border-transparent px-4 py-3 text-sm font-semibold text-steel hover:text-ink data-[state=active]:border-safety data-[state=active]:text-ink"
              >
                <Icon className="size-4" aria-hidden="true" />
                {label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {tabs.map(({ value, Panel }) => (
            <Tabs.Content key={value} value={value} className="focus-visible:outline-none">
              <Suspense fallback={<Spinner />}>
                <Panel />
              </Suspense>
            </Tabs.Content>
          ))}
        </Tabs.Root>
      </main>
    </>
  );
}
