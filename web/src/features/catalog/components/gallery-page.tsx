import type { ProductSummary } from '@forgeline/contracts/products';
import { productPath } from '@forgeline/contracts/slug';
import { Images, Layers, Tags } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { FitsUnitsBadge, ProductCardImage } from '../../../components/product/product-card.tsx';
import { unitsFitting } from '../../../lib/machine.ts';
import { Button } from '../../../components/ui/button.tsx';
import { PageInputPagination } from '../../../components/ui/pagination.tsx';
import { SearchField } from '../../../components/ui/search-field.tsx';
import { recordSearch } from '../../../lib/search-analytics.ts';
import { AskForQuoteButton } from '../../quote-list/components/ask-for-quote-button.tsx';
import { GALLERY_SEARCH_DEBOUNCE_MS } from '../../../config/constants.ts';
import { displayBrand } from '../../../lib/brand.ts';
import { useDocumentTitle } from '../../../lib/document-title.ts';
import { formatCount } from '../../../lib/format-count.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { usePageParam } from '../../../lib/use-page-param.ts';
import { useMachine } from '../../../lib/use-machine.ts';
import { ProductListing } from '../../listing/components/product-listing.tsx';
import { useCatalogProducts } from '../api/get-catalog-products.ts';


/** Cards rendered with the page: three rows of a 1440 px screen's six columns. */
const FIRST_CARDS = 18;

