import { DraftingCompass, ImageOff, RefreshCw } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { serverMessage } from '../../../lib/api-error.ts';
import { formatDateTime } from '../../../lib/format-date-time.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { useFitmentMakes } from '../../fitment/api/get-fitment-makes.ts';
import { useFitmentModels } from '../../fitment/api/get-fitment-models.ts';
import { useAssemblies } from '../api/assemblies.ts';
import { AdminTable } from './admin-table.tsx';

/** The first this many are listed (the catalog's page); narrowing finds the rest. */
const LIST_LIMIT = 200;

/**
 * The assemblies (#38), narrowed by make, model (from the fitment data) and words of the name; each opens in the
 * editor.
 */
export function AssemblyList({ onOpen }: { onOpen: (id: string) => void }) {
  const id = useId();
  const [make, setMake] = useState('');
  const [model, setModel] = useState('');
  const [search, setSearch] = useState('');
  const words = useDebouncedValue(search.trim(), 300);
  const makes = useFitmentMakes();
  const models = useFitmentModels(make);
  const list = useAssemblies({ make: make || undefined, model: model || undefined, search: words || undefined });
  const rows = list.data?.assemblies ?? [];

  return (
    <section aria-labelledby={`${id}-h`} className="space-y-3">
      <h3 id={`${id}-h`} className="sr-only">
        Assemblies
      </h3>
      <form role="search" aria-label="Find assemblies" className="grid gap-3 sm:grid-cols-3 sm:items-end" onSubmit={(e) => e.preventDefault()}>
        <label className="block text-sm font-semibold text-ink">
          Make
          <select
            value={make}
            onChange={(e) => {
              setMake(e.target.value);
              setModel('');
            }}
            className={`${formControlClass} w-full`}
          >
            <option value="">All makes</option>
            {makes.data?.makes.map((m) => (
              <option key={m.slug} value={m.make}>
                {m.make}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm font-semibold text-ink">
          Model
          <select value={model} disabled={!make} onChange={(e) => setModel(e.target.value)} className={`${formControlClass} w-full`}>
            <option value="">{make ? 'All models' : 'Choose a make first'}</option>
            {models.data?.models.map((m) => (
              <option key={m.slug} value={m.model}>
                {m.model}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm font-semibold text-ink">
          Name contains
          <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="e.g. track roller" className={`${formControlClass} w-full`} />
        </label>
      </form>

      {list.isPending ? (
        <Spinner label="Reading the assemblies…" />
      ) : list.isError ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800">
          The assemblies could not be read: {serverMessage(list.error) ?? 'please try again'}.
        </p>
      ) : rows.length === 0 ? (
        <div className="space-y-2 rounded-lg border border-dashed border-zinc-300 bg-white p-8 text-center text-sm text-steel">
          <DraftingCompass className="mx-auto size-8 text-zinc-400" aria-hidden="true" />
          {make || model || words ? 'No assembly matches: change the filters, or make a new one.' : 'No assemblies yet: make the first with "New assembly", or import a CSV.'}
        </div>
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm text-steel" aria-live="polite">
              {rows.length === LIST_LIMIT ? `The first ${LIST_LIMIT} assemblies; narrow the list to find others.` : `${rows.length} ${rows.length === 1 ? 'assembly' : 'assemblies'}`}
            </p>
            <Button variant="outline" size="sm" onClick={() => void list.refetch()}>
              <RefreshCw className="size-4" aria-hidden="true" /> Refresh
            </Button>
          </div>
          <AdminTable
            caption="Assemblies"
            minWidth="44rem"
            maxHeight="32rem"
            columns={[{ label: 'Assembly' }, { label: 'Machine' }, { label: 'Lines', className: 'w-16' }, { label: 'Drawing', className: 'w-24' }, { label: 'Changed' }]}
          >
            <tbody>
              {rows.map((a) => (
                <tr key={a.id} className="border-t border-zinc-100">
                  <td className="px-3 py-2">
                    <button
                      type="button"
                      onClick={() => onOpen(a.id)}
                      className="text-left font-semibold text-ink underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-amber-500"
                    >
                      {a.name}
                    </button>
                  </td>
                  <td className="px-3 py-2 text-steel">
                    {a.make} {a.model}
                  </td>
                  <td className="px-3 py-2">{a.lineCount}</td>
                  <td className="px-3 py-2">
                    {a.diagram ? (
                      'Yes'
                    ) : (
                      <span className="inline-flex items-center gap-1 text-steel">
                        <ImageOff className="size-3.5" aria-hidden="true" /> None
                      </span>
                    )}
                  </td>
                  <td className="px-3 py-2 text-steel">
                    v{a.version} · {formatDateTime(a.updatedAt)} · {a.updatedBy}
                  </td>
                </tr>
              ))}
            </tbody>
          </AdminTable>
        </>
      )}
    </section>
  );
}
