import type { MachinePage as MachinePageData } from '@forgeline/contracts/parts-diagrams';
import { assemblyPath } from '@forgeline/contracts/slug';
import { ArrowRight, ImageOff, Tractor } from 'lucide-react';
import { Link, useParams } from 'react-router-dom';
import { Breadcrumb } from '../../../components/ui/breadcrumb.tsx';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { PageNotFound } from '../../../components/ui/page-not-found.tsx';
import { DiagramsLoadFailed } from './diagrams-load-failed.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { StateMessage } from '../../../components/ui/state-message.tsx';
import { useDocumentTitle } from '../../../lib/document-title.ts';
import { formatCount } from '../../../lib/format-count.ts';
import { isFleet } from '../../../lib/machine.ts';
import { setMachine, useMachine } from '../../../lib/use-machine.ts';
import { useMachinePage } from '../api/get-machine.ts';

function MachineView({ machine }: { machine: MachinePageData }) {
  const chosen = useMachine();
  const name = `${machine.make} ${machine.model}`;
  const count = machine.assemblies.length;
  useDocumentTitle(`${name} parts diagrams`);
  // The gallery narrows to the visit's machine: choosing this one (its serial kept when it is already this model).
  const browseFitting = () => {
    const same = chosen && !isFleet(chosen) && chosen.make === machine.make && chosen.model === machine.model;
    setMachine(same ? chosen : { make: machine.make, model: machine.model });
  };

  return (
    <>
      <section className="bg-ink text-white">
        <div className="container-page py-10 sm:py-14">
          <Breadcrumb items={[{ label: 'Home', to: '/' }, { label: name }]} />
          <h1 className="mt-4 font-display text-4xl font-extrabold uppercase leading-none sm:text-6xl">{name}</h1>
          <div className="mt-5 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-zinc-300">
              Parts diagrams: <span className="font-semibold text-white">{count}</span> assembl{count === 1 ? 'y' : 'ies'}
              {machine.productCount ? (
                <>
                  {' '}
                  · <span className="font-semibold text-white">{formatCount(machine.productCount)}</span> part{machine.productCount === 1 ? '' : 's'} fit this machine
                </>
              ) : null}
            </p>
            {machine.productCount ? (
              <ButtonLink to="/catalog" variant="primary" onClick={browseFitting}>
                <Tractor className="size-4" aria-hidden="true" /> Browse the parts that fit
              </ButtonLink>
            ) : null}
          </div>
        </div>
      </section>
      <div className="container-page py-8">
        {count ? (
          <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
            {machine.assemblies.map((a) => (
              <li key={a.id}>
                <Link
                  to={assemblyPath({ makeSlug: machine.makeSlug, modelSlug: machine.modelSlug, slug: a.slug })}
                  className="group flex h-full flex-col overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-sm transition hover:-translate-y-0.5 hover:border-ink hover:shadow-md"
                >
                  <div className="aspect-[4/3] overflow-hidden border-b border-zinc-200 bg-white">
                    {a.diagram ? (
                      <img
                        src={a.diagram.variants?.[0]?.url ?? a.diagram.url}
                        width={a.diagram.width}
                        height={a.diagram.height}
                        alt=""
                        loading="lazy"
                        decoding="async"
                        className="size-full object-contain"
                      />
                    ) : (
                      <div className="grid size-full place-items-center text-zinc-400">
                        <ImageOff className="size-8" aria-hidden="true" />
                      </div>
                    )}
                  </div>
                  <div className="flex flex-1 items-start justify-between gap-2 p-4">
                    <div>
                      <h2 className="text-base font-bold uppercase leading-snug text-ink group-hover:underline">{a.name}</h2>
                      <p className="mt-1 text-sm text-steel">
                        {a.calloutCount} callout{a.calloutCount === 1 ? '' : 's'}
                        {a.diagram ? '' : ' · no drawing yet'}
                      </p>
                    </div>
                    <ArrowRight className="mt-1 size-4 shrink-0 text-safety-deep" aria-hidden="true" />
                  </div>
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <StateMessage
            icon={ImageOff}
            title="No Diagrams Yet"
            actions={
              machine.productCount ? (
                <ButtonLink to="/catalog" variant="dark" onClick={browseFitting}>
                  Browse the parts that fit
                </ButtonLink>
              ) : (
                <ButtonLink to="/catalog" variant="dark">
                  Browse the catalog
                </ButtonLink>
              )
            }
          >
            We have no parts diagrams for the {name} yet. Send us the part you need and your serial number, and we will find it.
          </StateMessage>
        )}
      </div>
    </>
  );
}

/** /machines/:make/:model (#38): a machine model's parts book, its assemblies as cards with their drawings. */
export default function MachinePage() {
  const { make = '', model = '' } = useParams();
  const q = useMachinePage(make, model);
  useDocumentTitle(q.data === null ? 'Machine Not Found' : undefined);

  if (q.isPending) return <Spinner label="Loading the machine's diagrams..." />;
  if (q.isError) {
    return (
      <DiagramsLoadFailed title="Diagrams Did Not Load" retry={() => void q.refetch()} retrying={q.isFetching}>
        We could not load this machine&rsquo;s parts diagrams. Check your connection and try again.
      </DiagramsLoadFailed>
    );
  }
  if (!q.data) {
    return (
      <PageNotFound icon={Tractor} title="Machine Not Found">
        We have no machine at this address. Choose yours under &ldquo;Find parts for your machine&rdquo; on the home page.
      </PageNotFound>
    );
  }
  return <MachineView machine={q.data} />;
}
