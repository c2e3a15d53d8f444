/** A bar for an upload or a job: 0-100, announced as a progressbar with its label. */
export function ProgressBar({ label, value }: { label: string; value: number }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(value)}
      className="h-2 w-full overflow-hidden rounded bg-zinc-200"
    >
      <div className="h-full bg-safety transition-[width]" style={{ width: `${value}%` }} />
    </div>
  );
}
