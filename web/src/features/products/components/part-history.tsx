import type { CrossReference, Fitment, ProductDetail, ProductRef } from '@forgeline/contracts/products';
import { assemblyPath, productPath } from '@forgeline/contracts/slug';
import { ArrowRight, History, Network, Repeat2, Tractor } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button.tsx';
import { formatSerialRange, sortFits } from '../../../lib/serial-range.ts';
import { fitCoversMachine } from '@forgeline/contracts/machine-fit';
import { useMyFleet } from '../../../lib/my-fleet.ts';

/** Rows the Fits table shows before "Show all". */
const FITS_SHOWN = 12;

/** A superseded part's notice: the part sold today in its place, linked. */
export function ReplacedByNotice({ replacedBy }: { replacedBy: ProductRef }) {
  return (
    <div role="note" className="mt-6 rounded-lg border-l-4 border-safety bg-safety/15 p-4">
      <p className="flex items-start gap-3 text-ink">
        <Repeat2 className="mt-0.5 size-5 shrink-0 text-safety-deep" aria-hidden="true" />
        <span>
          <span className="font-semibold">This part has been superseded.</span>{' '}
          <Link to={productPath(replacedBy)} className="font-semibold underline decoration-safety-deep decoration-2 underline-offset-2 hover:text-safety-deep">
            Replaced by <span className="font-mono">{replacedBy.partNumber}</span>
            {replacedBy.name ? ` – ${replacedBy.name}` : ''}
            <ArrowRight className="ml-1 inline size-4 align-[-2px]" aria-hidden="true" />
          </Link>
        </span>
      </p>
    </div>
  );
}

function Panel({ id, icon: Icon, title, children, className }: { id: string; icon: typeof History; title: string; children: ReactNode; className?: string }) {
  return (
    <section aria-labelledby={id} className={`min-w-0 rounded-lg border border-zinc-200 bg-white p-4 sm:p-6 ${className ?? ''}`}>
      <h2 id={id} className="flex items-center gap-2 font-display text-2xl font-bold uppercase text-ink">
        <Icon className="size-5 text-safety-deep" aria-hidden="true" />
        {title}
      </h2>
      {children}
    </section>
  );
}

/** For a signed-in buyer (issue 35): which of their company's units this part fits, by the catalogue's own rule. */
function YourUnits({ fits }: { fits: Fitment[] }) {
  const fleet = useMyFleet();
  if (!fleet?.length) return null;
  const fitting = fleet.filter((u) => fits.some((f) => fitCoversMachine(f, u)));
  return fitting.length ? (
    <p className="mt-2 rounded bg-emerald-50 px-3 py-2 text-sm font-semibold text-emerald-800">
      Fits your {fitting.map((u) => u.unitName).join(', ')}
    </p>
  ) : (
    <p className="mt-2 rounded bg-zinc-100 px-3 py-2 text-sm text-steel">
      None of your {fleet.length === 1 ? 'machine' : `${fleet.length} machines`} is listed here.
    </p>
  );
}

