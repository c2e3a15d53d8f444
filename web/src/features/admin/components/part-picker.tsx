import { Loader2 } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { cn } from '../../../lib/cn.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import type { AssemblyPartLabel } from '../api/assemblies.ts';
import { useFindParts } from '../api/find-parts.ts';

export const partText = (p: AssemblyPartLabel) => [p.partNumber || p.sku, p.name].filter(Boolean).join(' · ');

/**
 * A part chosen by typing its number or name (#38): an ARIA combobox whose options are the catalogue's matches
 * (useFindParts), each with its name, part number and brand. Arrow keys move through the options, Enter takes one,
 * Escape goes back to the part chosen. The options show under the field, in the page's flow, so a table that scrolls
 * sideways does not cut them off.
 */
export function PartPicker({
  part,
  label,
  invalid,
  describedBy,
  onChange,
}: {
  part: AssemblyPartLabel | null;
  /** The field's accessible name ("Part of line 3"). */
  label: string;
  invalid?: boolean;
  describedBy?: string;
  onChange: (part: AssemblyPartLabel) => void;
}) {
  const id = useId();
  /** What is typed; null while not searching (the field shows the part chosen). */
  const [text, setText] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const query = useDebouncedValue(text ?? '', 250);
  const found = useFindParts(text === null ? '' : query);
  const open = text !== null && text.trim().length >= 2;
  const options = open ? (found.data ?? []) : [];
  const listId = `${id}-list`;
  const optionId = (i: number) => `${id}-opt-${i}`;

  const choose = (i: number) => {
    const p = options[i];
    if (!p) return;
    onChange({ id: p.id, name: p.name, sku: p.sku, partNumber: p.partNumber, brandName: p.brandName });
    setText(null);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' && options.length) {
      e.preventDefault();
      setActive((a) => Math.min(options.length - 1, a + 1));
    } else if (e.key === 'ArrowUp' && options.length) {
      e.preventDefault();
      setActive((a) => Math.max(0, a - 1));
    } else if (e.key === 'Enter' && open) {
      e.preventDefault();
      choose(active);
    } else if (e.key === 'Escape' && text !== null) {
      e.preventDefault();
      setText(null);
    }
  };

  const status = !open ? '' : found.isFetching && !found.data ? 'Searching…' : found.isError ? 'The search failed; type again to retry' : options.length === 0 ? 'No part matches' : '';

  return (
    <div className="min-w-72">
      <div className="relative">
        <input
          role="combobox"
          aria-label={label}
          aria-expanded={open && options.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && options[active] ? optionId(active) : undefined}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          autoComplete="off"
          spellCheck={false}
          placeholder="Part number or name"
          value={text ?? (part ? partText(part) : '')}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onFocus={(e) => e.currentTarget.select()}
          onBlur={() => setText(null)}
          onKeyDown={onKeyDown}
          className={cn(formControlClass, 'mt-0 w-full pr-10')}
        />
        {open && found.isFetching ? <Loader2 className="absolute right-2 top-1/2 size-4 -translate-y-1/2 animate-spin text-steel" aria-hidden="true" /> : null}
      </div>
      {part && text === null ? (
        <p className="mt-0.5 truncate text-xs text-steel">
          {part.brandName ? `${part.brandName} · ` : ''}SKU {part.sku}
        </p>
      ) : null}
      <ul
        id={listId}
        role="listbox"
        aria-label={`Parts matching "${text ?? ''}"`}
        hidden={!open || options.length === 0}
        className="mt-1 overflow-auto rounded-md border border-zinc-300 bg-white shadow-md"
        style={{ maxHeight: '15rem' }}
      >
        {options.map((p, i) => (
          <li
            key={p.id}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            // Taken on mousedown, before the field loses focus and closes the list.
            onMouseDown={(e) => {
              e.preventDefault();
              choose(i);
            }}
            onMouseEnter={() => setActive(i)}
            className={cn('cursor-pointer px-3 py-1.5 text-sm', i === active && 'bg-amber-100')}
          >
            <span className="block font-medium text-ink">{p.name}</span>
            <span className="block text-xs text-steel">
              <span className="font-mono">{p.partNumber || p.sku}</span>
              {p.brandName ? ` · ${p.brandName}` : ''} · SKU {p.sku}
            </span>
          </li>
        ))}
      </ul>
      <p role="status" className={cn('text-xs text-steel', status && 'mt-1')}>
        {status}
      </p>
    </div>
  );
}
