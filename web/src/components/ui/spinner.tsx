import { LoaderCircle } from 'lucide-react';

export function Spinner({ label = 'Loading...' }: { label?: string }) {
  return (
    <div role="status" className="flex flex-col items-center justify-center gap-3 py-20 text-steel">
      <LoaderCircle className="size-8 animate-spin text-safety-deep" aria-hidden="true" />
      <span className="text-sm font-medium">{label}</span>
    </div>
  );
}