function FitsTable({ fits }: { fits: Fitment[] }) {
  const rows = sortFits(fits);
  const [all, setAll] = useState(false);
  const shown = all ? rows : rows.slice(0, FITS_SHOWN);
  return (
    <>
      <p className="mt-1 text-sm text-steel">
        Machines this part fits{rows.length > 1 ? ` (${rows.length})` : ''}. Not sure about yours? Send us the serial number.
      </p>
      <div className="mt-4 overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Machines this part fits</caption>
          <thead>
            <tr className="border-b-2 border-ink text-xs uppercase tracking-wider text-steel">
              <th scope="col" className="py-2 pr-4 font-bold">
                Make
              </th>
              <th scope="col" className="py-2 pr-4 font-bold">
                Model
              </th>
              <th scope="col" className="py-2 font-bold">
                Serial range
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((f) => (
              <tr key={`${f.make}|${f.model}|${f.serialFrom ?? ''}|${f.serialTo ?? ''}`} className="border-b border-zinc-100 last:border-b-0">
                <td className="py-2 pr-4 font-semibold text-ink">{f.make}</td>
                <td className="py-2 pr-4 text-ink">{f.model}</td>
                <td className={f.serialFrom || f.serialTo ? 'py-2 font-mono text-ink' : 'py-2 text-steel'}>{formatSerialRange(f)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length > FITS_SHOWN ? (
        <Button variant="ghost" size="sm" className="mt-2" aria-expanded={all} onClick={() => setAll((v) => !v)}>
          {all ? 'Show fewer machines' : `Show all ${rows.length} machines`}
        </Button>
      ) : null}
    </>
  );
}

/**
 * The part's history and reach (issue #17): the machines it fits, the older numbers it replaces and other makers'
 * numbers for it. Each section only when the part has data for it; nothing at all when it has none.
 */
export function PartHistorySections({
  fits = [],
  replaces = [],
  crossReferences = [],
}: {
  fits?: Fitment[];
  replaces?: string[];
  crossReferences?: CrossReference[];
}) {
  if (!fits.length && !replaces.length && !crossReferences.length) return null;
  const side = replaces.length > 0 || crossReferences.length > 0;
  return (
    <div className={`mt-10 grid items-start gap-6 ${fits.length && side ? 'lg:grid-cols-3' : ''}`}>
      {fits.length ? (
        <Panel id="fits-heading" icon={Tractor} title="Fits" className={side ? 'lg:col-span-2' : undefined}>
          <YourUnits fits={fits} />
          <FitsTable fits={fits} />
        </Panel>
      ) : null}
      {side ? (
        <div className={`grid content-start gap-6 ${fits.length ? '' : 'sm:grid-cols-2'}`}>
          {replaces.length ? (
            <Panel id="part-history-heading" icon={History} title="Part history">
              <p className="mt-1 text-sm text-steel">This part replaces the older part {replaces.length === 1 ? 'number' : 'numbers'}:</p>
              <ul className="mt-3 flex flex-wrap gap-2" aria-label="Older part numbers">
                {replaces.map((n) => (
                  <li key={n} className="rounded border border-zinc-300 bg-paper px-2 py-1 font-mono text-sm font-semibold text-ink">
                    {n}
                  </li>
                ))}
              </ul>
            </Panel>
          ) : null}
          {crossReferences.length ? (
            <Panel id="cross-references-heading" icon={Repeat2} title="Cross-references">
              <p className="mt-1 text-sm text-steel">The same part under other makers' numbers.</p>
              <table className="mt-3 w-full text-left text-sm">
                <caption className="sr-only">Cross-references</caption>
                <thead>
                  <tr className="border-b-2 border-ink text-xs uppercase tracking-wider text-steel">
                    <th scope="col" className="py-2 pr-4 font-bold">
                      Brand
                    </th>
                    <th scope="col" className="py-2 font-bold">
                      Part number
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {crossReferences.map((x) => (
                    <tr key={`${x.brand}|${x.partNumber}`} className="border-b border-zinc-100 last:border-b-0">
                      <td className="py-2 pr-4 font-semibold text-ink">{x.brand}</td>
                      <td className="break-all py-2 font-mono text-ink">{x.partNumber}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Panel>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/**
 * "Where used" (#38): the machines' assemblies this part is drawn in, each linked to its parts diagram ("Caterpillar
 * 320D Excavator — Track roller frame, callout 3, qty 2"); "and N more" past the ones the catalogue lists. Nothing for
 * a part in no diagram.
 */
export function WhereUsedSection({ whereUsed }: { whereUsed: ProductDetail['whereUsed'] }) {
  if (!whereUsed?.assemblies.length) return null;
  const more = whereUsed.total - whereUsed.assemblies.length;
  return (
    <Panel id="where-used-heading" icon={Network} title="Where used" className="mt-6">
      <p className="mt-1 text-sm text-steel">The machines&rsquo; parts diagrams this part is in.</p>
      <ul className="mt-3 divide-y divide-zinc-100 text-sm">
        {whereUsed.assemblies.map((a) => (
          <li key={`${a.makeSlug}/${a.modelSlug}/${a.assemblySlug}`} className="py-2">
            <Link
              to={assemblyPath({ makeSlug: a.makeSlug, modelSlug: a.modelSlug, slug: a.assemblySlug })}
              className="font-semibold text-ink underline decoration-safety-deep decoration-2 underline-offset-2 hover:text-safety-deep"
            >
              {a.make} {a.model} — {a.assemblyName}
            </Link>
            <span className="text-steel">
              , callout {a.callouts.join(', ')}, qty {a.quantity}
            </span>
          </li>
        ))}
      </ul>
      {more > 0 ? <p className="mt-2 text-sm text-steel">and {more.toLocaleString('en-US')} more</p> : null}
    </Panel>
  );
}
