import { API_KEY_SCOPES, type ApiKey, type ApiKeyScope, type CreateApiKeyResponse } from '@forgeline/contracts/admin-access';
import { Check, Copy, KeyRound, TriangleAlert, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { StateMessage } from '../../../components/ui/state-message.tsx';
import { serverMessage } from '../../../lib/api-error.ts';
import { formatDateTime } from '../../../lib/format-date-time.ts';
import { AdminTable } from './admin-table.tsx';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../api/admin-access.ts';

export const SCOPE_HELP: Record<ApiKeyScope, string> = {
  'catalog:read': 'export the catalogue and read parts',
  'catalog:write': 'import files and edit parts',
  'quotes:read': 'read the quote inbox',
  'quotes:write': 'answer and change quote requests',
};

const errorText = (err: unknown) => serverMessage(err) ?? 'Something went wrong. Please try again.';

/** API keys for the seller's own systems: made here, shown once, revoked here. */
export default function ApiKeysTab() {
  const keys = useApiKeys();
  const [created, setCreated] = useState<CreateApiKeyResponse | null>(null);
  return (
    <div className="space-y-8">
      <CreateKeyForm onCreated={setCreated} />
      <section aria-labelledby="api-keys-heading" className="space-y-3">
        <h2 id="api-keys-heading" className="font-display text-xl font-bold uppercase text-ink">
          Keys
        </h2>
        {keys.isPending ? (
          <Spinner label="Loading the keys..." />
        ) : keys.isError ? (
          <StateMessage icon={TriangleAlert} tone="error" title="The keys did not load" actions={<Button onClick={() => void keys.refetch()}>Retry</Button>}>
            {errorText(keys.error)}
          </StateMessage>
        ) : keys.data.keys.length === 0 ? (
          <StateMessage icon={KeyRound} title="No API keys yet">
            Make one above for the system that should import, export or edit the catalogue, or work the inbox.
          </StateMessage>
        ) : (
          <KeyTable keys={keys.data.keys} />
        )}
      </section>
      <ShowKeyOnce created={created} onClose={() => setCreated(null)} />
    </div>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (k: CreateApiKeyResponse) => void }) {
  const ids = useId();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateApiKey();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setProblem('Give the key a name (the system that will use it).');
    if (scopes.length === 0) return setProblem('Choose at least one scope.');
    setProblem(null);
    create.mutate(
      { name: name.trim(), scopes },
      {
        onSuccess: (k) => {
          setName('');
          setScopes([]);
          onCreated(k);
        },
        onError: (err) => setProblem(errorText(err)),
      },
    );
  };
  return (
    <form onSubmit={submit} aria-labelledby={`${ids}-title`} className="space-y-4 rounded-lg border border-zinc-200 bg-white p-5" noValidate>
      <h2 id={`${ids}-title`} className="font-display text-xl font-bold uppercase text-ink">
        New API key
      </h2>
      <label className="block text-sm font-semibold text-ink" htmlFor={`${ids}-name`}>
        Name
        <input
          id={`${ids}-name`}
          value={name}
          maxLength={80}
          onChange={(e) => setName(e.target.value)}
          placeholder="e.g. ERP nightly import"
          className={`${formControlClass} mt-1 w-full max-w-md`}
        />
      </label>
      <fieldset>
        <legend className="text-sm font-semibold text-ink">Scopes</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {API_KEY_SCOPES.map((scope) => (
            <label key={scope} className="flex items-start gap-2 rounded border border-zinc-200 p-2 text-sm">
              <input
                type="checkbox"
                className="mt-1"
                checked={scopes.includes(scope)}
                onChange={(e) => setScopes((s) => (e.target.checked ? [...s, scope] : s.filter((x) => x !== scope)))}
              />
              <span>
                <span className="font-mono font-semibold">{scope}</span>
                <span className="block text-steel">{SCOPE_HELP[scope]}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {problem ? (
        <p role="alert" className="text-sm font-semibold text-red-700">
          {problem}
        </p>
      ) : null}
      <Button type="submit" disabled={create.isPending}>
        <KeyRound className="size-4" aria-hidden="true" /> {create.isPending ? 'Creating…' : 'Create key'}
      </Button>
    </form>
  );
}

function ShowKeyOnce({ created, onClose }: { created: CreateApiKeyResponse | null; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied(true);
    } catch {
      // No clipboard (an insecure context, a denied permission): select the text for Ctrl+C.
      const field = document.getElementById('new-api-key') as HTMLInputElement | null;
      field?.select();
      toast.info('Press Ctrl+C (or Cmd+C) to copy the selected key');
    }
  };
  return (
    <Dialog.Root open={created !== null} onOpenChange={(open) => !open && (setCopied(false), onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[min(40rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-6 shadow-xl focus:outline-none">
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="font-display text-xl font-extrabold uppercase text-ink">Your new API key</Dialog.Title>
            <Dialog.Close asChild>
              <button type="button" aria-label="Close" className="rounded p-1 text-steel hover:text-ink focus-visible:outline-2 focus-visible:outline-safety">
                <X className="size-5" aria-hidden="true" />
              </button>
            </Dialog.Close>
          </div>
          <Dialog.Description className="mt-2 text-sm font-semibold text-red-800">
            Copy it now: you will not see this key again. It is stored only as a fingerprint.
          </Dialog.Description>
          {created ? (
            <>
              <div className="mt-4 flex gap-2">
                <input
                  id="new-api-key"
                  readOnly
                  value={created.key}
                  aria-label="API key"
                  onFocus={(e) => e.currentTarget.select()}
                  className={`${formControlClass} w-full font-mono text-sm`}
                />
                <Button type="button" onClick={() => void copy()}>
                  {copied ? <Check className="size-4" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              </div>
              <p className="mt-4 text-sm text-steel">
                {created.name}: {created.scopes.join(', ')}. For example:
              </p>
              <pre className="mt-2 overflow-x-auto rounded bg-zinc-100 p-3 text-xs">
                {`curl -H "Authorization: Bearer ${created.key}" \\\n  ${origin}/api/admin/catalog/export.csv`}
              </pre>
            </>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function KeyTable({ keys }: { keys: ApiKey[] }) {
  return (
    <AdminTable
      caption="API keys"
      minWidth="48rem"
      columns={[{ label: 'Name' }, { label: 'Key' }, { label: 'Scopes' }, { label: 'Created' }, { label: 'Last used' }, { label: 'Status' }, { label: 'Actions', hidden: true }]}
    >
        <tbody className="divide-y divide-zinc-200">
          {keys.map((k) => (
            <tr key={k.id}>
              <td className="px-3 py-2 font-semibold">{k.name}</td>
              <td className="px-3 py-2 font-mono">{k.prefix}…</td>
              <td className="px-3 py-2">
                <ul className="flex flex-wrap gap-1">
                  {k.scopes.map((s) => (
                    <li key={s} className="rounded bg-zinc-100 px-2 py-0.5 font-mono text-xs">
                      {s}
                    </li>
                  ))}
                </ul>
              </td>
              <td className="px-3 py-2">
                <span title={k.createdAt}>{formatDateTime(k.createdAt)}</span>
                <span className="block text-xs text-steel">{k.createdBy}</span>
              </td>
              <td className="px-3 py-2">{k.lastUsedAt ? <span title={k.lastUsedAt}>{formatDateTime(k.lastUsedAt)}</span> : 'never'}</td>
              <td className="px-3 py-2">
                {k.revokedAt ? (
                  <span className="rounded bg-zinc-200 px-2 py-0.5 text-xs font-bold text-zinc-800" title={k.revokedAt}>
                    Revoked {formatDateTime(k.revokedAt)}
                  </span>
                ) : (
                  <span className="rounded bg-emerald-100 px-2 py-0.5 text-xs font-bold text-emerald-900">Active</span>
                )}
              </td>
              <td className="px-3 py-2 text-right">{k.revokedAt ? null : <RevokeButton apiKey={k} />}</td>
            </tr>
          ))}
        </tbody>
    </AdminTable>
  );
}

function RevokeButton({ apiKey }: { apiKey: ApiKey }) {
  const revoke = useRevokeApiKey();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" size="sm" aria-label={`Revoke ${apiKey.name}`}>
          Revoke
        </Button>
      }
      title={`Revoke “${apiKey.name}”?`}
      description="Calls with this key are refused from now on. This cannot be undone; the system using it will need a new key."
      confirmLabel="Revoke key"
      pendingLabel="Revoking…"
      pending={revoke.isPending}
      onConfirm={(close) =>
        revoke.mutate(apiKey.id, {
          onSuccess: () => {
            close();
            toast.success('Key revoked', { description: apiKey.name });
          },
          onError: (err) => toast.error('The key was not revoked', { description: errorText(err) }),
        })
      }
    />
  );
}
