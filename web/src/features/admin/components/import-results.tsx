import { AdminTable } from './admin-table.tsx';

/** An import's results, as the catalogue's and the parts diagrams' imports show them: the counts, and the bad rows. */

const n = (v: number) => v.toLocaleString('en');

/** How many rows or assemblies the import made, changed or left. */
export function ImportSummary({ counts }: { counts: readonly (readonly [label: string, value: number])[] }) {
  return (
    <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-5" aria-label="Import summary">
      {counts.map(([label, value]) => (
        <div key={label} className="rounded-md bg-zinc-50 p-3">
          <dt className="text-steel">{label}</dt>
          <dd className="text-xl font-bold text-ink">{n(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** How many bad rows are listed at most (the rest: the import's own download, or its count). */
export const IMPORT_ERRORS_LISTED = 200;

/** The rows an import could not take, by row and column, the first IMPORT_ERRORS_LISTED. */
export function ImportErrorsTable({ caption, errors, maxHeight }: { caption: string; errors: readonly { row: number; column: string; message: string }[]; maxHeight: string }) {
  return (
    <AdminTable caption={caption} columns={[{ label: 'Row' }, { label: 'Column' }, { label: 'Problem' }]} maxHeight={maxHeight}>
      <tbody>
        {[...errors]
          .sort((a, b) => a.row - b.row)
          .slice(0, IMPORT_ERRORS_LISTED)
          .map((e, i) => (
            <tr key={`${e.row}-${e.column}-${i}`} className="border-t border-zinc-200">
              <td className="px-3 py-1.5 font-mono">{e.row}</td>
              <td className="px-3 py-1.5 font-mono">{e.column}</td>
              <td className="px-3 py-1.5">{e.message}</td>
            </tr>
          ))}
      </tbody>
    </AdminTable>
  );
}
