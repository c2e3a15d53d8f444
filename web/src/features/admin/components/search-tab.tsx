import type { AdminProductRow } from '@forgeline/contracts/products';
import { SEARCH_RULE_LIMITS, type QueryStats, type SearchInsights } from '@forgeline/contracts/search-insights';
import { Ban, BookmarkX, Download, Link2, PackageX, RefreshCw, Search, Trash2, TriangleAlert, Upload, X } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { StateMessage } from '../../../components/ui/state-message.tsx';
import { serverMessage } from '../../../lib/api-error.ts';
import { formatDateTime } from '../../../lib/format-date-time.ts';
import { downloadWithSession } from '../api/download.ts';
import {
  useAddAlias,
  useAddSynonym,
  useImportRules,
  useRemoveAlias,
  useRemoveSynonym,
  useSearchAliases,
  useSearchDemand,
  useSearchInsights,
  useSearchSynonyms,
  useSetQueryStatus,
} from '../api/search-insights.ts';
import { PartNumberSearch } from './part-number-search.tsx';

const errorText = (err: unknown) => serverMessage(err) ?? 'Something went wrong. Please try again.';
const PERIODS = [7, 30, 90] as const;
const num = (n: number) => n.toLocaleString('en-US');

/** Searches per day as bars (zero-result searches darker), with the numbers in a table for screen readers. */
function SearchesChart({ perDay, days }: { perDay: SearchInsights['perDay']; days: number }) {
  const byDay = new Map(perDay.map((d) => [d.day, d]));
  const today = new Date();
  const series = Array.from({ length: days }, (_, i) => {
    const day = new Date(today.getTime() - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10);
    return byDay.get(day) ?? { day, searches: 0, zeroResults: 0, visitors: 0 };
  });
  const max = Math.max(1, ...series.map((d) => d.searches));
  const w = 100 / series.length;
  return (
    <figure className="rounded-lg border border-zinc-200 bg-white p-4">
      <figcaption className="text-sm font-semibold text-ink">Searches per day (darker: found nothing)</figcaption>
      <svg viewBox="0 0 100 40" preserveAspectRatio="none" className="mt-3 h-32 w-full" aria-hidden="true">
        {series.map((d, i) => {
          const h = (d.searches / max) * 38;
          const z = (d.zeroResults / max) * 38;
          return (
            <g key={d.day}>
              <rect x={i * w + w * 0.1} y={40 - h} width={w * 0.8} height={h} className="fill-amber-400" />
              <rect x={i * w + w * 0.1} y={40 - z} width={w * 0.8} height={z} className="fill-ink" />
            </g>
          );
        })}
      </svg>
      <div className="flex justify-between text-xs text-steel">
        <span>{series[0]?.day}</span>
        <span>most in a day: {num(max)}</span>
        <span>{series.at(-1)?.day}</span>
      </div>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer text-steel">The numbers</summary>
        <table className="mt-2 text-left">
          <thead className="text-xs uppercase text-steel">
            <tr>
              <th scope="col" className="pr-4">Day</th>
              <th scope="col" className="pr-4">Searches</th>
              <th scope="col" className="pr-4">Found nothing</th>
              <th scope="col">Visitors</th>
            </tr>
          </thead>
          <tbody>
            {series.filter((d) => d.searches > 0).map((d) => (
              <tr key={d.day}>
                <td className="pr-4 font-mono">{d.day}</td>
                <td className="pr-4">{num(d.searches)}</td>
                <td className="pr-4">{num(d.zeroResults)}</td>
                <td>{num(d.visitors)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

type Action = { kind: 'alias' | 'synonym' | 'not_stocked'; query: QueryStats } | null;

/** What staff do with one query of the queue: an alias, a synonym set, not stocked (with a note), or dismiss. */
function QueueAction({ action, onDone }: { action: NonNullable<Action>; onDone: () => void }) {
  const ids = useId();
  const addAlias = useAddAlias();
  const addSynonym = useAddSynonym();
  const setStatus = useSetQueryStatus();
  const [parts, setParts] = useState<AdminProductRow[]>([]);
  const [words, setWords] = useState(action.query.example);
  const [mode, setMode] = useState<'both' | 'one-way'>('both');
  const [note, setNote] = useState('We source this on request.');
  const q = action.query;

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    try {
      if (action.kind === 'alias') {
        if (parts.length === 0) return void toast.error('Choose at least one part');
        await addAlias.mutateAsync({ text: q.example, productIds: parts.map((p) => p.id), query: q.query });
        toast.success(`"${q.example}" now finds ${parts.length === 1 ? parts[0]!.sku : `${parts.length} parts`}`);
      } else if (action.kind === 'synonym') {
        const list = words.split(',').map((w) => w.trim()).filter(Boolean);
        await addSynonym.mutateAsync({ words: list, mode, query: q.query });
        toast.success(`Synonyms saved: ${list.join(', ')}`);
      } else {
        await setStatus.mutateAsync({ query: q.query, status: 'not_stocked', note: note.trim() || undefined });
        toast.success(`"${q.example}" is marked not stocked`);
      }
      onDone();
    } catch (err) {
      toast.error('Not saved', { description: errorText(err) });
    }
  };
  const pending = addAlias.isPending || addSynonym.isPending || setStatus.isPending;
  // The alias's part search is a form of its own, so this one is not a form around it.
  const Frame = action.kind === 'alias' ? 'div' : 'form';
  return (
    <Frame
      {...(action.kind === 'alias' ? { role: 'group' } : { onSubmit: (e: FormEvent) => void submit(e) })}
      className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-4"
      aria-label={`Settle "${q.example}"`}
    >
      {action.kind === 'alias' ? (
        <>
          <p className="text-sm text-ink">
            Searching <strong>"{q.example}"</strong> will show these parts first:
          </p>
          {parts.length ? (
            <ul className="flex flex-wrap gap-2" aria-label="Chosen parts">
              {parts.map((p) => (
                <li key={p.id} className="inline-flex items-center gap-1 rounded-full border border-zinc-300 bg-white px-3 py-1 text-sm">
                  <span className="font-mono">{p.sku}</span> {p.name}
                  <button type="button" className="ml-1 rounded-full p-0.5 hover:bg-zinc-200" aria-label={`Remove ${p.sku}`} onClick={() => setParts((xs) => xs.filter((x) => x.id !== p.id))}>
                    <X className="size-3.5" aria-hidden="true" />
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-steel">No part chosen yet: find it by its number below and choose it.</p>
          )}
          <PartNumberSearch
            onSelect={(p) => setParts((xs) => (xs.some((x) => x.id === p.id) || xs.length >= SEARCH_RULE_LIMITS.aliasParts ? xs : [...xs, p]))}
            selectedId={parts.at(-1)?.id}
          />
        </>
      ) : action.kind === 'synonym' ? (
        <>
          <label className="block text-sm font-semibold text-ink" htmlFor={`${ids}-words`}>
            Words that find each other, separated by commas (e.g. "tip, tooth")
            <input id={`${ids}-words`} required value={words} onChange={(e) => setWords(e.target.value)} className={`${formControlClass} w-full`} />
          </label>
          <fieldset className="flex flex-wrap gap-4 text-sm">
            <legend className="sr-only">Direction</legend>
            <label className="flex items-center gap-2">
              <input type="radio" name={`${ids}-mode`} checked={mode === 'both'} onChange={() => setMode('both')} /> Every word finds the others
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name={`${ids}-mode`} checked={mode === 'one-way'} onChange={() => setMode('one-way')} /> Only the first finds the rest
            </label>
          </fieldset>
        </>
      ) : (
        <label className="block text-sm font-semibold text-ink" htmlFor={`${ids}-note`}>
          A note buyers see beside "{q.example}" (optional)
          <input id={`${ids}-note`} value={note} maxLength={SEARCH_RULE_LIMITS.note} onChange={(e) => setNote(e.target.value)} className={`${formControlClass} w-full`} />
        </label>
      )}
      <div className="flex gap-2">
        <Button type={action.kind === 'alias' ? 'button' : 'submit'} size="sm" disabled={pending} onClick={action.kind === 'alias' ? () => void submit() : undefined}>
          {action.kind === 'alias' ? 'Save alias' : action.kind === 'synonym' ? 'Save synonyms' : 'Mark not stocked'}
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </Frame>
  );
}

function QueryTable({ caption, rows, empty, queue }: { caption: string; rows: QueryStats[]; empty: string; queue?: boolean }) {
  const [action, setAction] = useState<Action>(null);
  const setStatus = useSetQueryStatus();
  if (rows.length === 0) return <p className="rounded-lg border border-zinc-200 bg-white p-4 text-sm text-steel">{empty}</p>;
  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
      <table className="w-full text-left text-sm">
        <caption className="p-3 text-left font-semibold text-ink">{caption}</caption>
        <thead className="text-xs uppercase text-steel">
          <tr>
            <th scope="col" className="px-3 py-2">Query (latest as typed)</th>
            <th scope="col" className="px-3 py-2 text-right">Searches</th>
            <th scope="col" className="px-3 py-2 text-right">Visitors</th>
            <th scope="col" className="px-3 py-2 text-right">{queue ? 'Found nothing' : 'Results'}</th>
            <th scope="col" className="px-3 py-2 text-right">Opened</th>
            <th scope="col" className="px-3 py-2">First / last seen</th>
            {queue ? <th scope="col" className="px-3 py-2">What to do</th> : <th scope="col" className="px-3 py-2">Status</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.query} className="border-t border-zinc-200 align-top">
              <td className="px-3 py-2">
                <span className="font-semibold text-ink">{r.example || r.query}</span>
                {action && action.query.query === r.query ? (
                  <div className="mt-2 min-w-72">
                    <QueueAction action={action} onDone={() => setAction(null)} />
                  </div>
                ) : null}
              </td>
              <td className="px-3 py-2 text-right">{num(r.searches)}</td>
              <td className="px-3 py-2 text-right">{num(r.visitors)}</td>
              <td className="px-3 py-2 text-right">{num(queue ? r.zeroResults : r.hits)}</td>
              <td className="px-3 py-2 text-right">
                {num(r.opens)}
                {r.quoteAdds ? ` (+${num(r.quoteAdds)} to quote)` : ''}
              </td>
              <td className="whitespace-nowrap px-3 py-2 text-steel">
                {formatDateTime(r.firstSeen)}
                <br />
                {formatDateTime(r.lastSeen)}
              </td>
              {queue ? (
                <td className="px-3 py-2">
                  <div className="flex flex-wrap gap-1">
                    <Button size="sm" variant="outline" onClick={() => setAction({ kind: 'alias', query: r })} aria-label={`Add an alias for "${r.example}"`}>
                      <Link2 className="size-4" aria-hidden="true" /> Alias
                    </Button>
                    <Button size="sm" variant="outline" onClick={() => setAction({ kind: 'synonym', query: r })} aria-label={`Add synonyms for "${r.example}"`}>
                      <BookmarkX className="size-4" aria-hidden="true" /> Synonym
                    </Button>
                    <Button size="sm" variant="outline" onClick={() => setAction({ kind: 'not_stocked', query: r })} aria-label={`Mark "${r.example}" not stocked`}>
                      <PackageX className="size-4" aria-hidden="true" /> Not stocked
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      className="border border-zinc-300"
                      aria-label={`Dismiss "${r.example}"`}
                      disabled={setStatus.isPending}
                      onClick={() =>
                        setStatus.mutate(
                          { query: r.query, status: 'dismissed' },
                          { onSuccess: () => toast.success(`"${r.example}" dismissed`), onError: (err) => toast.error('Not dismissed', { description: errorText(err) }) },
                        )
                      }
                    >
                      <Ban className="size-4" aria-hidden="true" /> Dismiss
                    </Button>
                  </div>
                </td>
              ) : (
                <td className="px-3 py-2 text-steel">{r.status === 'open' ? '' : r.status.replace('_', ' ')}</td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Export and import one kind of rule as CSV. */
function RulesCsv({ kind }: { kind: 'aliases' | 'synonyms' }) {
  const importRules = useImportRules();
  const input = useRef<HTMLInputElement>(null);
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > SEARCH_RULE_LIMITS.csvBytes) return void toast.error('The file is over 2 MB');
    try {
      const r = await importRules.mutateAsync({ kind, text: await file.text() });
      const lines = r.errors.slice(0, 5).map((e) => `line ${e.line}: ${e.message}`).join('; ');
      (r.errors.length ? toast.warning : toast.success)(`${r.added} added, ${r.unchanged} unchanged, ${r.errors.length} refused`, lines ? { description: lines } : undefined);
    } catch (err) {
      toast.error('Not imported', { description: errorText(err) });
    } finally {
      if (input.current) input.current.value = '';
    }
  };
  return (
    <div className="flex flex-wrap gap-2">
      <Button
        variant="outline"
        size="sm"
        onClick={() => void downloadWithSession(`/api/admin/search/${kind}.csv`, `search-${kind}.csv`).catch((err: unknown) => toast.error('Export failed', { description: errorText(err) }))}
      >
        <Download className="size-4" aria-hidden="true" /> Export CSV
      </Button>
      <Button variant="outline" size="sm" onClick={() => input.current?.click()} disabled={importRules.isPending}>
        <Upload className="size-4" aria-hidden="true" /> Import CSV
      </Button>
      <input ref={input} type="file" accept=".csv,text/csv" className="sr-only" aria-label={`Import ${kind} from a CSV file`} onChange={(e) => void onFile(e.target.files?.[0])} />
    </div>
  );
}

function RulesLists() {
  const aliases = useSearchAliases();
  const synonyms = useSearchSynonyms();
  const removeAlias = useRemoveAlias();
  const removeSynonym = useRemoveSynonym();
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <section aria-labelledby="search-aliases" className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id="search-aliases" className="font-display text-lg font-extrabold uppercase text-ink">
            Aliases
          </h3>
          <RulesCsv kind="aliases" />
        </div>
        {aliases.isPending ? (
          <Spinner label="Loading aliases..." />
        ) : aliases.isError ? (
          <p className="text-sm text-red-800">{errorText(aliases.error)}</p>
        ) : aliases.data.aliases.length === 0 ? (
          <p className="text-sm text-steel">None yet. Add one from the queue: a buyer's own code, a misspelt brand.</p>
        ) : (
          <ul className="divide-y divide-zinc-200 text-sm" aria-label="Aliases">
            {aliases.data.aliases.map((a) => (
              <li key={a.id} className="flex items-start justify-between gap-2 py-2">
                <span>
                  <strong className="text-ink">{a.text}</strong> → {a.parts?.map((p) => p.sku).join(', ') || <em>its parts are no longer on the storefront</em>}
                </span>
                <Button size="sm" variant="ghost" aria-label={`Remove the alias ${a.text}`} disabled={removeAlias.isPending} onClick={() => removeAlias.mutate(a.id, { onError: (err) => toast.error('Not removed', { description: errorText(err) }) })}>
                  <Trash2 className="size-4" aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="search-synonyms" className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id="search-synonyms" className="font-display text-lg font-extrabold uppercase text-ink">
            Synonyms
          </h3>
          <RulesCsv kind="synonyms" />
        </div>
        {synonyms.isPending ? (
          <Spinner label="Loading synonyms..." />
        ) : synonyms.isError ? (
          <p className="text-sm text-red-800">{errorText(synonyms.error)}</p>
        ) : synonyms.data.synonyms.length === 0 ? (
          <p className="text-sm text-steel">None yet: "tip, tooth", "hose, line", "o-ring, oring, seal ring".</p>
        ) : (
          <ul className="divide-y divide-zinc-200 text-sm" aria-label="Synonym sets">
            {synonyms.data.synonyms.map((s) => (
              <li key={s.id} className="flex items-start justify-between gap-2 py-2">
                <span>
                  {s.mode === 'one-way' ? (
                    <>
                      <strong className="text-ink">{s.words[0]}</strong> also finds {s.words.slice(1).join(', ')}
                    </>
                  ) : (
                    <strong className="text-ink">{s.words.join(' ↔ ')}</strong>
                  )}
                </span>
                <Button size="sm" variant="ghost" aria-label={`Remove the set ${s.words.join(', ')}`} disabled={removeSynonym.isPending} onClick={() => removeSynonym.mutate(s.id, { onError: (err) => toast.error('Not removed', { description: errorText(err) }) })}>
                  <Trash2 className="size-4" aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function DemandReport({ days }: { days: number }) {
  const demand = useSearchDemand(days);
  return (
    <section aria-labelledby="search-demand" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="search-demand" className="font-display text-lg font-extrabold uppercase text-ink">
          Demand: asked for, not found
        </h3>
        <Button
          variant="outline"
          size="sm"
          onClick={() => void downloadWithSession(`/api/admin/search/demand.csv?days=${days}`, 'search-demand.csv').catch((err: unknown) => toast.error('Export failed', { description: errorText(err) }))}
        >
          <Download className="size-4" aria-hidden="true" /> Export CSV
        </Button>
      </div>
      {demand.isPending ? (
        <Spinner label="Loading the demand report..." />
      ) : demand.isError ? (
        <p className="text-sm text-red-800">{errorText(demand.error)}</p>
      ) : demand.data.rows.length === 0 ? (
        <p className="rounded-lg border border-zinc-200 bg-white p-4 text-sm text-steel">Nothing asked for and not found in these {days} days.</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Not-stocked and zero-result queries by visitors</caption>
            <thead className="text-xs uppercase text-steel">
              <tr>
                <th scope="col" className="px-3 py-2">Query</th>
                <th scope="col" className="px-3 py-2">Status</th>
                <th scope="col" className="px-3 py-2 text-right">Visitors</th>
                <th scope="col" className="px-3 py-2 text-right">…who sent a quote request anyway</th>
                <th scope="col" className="px-3 py-2 text-right">Searches</th>
              </tr>
            </thead>
            <tbody>
              {demand.data.rows.map((r) => (
                <tr key={r.query} className="border-t border-zinc-200">
                  <td className="px-3 py-2 font-semibold text-ink">{r.example || r.query}</td>
                  <td className="px-3 py-2 text-steel">{r.status.replace('_', ' ')}</td>
                  <td className="px-3 py-2 text-right">{num(r.visitors)}</td>
                  <td className="px-3 py-2 text-right">{num(r.quoteRequesters)}</td>
                  <td className="px-3 py-2 text-right">{num(r.searches)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The Search tab: what buyers search, the zero-result queue staff work, the rules they keep, and the demand report. */
export default function SearchTab() {
  const [days, setDays] = useState<number>(30);
  const insights = useSearchInsights(days);
  const ids = useId();
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="font-display text-2xl font-bold uppercase">What buyers search</h2>
        <div className="flex flex-wrap items-center gap-3">
          <Button variant="outline" size="sm" onClick={() => void insights.refetch()} disabled={insights.isFetching}>
            <RefreshCw className="size-4" aria-hidden="true" /> Refresh
          </Button>
          <label className="flex items-center gap-2 text-sm font-semibold text-ink" htmlFor={`${ids}-days`}>
            Period
            <select id={`${ids}-days`} value={days} onChange={(e) => setDays(Number(e.target.value))} className={formControlClass}>
              {PERIODS.map((d) => (
                <option key={d} value={d}>
                  Last {d} days
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      {insights.isPending ? (
        <Spinner label="Loading what buyers searched..." />
      ) : insights.isError ? (
        <StateMessage icon={TriangleAlert} tone="error" title="The search report did not load" actions={<Button onClick={() => void insights.refetch()}>Retry</Button>}>
          {errorText(insights.error)}
        </StateMessage>
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            {[
              ['Searches', insights.data.totals.searches],
              ['Found nothing', insights.data.totals.zeroResults],
              ['Visitors', insights.data.totals.visitors],
              ['Different queries', insights.data.totals.queries],
            ].map(([label, value]) => (
              <div key={label} className="rounded-lg border border-zinc-200 bg-white p-3">
                <dt className="text-xs uppercase text-steel">{label}</dt>
                <dd className="font-display text-2xl font-extrabold text-ink">{num(Number(value))}</dd>
              </div>
            ))}
          </dl>
          {insights.data.totals.searches === 0 ? (
            <StateMessage icon={Search} title="No searches yet">
              Buyers' searches show here within seconds: what they typed, what it found, and what they opened.
            </StateMessage>
          ) : (
            <SearchesChart perDay={insights.data.perDay} days={days} />
          )}
          <section aria-labelledby={`${ids}-queue`} className="space-y-3">
            <h3 id={`${ids}-queue`} className="font-display text-lg font-extrabold uppercase text-ink">
              Found nothing: the queue
            </h3>
            <QueryTable caption="Zero-result queries, most asked first" rows={insights.data.zeroResults} empty="Every search found something, or every such query is settled." queue />
          </section>
          <QueryTable caption="Top queries" rows={insights.data.top} empty="No searches in this period." />
          <QueryTable caption="Results nobody opened" rows={insights.data.unopened} empty="Every query's results were opened or added to a quote." />
          <p className="text-xs text-steel">
            Kept {insights.data.retentionDays} days, counted per day and query with a random visitor id; no address, no e-mail.
            {insights.data.dropped ? ` ${num(insights.data.dropped)} events were dropped since the catalog started (the buffer was full).` : ''}
          </p>
        </>
      )}
      <RulesLists />
      <DemandReport days={Math.max(days, 30)} />
    </div>
  );
}
