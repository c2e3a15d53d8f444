import { WEBHOOK_EVENTS, WEBHOOK_LIMITS, type WebhookDelivery, type WebhookEvent } from '@forgeline/contracts/webhooks';
import { Plus, RefreshCw, Trash2, TriangleAlert, Webhook } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { StateMessage } from '../../../components/ui/state-message.tsx';
import { serverMessage } from '../../../lib/api-error.ts';
import { formatDateTime } from '../../../lib/format-date-time.ts';
import { useAddWebhook, useRemoveWebhook, useWebhooks } from '../api/webhooks.ts';

const errorText = (err: unknown) => serverMessage(err) ?? 'Something went wrong. Please try again.';

const EVENT_LABELS: Record<WebhookEvent, string> = {
  'quote.replied': 'A quote is sent (quote.replied)',
  'quote.accepted': 'A buyer accepts a quote (quote.accepted)',
  'quote.declined': 'A buyer declines a quote (quote.declined)',
  'order.status_changed': 'An order is shipped, delivered or cancelled (order.status_changed)',
};

function DeliveryState({ d }: { d: WebhookDelivery | null }) {
  if (!d) return <span className="text-steel">No delivery yet</span>;
  const tone = d.status === 'delivered' ? 'text-emerald-800' : d.status === 'failed' ? 'text-red-800' : 'text-amber-800';
  return (
    <span className={tone}>
      {d.status === 'delivered' ? 'Delivered' : d.status === 'failed' ? 'Given up' : 'Retrying'} · {d.event} · {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
      {d.responseStatus !== null ? ` · answered ${d.responseStatus}` : ''}
      {d.error && d.status !== 'delivered' ? ` · ${d.error}` : ''}
    </span>
  );
}

/** The Webhooks tab: where the seller's ERP is told of quotes sent, accepted and declined, and of orders moving on. */
export default function WebhooksTab() {
  const list = useWebhooks();
  const add = useAddWebhook();
  const remove = useRemoveWebhook();
  const ids = useId();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>([...WEBHOOK_EVENTS]);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const created = await add.mutateAsync({ url: url.trim(), events, description: description.trim() });
      setSecret({ url: created.url, secret: created.secret });
      setUrl('');
      setDescription('');
    } catch (err) {
      toast.error('Not added', { description: errorText(err) });
    }
  };

  return (
    <div className="space-y-6">
      <section aria-labelledby={`${ids}-add`} className="rounded-lg border border-zinc-200 bg-white p-5">
        <h2 id={`${ids}-add`} className="font-display text-xl font-extrabold uppercase text-ink">
          Add an endpoint
        </h2>
        <p className="mt-1 text-sm text-steel">
          Each event is POSTed as JSON to a public https:// address, signed in the Forgeline-Signature header (t=…,v1=HMAC-SHA256 of "t.body" with the endpoint's
          secret), and tried again with backoff until it answers 2xx.
        </p>
        <form onSubmit={(e) => void submit(e)} className="mt-4 space-y-3">
          <label className="block text-sm font-semibold text-ink" htmlFor={`${ids}-url`}>
            Address
            <input
              id={`${ids}-url`}
              type="url"
              required
              value={url}
              maxLength={WEBHOOK_LIMITS.url}
              placeholder="https://erp.example.com/hooks/forgeline"
              onChange={(e) => setUrl(e.target.value)}
              className={`${formControlClass} w-full`}
            />
          </label>
          <fieldset>
            <legend className="text-sm font-semibold text-ink">Events</legend>
            {WEBHOOK_EVENTS.map((ev) => (
              <label key={ev} className="mt-1 flex items-center gap-2 text-sm text-ink">
                <input type="checkbox" checked={events.includes(ev)} onChange={(e) => setEvents((xs) => (e.target.checked ? [...xs, ev] : xs.filter((x) => x !== ev)))} />
                {EVENT_LABELS[ev]}
              </label>
            ))}
          </fieldset>
          <label className="block text-sm font-semibold text-ink" htmlFor={`${ids}-description`}>
            Description (optional)
            <input id={`${ids}-description`} value={description} maxLength={WEBHOOK_LIMITS.description} onChange={(e) => setDescription(e.target.value)} className={`${formControlClass} w-full`} />
          </label>
          <Button type="submit" size="sm" disabled={add.isPending || events.length === 0}>
            <Plus className="size-4" aria-hidden="true" /> Add endpoint
          </Button>
        </form>
        {secret ? (
          <div role="status" className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
            <p className="font-semibold">The signing secret of {secret.url}, shown this once: keep it in the ERP.</p>
            <code className="mt-1 block break-all font-mono">{secret.secret}</code>
          </div>
        ) : null}
      </section>

      {list.isPending ? (
        <Spinner label="Loading the webhooks..." />
      ) : list.isError ? (
        <StateMessage icon={TriangleAlert} tone="error" title="The webhooks did not load" actions={<Button onClick={() => void list.refetch()}>Retry</Button>}>
          {errorText(list.error)}
        </StateMessage>
      ) : list.data.endpoints.length === 0 ? (
        <StateMessage icon={Webhook} title="No endpoints yet">
          Add the ERP's address above to be told of quotes and orders as they happen.
        </StateMessage>
      ) : (
        <section aria-label="Endpoints" className="space-y-3">
          <div className="flex justify-end">
            <Button variant="outline" size="sm" onClick={() => void list.refetch()}>
              <RefreshCw className="size-4" aria-hidden="true" /> Refresh
            </Button>
          </div>
          <ul aria-label="Webhook endpoints" className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white">
            {list.data.endpoints.map((e) => (
              <li key={e.id} className="flex flex-wrap items-start justify-between gap-3 p-4">
                <div className="min-w-0 text-sm">
                  <p className="break-all font-mono font-semibold text-ink">{e.url}</p>
                  <p className="text-steel">
                    {e.description ? `${e.description} · ` : ''}
                    {e.events.join(', ')} · added {formatDateTime(e.createdAt)}
                  </p>
                  <p className="mt-1">
                    <DeliveryState d={e.lastDelivery} />
                  </p>
                </div>
                <ConfirmDialog
                  trigger={
                    <Button variant="ghost" size="sm" className="border border-zinc-300">
                      <Trash2 className="size-4" aria-hidden="true" /> Remove
                    </Button>
                  }
                  title="Remove this endpoint?"
                  description={`${e.url} will be told of nothing more; its deliveries not yet made are given up.`}
                  confirmLabel="Remove"
                  pendingLabel="Removing..."
                  pending={remove.isPending}
                  onConfirm={(close) =>
                    remove.mutate(e.id, {
                      onSuccess: () => {
                        close();
                        toast.success('Endpoint removed');
                      },
                      onError: (err) => toast.error('Not removed', { description: errorText(err) }),
                    })
                  }
                />
              </li>
            ))}
          </ul>
          <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
            <table className="w-full text-left text-sm">
              <caption className="p-3 text-left font-semibold text-ink">Latest deliveries</caption>
              <thead className="text-xs uppercase text-steel">
                <tr>
                  <th scope="col" className="px-3 py-2">When</th>
                  <th scope="col" className="px-3 py-2">Event</th>
                  <th scope="col" className="px-3 py-2">State</th>
                  <th scope="col" className="px-3 py-2">Last answer</th>
                </tr>
              </thead>
              <tbody>
                {list.data.deliveries.map((d) => (
                  <tr key={d.id} className="border-t border-zinc-200">
                    <td className="px-3 py-2">{formatDateTime(d.createdAt)}</td>
                    <td className="px-3 py-2 font-mono">{d.event}</td>
                    <td className="px-3 py-2">
                      {d.status} ({d.attempts})
                    </td>
                    <td className="max-w-xs truncate px-3 py-2" title={d.error ?? d.response}>
                      {d.responseStatus ?? '-'} {d.error && d.status !== 'delivered' ? d.error : d.response}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </div>
  );
}
