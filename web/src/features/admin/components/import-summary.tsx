const n = (v: number) => v.toLocaleString('en');

/** An import's counts, as the catalogue's and the parts diagrams' imports show them. */
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
