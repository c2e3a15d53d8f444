import { assemblyPath, machinePath } from '@forgeline/contracts/slug';
import type { AssemblyPage as AssemblyPageData } from '@forgeline/contracts/parts-diagrams';
import { FileQuestion } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { Breadcrumb } from '../../../components/ui/breadcrumb.tsx';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { PageNotFound } from '../../../components/ui/page-not-found.tsx';
import { DiagramsLoadFailed } from './diagrams-load-failed.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useDocumentTitle } from '../../../lib/document-title.ts';
import type { AddResultLike, QuoteListAccess } from '../../../lib/quote-list-access.ts';
import { useAfterFirstCommit } from '../../../lib/use-after-first-commit.ts';
import { useMachine } from '../../../lib/use-machine.ts';
import { useAssemblyPage } from '../api/get-assembly.ts';
import { hotspotsOf, lineViews, partsToAdd, serialFor, type LineView } from '../assembly-lines.ts';
import { AssemblyDrawing, NoDrawing } from './assembly-drawing.tsx';
import { CalloutDialog } from './callout-dialog.tsx';
import { CalloutTable } from './callout-table.tsx';
import { SerialCheck } from './serial-check.tsx';

/** What the page needs of the quote list's store (handed over by the app: router.tsx). */
export type AssemblyQuoteList = Pick<QuoteListAccess, 'addProduct' | 'productOfSummary'>;

/** Puts lines on the quote list, each part once, and says how it went (the list may be full: what was left out is named). */
function useAddToQuoteList(quoteList: AssemblyQuoteList) {
  const navigate = useNavigate();
  return (lines: LineView[]) => {
    const adds = partsToAdd(lines);
    if (!adds.length) {
      toast.error('Nothing to add', { description: 'Tick the lines you want on your quote list.' });
      return;
    }
    let added = 0;
    let raised = 0;
    const left: string[] = [];
    let full: string | null = null;
    for (const { part, quantity } of adds) {
      const r: AddResultLike | null = full ? null : quoteList.addProduct(quoteList.productOfSummary(part), quantity);
      if (r?.ok) {
        if (r.added) added++;
        else raised++;
        continue;
      }
      if (r) full = r.message;
      left.push(part.partNumber || part.sku);
    }
    const view = { label: 'View list', onClick: () => void navigate('/quote') };
    if (full) {
      toast.error(`${left.length} part${left.length === 1 ? '' : 's'} not added`, { description: `${full} Not added: ${left.join(', ')}.`, action: view });
      return;
    }
    const one = adds.length === 1 ? adds[0]! : null;
    toast.success(one ? (added ? 'Added to your quote list' : 'Quantity updated in your quote list') : `${adds.length} parts on your quote list`, {
      description: one
        ? `${one.part.partNumber || one.part.sku} × ${one.quantity}`
        : [added && `${added} added`, raised && `${raised} already there, quantity raised`].filter(Boolean).join('; '),
      action: view,
    });
  };
}

