import { categoryPath } from '@forgeline/contracts/slug';
import { WHATSAPP_GREETING, whatsappLink } from '@forgeline/site-config/whatsapp';
import { ArrowRight, Boxes, Factory, Layers, MessageCircle, SearchX, TriangleAlert } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button, ExternalButtonLink } from '../../../components/ui/button.tsx';
import { FirstScreenGrid } from '../../../components/ui/first-screen-grid.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { SearchField } from '../../../components/ui/search-field.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { StateMessage } from '../../../components/ui/state-message.tsx';
import { site } from '../../../config/site.ts';
import { displayBrand } from '../../../lib/brand.ts';
import { useDocumentTitle } from '../../../lib/document-title.ts';
import { formatCount } from '../../../lib/format-count.ts';
import { usePageParam } from '../../../lib/use-page-param.ts';
import { useSubcategories } from '../api/get-subcategories.ts';

/** Cards a page: a catalogue of 500,000 parts has thousands of brand and category pairs. */
const PAGE_SIZE = 60;
/** Cards rendered with the page: three rows of a 1440 px screen's four columns. */
const FIRST_CARDS = 12;

/** /categories: one card per brand and category pair, filtered by name, brand or category (spec section 2). */
export default function BrowseByBrandPage() {
  useDocumentTitle('Browse by Brand');
  const q = useSubcategories();
  const [params, setParams] = useSearchParams();
  // ?filter= is where the box's form sends its text without JavaScript (the app filters as the buyer types).
  const [filter, setFilterText] = useState(() => params.get('filter') ?? '');
  const [page] = usePageParam();
  // A new filter shows its first page.
  const setFilter = (text: string) => {
    setFilterText(text);
    if (page > 1) {
      setParams(
        (prev) => {
          const p = new URLSearchParams(prev);
          p.delete('page');
          return p;
        },
        { replace: true },
      );
    }
  };

  const items = useMemo(() => q.data ?? [], [q.data]);
  const visible = useMemo(() => {
    const f = filter.trim().toLowerCase();
    if (!f) return items;
    return items.filter((s) => [s.name, s.brand, s.category].some((v) => v.toLowerCase().includes(f)));
  }, [items, filter]);
  const stats = useMemo(
    () => ({
      brands: new Set(items.map((s) => s.brand.toLowerCase())).size,
      products: items.reduce((n, s) => n + s.productCount, 0),
      categories: new Set(items.map((s) => s.category.toLowerCase())).size,
    }),
    [items],
  );
  const totalPages = Math.max(1, Math.ceil(visible.length / PAGE_SIZE));
  const shown = visible.slice((Math.min(page, totalPages) - 1) * PAGE_SIZE, Math.min(page, totalPages) * PAGE_SIZE);

  return (
    <>
      <section className="bg-ink text-white">
        <div className="container-page py-12 sm:py-16">
          <p className="text-sm font-extrabold uppercase tracking-[0.2em] text-safety">Parts by manufacturer</p>
          <h1 className="mt-3 font-display text-4xl font-extrabold uppercase sm:text-6xl">Browse by Brand</h1>
          <p className="mt-3 max-w-2xl text-zinc-300">
            Pick a brand and equipment category to see every part we carry for it.
          </p>
          <form method="get" action="/categories" role="search" onSubmit={(e) => e.preventDefault()}>
            <SearchField id="brand-filter" name="filter" label="Search brands" placeholder="Search brands..." value={filter} onChange={setFilter} className="mt-8" />
          </form>
        </div>
      </section>

      <div className="container-page py-10">
        {q.isPending ? (
          <Spinner label="Loading categories..." />
        ) : q.isError ? (
          <StateMessage
            icon={TriangleAlert}
            tone="error"
            title="Error Loading Categories"
            actions={<Button onClick={() => void q.refetch()}>Retry</Button>}
          >
            We couldn't load the brand list. Please try again.
          </StateMessage>
        ) : (
          <>
            <dl className="grid grid-cols-3 gap-3 sm:gap-5">
              {[
                { icon: Factory, label: 'Brands', value: stats.brands },
                { icon: Boxes, label: 'Total Products', value: stats.products },
                { icon: Layers, label: 'Categories', value: stats.categories },
              ].map((s) => (
                <div key={s.label} className="flex flex-col-reverse rounded-lg border border-zinc-200 bg-white p-3 sm:p-6">
                  <dt className="mt-1 text-[11px] font-bold uppercase text-steel sm:text-sm sm:tracking-wider">{s.label}</dt>
                  <dd className="flex items-center gap-2 font-display text-2xl font-extrabold text-ink sm:text-4xl">
                    <s.icon className="hidden size-7 text-safety-deep sm:block" aria-hidden="true" />
                    {formatCount(s.value)}
                  </dd>
                </div>
              ))}
            </dl>

            {visible.length === 0 ? (
              <StateMessage icon={SearchX} title="No categories found">
                {filter ? `Nothing matches “${filter}”. Try another brand or category.` : 'The catalogue is empty for now.'}
              </StateMessage>
            ) : (
              <>
                <FirstScreenGrid items={shown} first={FIRST_CARDS} className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4" gapClassName="mt-4">
                  {(s) => (
                    <article className="flex h-full flex-col rounded-lg border border-zinc-200 bg-white p-5 shadow-sm transition hover:border-ink">
                      <p className="text-xs font-bold uppercase tracking-wider text-safety-deep">{s.category}</p>
                      <h2 className="mt-1 font-display text-2xl font-bold uppercase leading-tight text-ink">{displayBrand(s.brand)}</h2>
                      <p className="mt-1 text-sm text-steel">{s.name}</p>
                      <p className="mt-4 text-sm text-steel">
                        <span className="font-semibold text-ink">{formatCount(s.productCount)}</span> products
                      </p>
                      <Link
                        to={categoryPath(s.category, s.brand)}
                        className="mt-5 inline-flex h-10 items-center justify-between rounded-md bg-ink px-4 text-sm font-semibold text-white hover:bg-ink-soft"
                        aria-label={`View Parts: ${displayBrand(s.brand)} ${s.category}`}
                      >
                        View Parts <ArrowRight className="size-4 text-safety" aria-hidden="true" />
                      </Link>
                    </article>
                  )}
                </FirstScreenGrid>
                <div className="mt-10">
                  <Pagination page={Math.min(page, totalPages)} totalPages={totalPages} label="Brands and categories pagination" />
                </div>
              </>
            )}
          </>
        )}

        <aside className="mt-14 flex flex-col items-start gap-5 rounded-lg bg-ink p-8 text-white sm:flex-row sm:items-center sm:justify-between">
          <div>
            <h2 className="font-display text-2xl font-bold uppercase">Can't find your brand?</h2>
            <p className="mt-1 text-zinc-300">Send us the part number on WhatsApp and we'll source it for you.</p>
          </div>
          <ExternalButtonLink href={whatsappLink(WHATSAPP_GREETING, site.whatsappNumber)} variant="whatsapp" size="lg">
            <MessageCircle className="size-5" aria-hidden="true" /> Ask on WhatsApp
          </ExternalButtonLink>
        </aside>
      </div>
    </>
  );
}
