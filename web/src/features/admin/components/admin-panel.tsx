import { Archive, Database, ImageUp, Inbox, KeyRound, LogOut, Package, ScrollText } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { useAdminSession } from '../hooks/use-admin-session.tsx';
import ProductUploadTab from './product-upload-tab.tsx';
import SkuUploadTab from './sku-upload-tab.tsx';
import BulkUploadTab from './bulk-upload-tab.tsx';
import InboxTab from './inbox-tab.tsx';
import CatalogTab from './catalog-tab.tsx';
import ApiKeysTab from './api-keys-tab.tsx';
import AuditLogTab from './audit-log-tab.tsx';

const tabs = [
  { value: 'product', label: 'Product Upload', icon: Package, Panel: ProductUploadTab },
  { value: 'sku', label: 'SKU Image Uploader', icon: ImageUp, Panel: SkuUploadTab },
  { value: 'bulk', label: 'Bulk Upload', icon: Archive, Panel: BulkUploadTab },
  { value: 'inbox', label: 'Inbox', icon: Inbox, Panel: InboxTab },
  { value: 'catalog', label: 'Catalogue', icon: Database, Panel: CatalogTab },
  { value: 'api-keys', label: 'API keys', icon: KeyRound, Panel: ApiKeysTab },
  { value: 'audit', label: 'Audit log', icon: ScrollText, Panel: AuditLogTab },
] as const;

/** The signed-in panel: who is signed in, Logout, the three tabs of spec section 2, the quote inbox, the catalogue, API keys and the audit log. */
export function AdminPanel() {
  const { session, logout } = useAdminSession();
  const [tab, setTab] = useState<string>('product');
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
            <Button variant="outline-light" size="sm" onClick={() => void logout()}>
              <LogOut className="size-4" aria-hidden="true" />
              Logout
            </Button>
          </div>
        </div>
      </header>
      <main className="container-page py-8">
        <Tabs.Root value={tab} onValueChange={setTab}>
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
              <Panel />
            </Tabs.Content>
          ))}
        </Tabs.Root>
      </main>
    </>
  );
}