function AssemblyView({ page, quoteList }: { page: AssemblyPageData; quoteList: AssemblyQuoteList }) {
  const machine = useMachine();
  const [params] = useSearchParams();
  const interactive = useAfterFirstCommit();
  const serial = serialFor(machine, page, params.get('serial'));
  const views = useMemo(() => lineViews(page.lines, serial), [page.lines, serial]);
  const hotspots = useMemo(() => hotspotsOf(views), [views]);
  const [active, setActive] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const add = useAddToQuoteList(quoteList);
  const machineName = `${page.make} ${page.model}`;
  const calloutCount = new Set(page.lines.map((l) => l.number)).size;
  const others = page.siblings.filter((s) => s.slug !== page.slug);
  useDocumentTitle(`${page.name} — ${machineName} parts diagram`);

  return (
    <div className="container-page py-6 sm:py-10">
      <Breadcrumb
        tone="light"
        items={[
          { label: 'Home', to: '/' },
          { label: machineName, to: machinePath(page.make, page.model) },
          { label: page.name },
        ]}
      />
      <h1 className="mt-4 font-display text-3xl font-extrabold uppercase leading-tight text-ink sm:text-4xl">{page.name}</h1>
      <p className="mt-1 text-steel">
        {machineName} parts diagram · {calloutCount} callout{calloutCount === 1 ? '' : 's'}
      </p>

      <div className="mt-6 grid items-start gap-6 lg:grid-cols-[1.6fr_1fr] lg:gap-8">
        <div className="min-w-0 lg:sticky lg:top-40">
          {page.diagram ? (
            <AssemblyDrawing
              diagram={page.diagram}
              alt={`Exploded view of the ${page.name}, ${machineName}, with its callout numbers`}
              hotspots={hotspots}
              active={active}
              serial={serial}
              interactive={interactive}
              onActive={setActive}
              onOpen={setOpen}
            />
          ) : (
            <NoDrawing />
          )}
        </div>
        <div className="min-w-0 space-y-5">
          <SerialCheck make={page.make} model={page.model} serial={serial} />
          {views.length ? (
            <CalloutTable
              key={serial ?? ''}
              name={page.name}
              views={views}
              serial={serial}
              active={active}
              interactive={interactive}
              onActive={setActive}
              onOpen={setOpen}
              onAdd={add}
            />
          ) : (
            <p className="rounded-lg border border-zinc-200 bg-white p-4 text-steel">No parts are listed for this assembly yet. Ask us: send the machine&rsquo;s serial number.</p>
          )}
        </div>
      </div>

      {others.length ? (
        <nav aria-labelledby="other-assemblies" className="mt-10 border-t border-zinc-200 pt-6">
          <h2 id="other-assemblies" className="font-display text-xl font-bold uppercase text-ink">
            More of the {machineName}
          </h2>
          <ul className="mt-3 flex flex-wrap gap-2">
            {others.map((s) => (
              <li key={s.slug}>
                <Link
                  to={assemblyPath({ makeSlug: page.makeSlug, modelSlug: page.modelSlug, slug: s.slug })}
                  className="inline-block rounded border border-zinc-300 bg-white px-3 py-1.5 text-sm font-semibold text-ink hover:border-ink"
                >
                  {s.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}

      <CalloutDialog number={open} lines={views.filter((v) => v.line.number === open)} serial={serial} onClose={() => setOpen(null)} onAdd={add} />
    </div>
  );
}

/** /machines/:make/:model/:assembly (#38): an assembly's drawing with its callouts, and its parts table. */
export default function AssemblyPage({ quoteList }: { quoteList: AssemblyQuoteList }) {
  const { make = '', model = '', assembly = '' } = useParams();
  const q = useAssemblyPage(make, model, assembly);
  const machineLink = `/machines/${encodeURIComponent(make)}/${encodeURIComponent(model)}`;
  useDocumentTitle(q.data === null ? 'Assembly Not Found' : undefined);

  if (q.isPending) return <Spinner label="Loading the parts diagram..." />;
  if (q.isError) {
    return (
      <DiagramsLoadFailed title="Diagram Did Not Load" retry={() => void q.refetch()} retrying={q.isFetching}>
        We could not load this parts diagram. Check your connection and try again.
      </DiagramsLoadFailed>
    );
  }
  if (!q.data) {
    return (
      <PageNotFound
        icon={FileQuestion}
        title="Assembly Not Found"
        moreActions={
          <ButtonLink to={machineLink} variant="outline">
            The machine&rsquo;s diagrams
          </ButtonLink>
        }
      >
        This machine has no assembly at this address. It may have been renamed: see the machine&rsquo;s other diagrams.
      </PageNotFound>
    );
  }
  // Keyed by the assembly: another one (a sibling, or back to one still cached) starts with its own ticks and no dialog.
  return <AssemblyView key={q.data.id} page={q.data} quoteList={quoteList} />;
}
