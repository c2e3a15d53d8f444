import { DIAGRAM_LIMITS } from '@forgeline/contracts/parts-diagrams';
import { Crosshair, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { cn } from '../../../lib/cn.ts';
import { AdminTable } from './admin-table.tsx';
import { canAddPosition, type DraftLine, type FieldErrors } from './callout-draft.ts';
import { PartPicker } from './part-picker.tsx';

type Field = 'number' | 'quantity' | 'serialFrom' | 'serialTo' | 'note';

const cell = 'px-2 py-2 align-top';
const input = cn(formControlClass, 'mt-0');

/** A field's message under it, named by the field (aria-describedby). */
function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="mt-0.5 text-xs text-red-700">
      {message}
    </p>
  ) : null;
}

/**
 * The assembly's lines (#38): callout number, part, quantity, serial range and note, how many places the callout has
 * on the drawing, and remove. Each field shows its message from the contract's check or the catalog's 400. Focusing a
 * line chooses it (its hotspots light up on the drawing). Wide: the table scrolls sideways on a phone.
 */
export function CalloutTable({
  lines,
  errors,
  selectedKey,
  canPlace,
  onSelect,
  onChange,
  onPlace,
  onRemove,
  footer,
}: {
  lines: DraftLine[];
  errors: FieldErrors;
  selectedKey: string | null;
  /** A drawing is there to place on. */
  canPlace: boolean;
  onSelect: (key: string) => void;
  onChange: (key: string, change: Partial<DraftLine>) => void;
  /** Place the line's callout (again) on the drawing, from the keyboard: in the middle, to be moved with the arrows. */
  onPlace: (key: string) => void;
  onRemove: (key: string) => void;
  footer?: ReactNode;
}) {
  const errorId = (key: string, field: string) => `${key}-${field}-error`;
  const text = (line: DraftLine, n: number, field: Field, label: string, className: string, extra: Record<string, unknown> = {}) => {
    const message = errors[`${line.key}.${field}`];
    return (
      <td className={cell}>
        <input
          aria-label={`${label}, line ${n}`}
          value={line[field]}
          onChange={(e) => onChange(line.key, { [field]: e.target.value })}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? errorId(line.key, field) : undefined}
          className={cn(input, className)}
          {...extra}
        />
        <FieldError id={errorId(line.key, field)} message={message} />
      </td>
    );
  };

  return (
    <div className="space-y-2">
      <AdminTable
        caption="Lines of the assembly"
        minWidth="62rem"
        columns={[
          { label: 'No.', className: 'w-24' },
          { label: 'Part' },
          { label: 'Qty', className: 'w-24' },
          { label: 'Serial from', className: 'w-32' },
          { label: 'Serial to', className: 'w-32' },
          { label: 'Note' },
          { label: 'On drawing', className: 'w-28' },
          { label: 'Remove', hidden: true, className: 'w-12' },
        ]}
      >
        <tbody>
          {lines.length === 0 ? (
            <tr>
              <td colSpan={8} className="px-3 py-6 text-center text-steel">
                No lines yet: click on the drawing to place callout 1, or add a line.
              </td>
            </tr>
          ) : null}
          {lines.map((line, i) => {
            const n = i + 1;
            const partError = errors[`${line.key}.partId`];
            const placesError = errors[`${line.key}.positions`];
            return (
              <tr
                key={line.key}
                data-key={line.key}
                aria-selected={line.key === selectedKey}
                onFocusCapture={() => line.key !== selectedKey && onSelect(line.key)}
                className={cn('border-t border-zinc-200', line.key === selectedKey && 'bg-amber-50')}
              >
                {text(line, n, 'number', 'Callout number', 'w-16 font-mono', { inputMode: 'text', maxLength: 4 })}
                <td className={cell}>
                  <PartPicker
                    part={line.part}
                    label={`Part, line ${n}`}
                    invalid={Boolean(partError)}
                    describedBy={partError ? errorId(line.key, 'partId') : undefined}
                    onChange={(part) => onChange(line.key, { partId: part.id, part })}
                  />
                  <FieldError id={errorId(line.key, 'partId')} message={partError} />
                </td>
                {text(line, n, 'quantity', 'Quantity', 'w-16', { inputMode: 'numeric' })}
                {text(line, n, 'serialFrom', 'Serial from', 'w-28 font-mono', { maxLength: DIAGRAM_LIMITS.serial, placeholder: 'any' })}
                {text(line, n, 'serialTo', 'Serial to', 'w-28 font-mono', { maxLength: DIAGRAM_LIMITS.serial, placeholder: 'any' })}
                {text(line, n, 'note', 'Note', 'w-full min-w-40', { maxLength: DIAGRAM_LIMITS.note })}
                <td className={cell}>
                  <div className="flex items-center gap-1.5">
                    <span className="min-w-5 text-center" aria-label={`${line.positions.length} places on the drawing, line ${n}`}>
                      {line.positions.length}
                    </span>
                    <button
                      type="button"
                      disabled={!canPlace || !canAddPosition(line)}
                      onClick={() => onPlace(line.key)}
                      title="Place on the drawing (then move it with the arrow keys)"
                      aria-label={`Place callout ${line.number || n} on the drawing`}
                      className="rounded-md border border-zinc-300 p-1 text-ink hover:border-ink focus-visible:outline-2 focus-visible:outline-amber-500 disabled:opacity-40"
                    >
                      <Crosshair className="size-4" aria-hidden="true" />
                    </button>
                  </div>
                  <FieldError id={errorId(line.key, 'positions')} message={placesError} />
                </td>
                <td className={cell}>
                  <button
                    type="button"
                    onClick={() => onRemove(line.key)}
                    aria-label={`Remove line ${n} (callout ${line.number || 'without a number'})`}
                    className="rounded-md p-1 text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-amber-500"
                  >
                    <Trash2 className="size-4" aria-hidden="true" />
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </AdminTable>
      {footer}
    </div>
  );
}
