import { QUOTE_LIST_ADD_PARAM, QUOTE_LIST_PATH, quoteListAddValue } from '@forgeline/contracts/quote-list-link';
import { productPath } from '@forgeline/contracts/slug';
import { Info, ListPlus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatSerialRange } from '../../../lib/serial-range.ts';
import { notForSerial, type LineView } from '../assembly-lines.ts';

/**
 * An assembly's parts table: callout number, part (linked to its page), part number, quantity per assembly and a
 * checkbox per line, inside a plain GET form to the quote list (`/quote?add=<id>~<qty>&…`), so the table alone is the
 * page without JavaScript. With it, the same form's submit and "Add all" put the lines on the buyer's list here
 * (`onAdd`), and hovering or focusing a row highlights its callout on the drawing.
 *
 * A line not for the buyer's serial is dimmed, says so, and starts unticked; the buyer may tick it anyway.
 */
export function CalloutTable({
  name,
  views,
  serial,
  active,
  interactive,
  onActive,
  onOpen,
  onAdd,
}: {
  /** The assembly's name, for the table's caption. */
  name: string;
  views: LineView[];
  serial: string | null;
  active: string | null;
  /** The app has started: "Add all" and the rows' details buttons are there (not in the server's HTML). */
  interactive: boolean;
  onActive: (number: string | null) => void;
  onOpen: (number: string) => void;
  /** Puts lines on the quote list (each part once) and tells the buyer how it went. */
  onAdd: (lines: LineView[]) => void;
}) {
  const uid = useId();
  // Ticks the buyer changed; every other line is ticked when it is for their unit. The page remounts this table when
  // the serial changes (its `key`), so a new serial starts from its own defaults.
  const [ticked, setTicked] = useState<Record<string, boolean>>({});
  const isTicked = (v: LineView) => ticked[v.key] ?? v.fits;
  const dimmed = views.filter((v) => !v.fits).length;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    onAdd(views.filter((v) => v.line.part && isTicked(v)));
  };

  return (
    <form method="get" action={QUOTE_LIST_PATH} onSubmit={submit} aria-labelledby={`${uid}-heading`} className="min-w-0">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${uid}-heading`} className="font-display text-2xl font-bold uppercase text-ink">
          Parts list
        </h2>
        {interactive ? (
          <Button type="button" variant="primary" size="sm" onClick={() => onAdd(views.filter((v) => v.fits && v.line.part))}>
            <ListPlus className="size-4" aria-hidden="true" /> Add all to quote list
          </Button>
        ) : null}
      </div>
      {serial && dimmed ? (
        <p className="mt-2 text-sm text-steel">
          {dimmed === 1 ? '1 line is' : `${dimmed} lines are`} not for S/N <span className="font-mono font-semibold text-ink">{serial}</span>:
          dimmed, and left out of &ldquo;Add all&rdquo;.
        </p>
      ) : null}
      <div className="mt-3 overflow-x-auto rounded-lg border border-zinc-200 bg-white">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Parts of the {name}: callout number, part, quantity per assembly, and whether to add it to your quote list</caption>
          <thead>
            <tr className="border-b-2 border-ink text-xs uppercase tracking-wider text-steel">
              <th scope="col" className="py-2 pl-3 pr-2 font-bold">
                No.
              </th>
              <th scope="col" className="py-2 pr-2 font-bold">
                Part
              </th>
              <th scope="col" className="py-2 pr-2 text-right font-bold">
                Qty
              </th>
              <th scope="col" className="py-2 pr-3 text-center font-bold">
                Add
              </th>
            </tr>
          </thead>
          <tbody>
            {views.map((v) => {
              const { line } = v;
              const part = line.part;
              // A note naming the range already ("From S/N X", as parts books write it) says it once.
              const range =
                (line.serialFrom || line.serialTo) && ![line.serialFrom, line.serialTo].some((s) => s && line.note?.includes(s)) ? formatSerialRange(line) : null;
              const on = active === line.number;
              const label = `callout ${line.number}, ${part?.name ?? 'part no longer sold'}, quantity ${line.quantity}`;
              return (
                <tr
                  key={v.key}
                  data-callout={line.number}
                  data-active={on || undefined}
                  data-fits={v.fits}
                  onMouseEnter={() => onActive(line.number)}
                  onMouseLeave={() => onActive(null)}
                  onFocus={() => onActive(line.number)}
                  onBlur={() => onActive(null)}
                  className={cn('border-b border-zinc-100 transition-colors last:border-b-0', on && 'bg-safety/25', !v.fits && !on && 'bg-zinc-50')}
                >
                  <td className="py-2.5 pl-3 pr-2 align-top">
                    <span
                      className={cn(
                        'grid size-7 place-items-center rounded-full border-2 text-xs font-extrabold',
                        v.fits ? 'border-ink text-ink' : 'border-zinc-300 text-zinc-500',
                        on && 'bg-safety',
                      )}
                    >
                      {line.number}
                    </span>
                  </td>
                  <td className={cn('min-w-40 py-2.5 pr-2 align-top', !v.fits && 'text-zinc-500')}>
                    {part ? (
                      <Link to={productPath(part)} className={cn('font-semibold hover:underline', v.fits ? 'text-ink' : 'text-zinc-600')}>
                        {part.name}
                      </Link>
                    ) : (
                      <span className="italic">Part no longer sold</span>
                    )}
                    {part ? (
                      <p className="mt-0.5 break-all font-mono text-xs text-steel">
                        <span className="sr-only">Part number </span>
                        {part.partNumber || part.sku}
                      </p>
                    ) : null}
                    {range ? <p className="mt-0.5 text-xs text-steel">Serial: {range}</p> : null}
                    {line.note ? <p className="mt-0.5 text-xs text-steel">{line.note}</p> : null}
                    {!v.fits && serial ? (
                      <p className="mt-1 inline-block rounded bg-zinc-200 px-1.5 py-0.5 text-xs font-semibold text-zinc-700">{notForSerial(serial)}</p>
                    ) : null}
                    {interactive && part ? (
                      <button
                        type="button"
                        onClick={() => onOpen(line.number)}
                        className="mt-1 flex items-center gap-1 rounded text-xs font-semibold text-safety-deep underline-offset-2 hover:underline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-safety"
                        aria-label={`Details of callout ${line.number}: ${part.name}`}
                      >
                        <Info className="size-3.5" aria-hidden="true" /> Details
                      </button>
                    ) : null}
                  </td>
                  <td className="py-2.5 pr-2 text-right align-top font-semibold">{line.quantity}</td>
                  <td className="py-2.5 pr-3 text-center align-top">
                    {part ? (
                      <input
                        type="checkbox"
                        name={QUOTE_LIST_ADD_PARAM}
                        value={quoteListAddValue(part.id, line.quantity)}
                        checked={isTicked(v)}
                        onChange={(e) => setTicked((t) => ({ ...t, [v.key]: e.target.checked }))}
                        aria-label={`Add ${label}`}
                        className="mt-1 size-5"
                      />
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button type="submit" variant="dark">
          <ListPlus className="size-4" aria-hidden="true" /> Add selected to quote list
        </Button>
      </div>
    </form>
  );
}
