import { PackageSearch, SearchX, TriangleAlert } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { assemblyPath } from '@forgeline/contracts/slug';
import { ProductGrid } from '../../../components/product/product-card.tsx';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { StateMessage } from '../../../components/ui/state-message.tsx';
import { SEARCH_RESULTS_PAGE_SIZE } from '../../../config/constants.ts';
import { useDocumentTitle } from '../../../lib/document-title.ts';
import { usePageParam } from '../../../lib/use-page-param.ts';
import { useMachine } from '../../../lib/use-machine.ts';
import { unitsFitting } from '../../../lib/machine.ts';
import { MachineSelector } from '../../fitment/components/machine-selector.tsx';
import { NoPartsFit } from '../../fitment/components/no-parts-fit.tsx';
import { AddProductToQuoteList } from '../../quote-list/components/add-to-quote-list.tsx';
import { AskForQuoteButton } from '../../quote-list/components/ask-for-quote-button.tsx';
import { recordSearch } from '../../../lib/search-analytics.ts';
import { useSearchProducts } from '../api/search-products.ts';

/** Home with ?search=: every hit, 48 per page, page kept in the address. */
export function SearchResults({ search }: { search: string }) {
  const [page] = usePageParam();
  const machine = useMachine() ?? undefined;
  const q = useSearchProducts(search, SEARCH_RESULTS_PAGE_SIZE, (page - 1) * SEARCH_RESULTS_PAGE_SIZE, machine);
  const total = q.data?.pagination.totalProducts ?? q.data?.pagination.totalCount ?? 0;
  const totalPages = q.data?.pagination.totalPages ?? 1;
  useDocumentTitle(`Search: ${search}${page > 1 ? ` - Page ${page}` : ''}`);
  // Counted once a search's first page shows (a later page of the same search is not a new search).
  const shown = q.isSuccess && page === 1 && !machine ? q.data.products.map((p) => p.id).join(',') : null;
  useEffect(() => {
    if (shown !== null) recordSearch(search, total, 'search', shown ? shown.split(',') : []);
  }, [search, shown, total]);
  const notice = q.data?.notice;

  return (
    <section className="container-page py-10" aria-labelledby="search-results-heading">
      <p className="text-sm font-extrabold uppercase tracking-[0.2em] text-safety-deep">Search results</p>
      <h1 id="search-results-heading" className="mt-2 font-display text-3xl font-extrabold uppercase text-ink sm:text-5xl">
        Results for “{search}”
      </h1>
      {q.isSuccess ? (
        <p className="mt-2 text-steel" aria-live="polite">
          {total} result{total === 1 ? '' : 's'} found{totalPages > 1 ? ` · Page ${page} of ${totalPages}` : ''}
        </p>
      ) : null}
      {notice?.kind === 'not_stocked' ? (
        <div role="note" className="mt-6 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-ink">
          <p className="flex items-start gap-2">
            <PackageSearch className="mt-0.5 size-5 shrink-0 text-safety-deep" aria-hidden="true" />
            <span>
              We don't keep “{search}” in stock. {notice.note ?? 'Ask us and we will quote it.'}
            </span>
          </p>
          <AskForQuoteButton search={search} />
        </div>
      ) : null}
      {q.data?.assemblies?.length ? (
        // A machine and a word of its parts book ("320D idler seal", #38): the diagrams the search can open.
        <nav aria-label="Parts diagrams" className="mt-6 rounded-lg border border-zinc-200 bg-white p-4 text-ink">
          <p className="font-bold">Open the parts diagram</p>
          <ul className="mt-2 space-y-1">
            {q.data.assemblies.map((a) => (
              <li key={`${a.makeSlug}/${a.modelSlug}/${a.assemblySlug}`}>
                <Link className="font-semibold text-safety-deep underline underline-offset-4" to={assemblyPath({ ...a, slug: a.assemblySlug })}>
                  {a.make} {a.model}: {a.assemblyName}
                </Link>
                {a.callouts.length ? <span className="text-steel"> (callout{a.callouts.length === 1 ? '' : 's'} {a.callouts.join(', ')})</span> : null}
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <MachineSelector className="mt-6" />
      <div className="mt-8">
        {search.trim().length < 2 ? (
          <StateMessage icon={SearchX} title="Search needs 2 characters">
            Type at least two characters to search the catalogue.
          </StateMessage>
        ) : q.isPending ? (
          <Spinner label="Searching..." />
        ) : q.isError ? (
          <StateMessage icon={TriangleAlert} tone="error" title="Search failed" actions={<ButtonLink to="/catalog">Browse the catalog</ButtonLink>}>
            Please try again in a moment.
          </StateMessage>
        ) : q.data.products.length === 0 && machine ? (
          <NoPartsFit machine={machine} where={`for “${search}”`} />
        ) : q.data.products.length === 0 ? (
          <StateMessage
            icon={SearchX}
            title="No Products Found"
            actions={
              <>
                <ButtonLink to="/catalog">Browse the catalog</ButtonLink>
                {notice ? null : <AskForQuoteButton search={search} />}
              </>
            }
          >
            No products found for “{search}”. Try different keywords, browse the catalog, or ask us for it: we source many parts on request.
          </StateMessage>
        ) : (
          <>
            <ProductGrid
              products={q.data.products}
              priorityCount={4}
              action={(p) => <AddProductToQuoteList product={p} compact />}
              fits={(p) => unitsFitting(machine, p.fitsMachines)}
            />
            <div className="mt-10">
              <Pagination page={page} totalPages={totalPages} label="Search results pagination" />
            </div>
          </>
        )}
      </div>
    </section>
  );
}
