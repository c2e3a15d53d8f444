import { Search, X } from 'lucide-react';
import { cn } from '../../lib/cn.ts';

/**
 * The white search box of the dark listing heroes (brands, browse by brand, gallery): a magnifier, a visually
 * hidden label and, when `onClear` is given, a clear button while there is text.
 */
export function SearchField({
  id,
  label,
  placeholder,
  value,
  onChange,
  onClear,
  type = 'search',
  name,
  className,
}: {
  id: string;
  /** The query parameter it sets when its form is submitted without the app (the gallery's `search`). */
  name?: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  onClear?: () => void;
  type?: 'search' | 'text';
  className?: string;
}) {
  return (
    <div className={cn('relative max-w-xl', className)}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Search className="pointer-events-none absolute left-3 top-1/2 size-5 -translate-y-1/2 text-zinc-500" aria-hidden="true" />
      <input
        id={id}
        name={name}
        type={type}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={cn('h-12 w-full rounded-md bg-white pl-11 text-ink placeholder:text-zinc-500', onClear ? 'pr-11' : 'pr-4')}
      />
      {onClear && value ? (
        <button
          type="button"
          onClick={onClear}
          aria-label="Clear search"
          className="absolute right-2 top-1/2 grid size-8 -translate-y-1/2 place-items-center rounded text-zinc-600 hover:bg-zinc-100"
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      ) : null}
    </div>
  );
}