function GalleryCard({ product, priority, fitsUnits }: { product: ProductSummary; priority: boolean; fitsUnits: string[] }) {
  const extra = Math.max(0, (product.images?.length ?? 0) - 1);
  return (
    <Link
      to={productPath(product)}
      className="group flex h-full flex-col overflow-hidden rounded-lg border border-zinc-200 bg-white transition hover:border-ink hover:shadow-md"
    >
      <div className="relative aspect-square bg-zinc-100">
        <ProductCardImage product={product} sizes="(min-width: 1280px) 240px, (min-width: 640px) 25vw, 50vw" priority={priority} />
        {extra > 0 ? (
          <span className="absolute right-2 top-2 inline-flex items-center gap-1 rounded bg-ink/85 px-2 py-0.5 text-xs font-semibold text-white">
            <Images className="size-3.5" aria-hidden="true" />+{extra}
            <span className="sr-only"> more images</span>
          </span>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-1 p-3">
        <p className="font-mono text-sm font-bold text-ink">{product.partNumber || product.sku}</p>
        <FitsUnitsBadge units={fitsUnits} />
        <h2 className="line-clamp-2 text-sm leading-snug text-steel group-hover:text-ink">{product.name}</h2>
        <p className="text-xs font-semibold text-ink">
          {displayBrand(product.brandName)} <span className="font-normal text-steel">· {product.category}</span>
        </p>
        {product.tags.length ? (
          <ul className="mt-auto flex flex-wrap gap-1 pt-2" aria-label="Tags">
            {product.tags.slice(0, 3).map((t) => (
              <li key={t} className="rounded bg-zinc-100 px-1.5 py-0.5 text-[11px] text-steel">
                {t}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </Link>
  );
}

/** /catalog: the image gallery, 48 per page, search debounced 500 ms and resetting to page 1. */
export default function GalleryPage() {
  useDocumentTitle('Industrial Parts Image Gallery');
  const [params, setParams] = useSearchParams();
  const [page, setPage] = usePageParam();
  const [text, setText] = useState(params.get('search') ?? '');
  const search = useDebouncedValue(text.trim(), GALLERY_SEARCH_DEBOUNCE_MS);
  const lastSearch = useRef(search);

  // A new search term goes back to page 1 and is kept in the address.
  useEffect(() => {
    if (lastSearch.current === search) return;
    lastSearch.current = search;
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        if (search) p.set('search', search);
        else p.delete('search');
        p.set('page', '1');
        return p;
      },
      { replace: true },
    );
  }, [search, setParams]);

  const machine = useMachine() ?? undefined;
  const q = useCatalogProducts({ page, search, machine });
  const total = q.data?.pagination.totalProducts ?? q.data?.pagination.totalCount ?? 0;
  const totalPages = Math.max(1, q.data?.pagination.totalPages ?? Math.ceil(total / 48));
  // A search counts once the buyer has paused on it a moment (not every word on the way), on its first page.
  const counted = useDebouncedValue(search, 1_500);
  const shown = q.isSuccess && counted === search && search && page === 1 && !machine ? q.data.products.map((p) => p.id).join(',') : null;
  useEffect(() => {
    if (shown !== null) recordSearch(search, total, 'gallery', shown ? shown.split(',') : []);
  }, [search, shown, total]);
  const products = q.data?.products ?? [];
  const clear = () => setText('');

  return (
    <>
      <section className="bg-ink text-white">
        <div className="container-page grid gap-8 py-12 sm:py-16 lg:grid-cols-[1.6fr_1fr] lg:items-end">
          <div>
            <p className="text-sm font-extrabold uppercase tracking-[0.2em] text-safety">Catalogue</p>
            <h1 className="mt-3 font-display text-4xl font-extrabold uppercase leading-none sm:text-6xl">Industrial Parts Image Gallery</h1>
            {/* A GET form, so the search also works from the server's HTML; the app searches as the buyer types. */}
            <form method="get" action="/catalog" role="search" onSubmit={(e) => e.preventDefault()}>
              <SearchField
                id="gallery-search"
                name="search"
                type="text"
                label="Search the gallery"
                placeholder="Search by name, part number, brand..."
                value={text}
                onChange={setText}
                onClear={clear}
                className="mt-8"
              />
            </form>
          </div>
          <dl className="grid grid-cols-3 gap-3">
            {[
              { icon: Tags, value: '150+', label: 'Brands' },
              { icon: Layers, value: '50+', label: 'Categories' },
              { icon: Images, value: q.isSuccess ? formatCount(total) : '—', label: 'Products' },
            ].map((s) => (
              <div key={s.label} className="flex flex-col-reverse rounded-md border border-ink-line bg-ink-soft p-3 text-center">
                <dt className="text-xs font-bold uppercase tracking-wider text-zinc-300">{s.label}</dt>
                <dd className="font-display text-2xl font-extrabold text-safety sm:text-3xl">{s.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <div className="container-page py-8">
        <ProductListing
          query={q}
          products={products}
          machine={machine}
          noFitWhere={search ? `for “${search}”` : 'in the gallery'}
          empty={{
            message: search ? `Nothing matches “${search}”.` : 'The gallery is empty for now.',
            actions: search ? (
              <>
                <Button variant="dark" onClick={clear}>
                  Clear Search
                </Button>
                <AskForQuoteButton search={search} />
              </>
            ) : undefined,
          }}
          above={
            <>
              {search && q.data?.notice?.kind === 'not_stocked' ? (
                <div role="note" className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-ink">
                  <p>
                    We don't keep “{search}” in stock. {q.data.notice.note ?? 'Ask us and we will quote it.'}
                  </p>
                  <AskForQuoteButton search={search} />
                </div>
              ) : null}
              <div className="mb-6 flex flex-col items-center justify-between gap-4 lg:flex-row">
                <p className="text-sm text-steel" aria-live="polite">
                  <span className="font-semibold text-ink">{formatCount(total)}</span> products{search ? ` for “${search}”` : ''} · Page {page} of{' '}
                  {totalPages}
                </p>
                <PageInputPagination page={page} totalPages={totalPages} onChange={setPage} />
              </div>
            </>
          }
          below={
            <div className="mt-10">
              <PageInputPagination page={page} totalPages={totalPages} onChange={setPage} />
            </div>
          }
          gridClassName="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4 xl:grid-cols-6"
          firstCards={FIRST_CARDS}
          card={(p, i) => <GalleryCard product={p} priority={i < 4} fitsUnits={unitsFitting(machine, p.fitsMachines)} />}
        />
      </div>
    </>
  );
}
