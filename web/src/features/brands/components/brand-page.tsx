import type { ProductSummary } from '@forgeline/contracts/products';
import { productPath, titleFromSlug } from '@forgeline/contracts/slug';
import { productDetailsText, productQuoteText, WHATSAPP_GREETING, whatsappLink } from '@forgeline/site-config/whatsapp';
import { FileText, MessageCircle } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { FitsUnitsBadge, PRODUCT_GRID_CLASS, PRODUCT_GRID_FIRST_CARDS, ProductCardImage } from '../../../components/product/product-card.tsx';
import { unitsFitting } from '../../../lib/machine.ts';
import { Breadcrumb } from '../../../components/ui/breadcrumb.tsx';
import { ExternalButtonLink } from '../../../components/ui/button.tsx';
import { PageNotFound } from '../../../components/ui/page-not-found.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { SearchField } from '../../../components/ui/search-field.tsx';
import { site } from '../../../config/site.ts';
import { displayBrand } from '../../../lib/brand.ts';
import { useDocumentTitle } from '../../../lib/document-title.ts';
import { formatCount } from '../../../lib/format-count.ts';
import { usePageParam } from '../../../lib/use-page-param.ts';
import { useMachine } from '../../../lib/use-machine.ts';
import { ProductListing } from '../../listing/components/product-listing.tsx';
import { useBrandProducts } from '../api/get-brand-products.ts';

const NO_PRODUCTS: ProductSummary[] = [];

function BrandProductCard({ product, priority, fitsUnits }: { product: ProductSummary; priority: boolean; fitsUnits: string[] }) {
  return (
    <article className="flex h-full flex-col overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-sm">
      <Link to={productPath(product)} className="group block">
        <div className="aspect-square bg-zinc-100">
          <ProductCardImage product={product} sizes="(min-width: 1280px) 300px, (min-width: 640px) 33vw, 50vw" priority={priority} />
        </div>
        <h2 className="line-clamp-2 px-4 pt-3 text-sm font-bold uppercase leading-snug text-ink group-hover:underline">{product.name}</h2>
      </Link>
      <div className="flex flex-1 flex-col px-4 pb-4">
        <p className="mt-1 text-xs text-steel">
          SKU: <span className="font-mono text-ink">{product.sku}</span>
        </p>
        <p className="text-xs text-steel">{product.category}</p>
        {fitsUnits.length ? (
          <div className="mt-1">
            <FitsUnitsBadge units={fitsUnits} />
          </div>
        ) : null}
        <div className="mt-auto grid grid-cols-1 gap-2 pt-4 sm:grid-cols-2">
          <ExternalButtonLink href={whatsappLink(productQuoteText(product), site.whatsappNumber)} variant="primary" size="sm" aria-label={`Quote: ${product.name}`}>
            <MessageCircle className="size-4" aria-hidden="true" /> Quote
          </ExternalButtonLink>
          <ExternalButtonLink href={whatsappLink(productDetailsText(product), site.whatsappNumber)} variant="outline" size="sm" aria-label={`Details: ${product.name}`}>
            <FileText className="size-4" aria-hidden="true" /> Details
          </ExternalButtonLink>
        </div>
      </div>
    </article>
  );
}

/** /brands-available/:brand?page=n (spec section 2, brand page). */
export default function BrandPage() {
  const { brand = '' } = useParams();
  const [page] = usePageParam();
  const [filter, setFilter] = useState('');
  const machine = useMachine() ?? undefined;
  const q = useBrandProducts({ brand, page, machine });

  const brandName = displayBrand(q.data?.brand.name ?? titleFromSlug(brand));
  const total = q.data?.pagination.totalProducts ?? q.data?.pagination.totalCount ?? 0;
  const totalPages = q.data?.pagination.totalPages ?? 1;
  useDocumentTitle(q.isError ? 'Brand Not Found' : `${brandName} Parts${page > 1 ? ` - Page ${page}` : ''}`);

  const products = q.data?.products ?? NO_PRODUCTS;
  const visible = useMemo(() => {
    const f = filter.trim().toLowerCase();
    if (!f) return products;
    return products.filter((p) => [p.name, p.sku, p.category].some((v) => v.toLowerCase().includes(f)));
  }, [products, filter]);

  if (q.isError) {
    return (
      <PageNotFound title="Brand Not Found">We couldn't find parts for this brand.</PageNotFound>
    );
  }

  return (
    <>
      <section className="bg-ink text-white">
        <div className="container-page py-10 sm:py-14">
          <Breadcrumb items={[{ label: 'Home', to: '/' }, { label: 'Brands', to: '/categories' }, { label: brandName }]} />
          <h1 className="mt-4 font-display text-4xl font-extrabold uppercase leading-none sm:text-6xl">{brandName} Parts</h1>
          <p className="mt-4 text-zinc-300" aria-live="polite">
            {q.isSuccess ? (
              <>
                Showing {filter ? visible.length : products.length} of <span className="font-semibold text-white">{formatCount(total)}</span> products
                {totalPages > 1 ? ` · Page ${page} of ${totalPages}` : ''}
              </>
            ) : (
              'Loading products...'
            )}
          </p>
          <SearchField
            id="brand-page-filter"
            label="Filter this page by name, SKU or category"
            placeholder="Filter by name, SKU or category..."
            value={filter}
            onChange={setFilter}
            className="mt-6"
          />
        </div>
      </section>
      <div className="container-page py-8">
        <ProductListing
          query={q}
          products={products}
          shown={visible}
          machine={machine}
          noFitWhere={`among ${brandName} parts`}
          empty={{ message: filter ? `Nothing on this page matches “${filter}”.` : 'No products for this brand yet.' }}
          gridClassName={PRODUCT_GRID_CLASS}
          firstCards={PRODUCT_GRID_FIRST_CARDS}
          card={(p, i) => <BrandProductCard product={p} priority={i < 4} fitsUnits={unitsFitting(machine, p.fitsMachines)} />}
        />
        <div className="mt-10">
          <Pagination page={page} totalPages={totalPages} label={`${brandName} pagination`} />
        </div>
        <aside className="mt-14 rounded-lg border-2 border-ink bg-white p-8">
          <h2 className="font-display text-2xl font-bold uppercase text-ink">Need help finding a {brandName} part?</h2>
          <p className="mt-2 text-steel">
            Send us the part number, serial number or a photo and our specialists will confirm fitment and price, usually within hours.
          </p>
          <ExternalButtonLink href={whatsappLink(WHATSAPP_GREETING, site.whatsappNumber)} variant="whatsapp" className="mt-5">
            <MessageCircle className="size-4" aria-hidden="true" /> Chat on WhatsApp
          </ExternalButtonLink>
        </aside>
      </div>
    </>
  );
}
