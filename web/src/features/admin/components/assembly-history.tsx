import type { AssemblyHistoryEntry } from '@forgeline/contracts/parts-diagrams';
import { History } from 'lucide-react';
import { useId } from 'react';
import { serverMessage } from '../../../lib/api-error.ts';
import { formatDateTime } from '../../../lib/format-date-time.ts';
import { useAssemblyHistory } from '../api/assemblies.ts';

const ACTION: Record<AssemblyHistoryEntry['action'], string> = {
  create: 'Created',
  edit: 'Edited',
  import: 'Imported',
  diagram: 'New drawing',
  delete: 'Deleted',
};

/** Who changed the assembly, when and what (#38): newest first, read again with each version. */
export function AssemblyHistory({ id, version }: { id: string; version: number }) {
  const hid = useId();
  const history = useAssemblyHistory(id, version);
  return (
    <section aria-labelledby={hid} className="space-y-2 rounded-lg border border-zinc-300 bg-white p-4">
      <h3 id={hid} className="flex items-center gap-2 font-semibold text-ink">
        <History className="size-4" aria-hidden="true" /> History
      </h3>
      {history.isPending ? (
        <p role="status" className="text-sm text-steel">
          Reading the history…
        </p>
      ) : history.isError ? (
        <p role="alert" className="text-sm text-red-700">
          The history could not be read: {serverMessage(history.error) ?? 'please try again'}
        </p>
      ) : history.data.entries.length === 0 ? (
        <p className="text-sm text-steel">No changes recorded yet.</p>
      ) : (
        <ol className="space-y-2 overflow-auto text-sm" style={{ maxHeight: '18rem' }} aria-label="Changes, newest first">
          {history.data.entries.map((e) => (
            <li key={`${e.version}-${e.at}`} className="border-l-2 border-zinc-300 pl-3">
              <p>
                <span className="font-semibold text-ink">
                  v{e.version} · {ACTION[e.action]}
                </span>{' '}
                <span className="text-steel">
                  {formatDateTime(e.at)} by {e.actor}
                </span>
              </p>
              {e.summary ? <p className="break-words text-steel">{e.summary}</p> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
