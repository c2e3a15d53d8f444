import { titleFromSlug } from '@forgeline/contracts/slug';
import { categoryQuoteText, whatsappLink } from '@forgeline/site-config/whatsapp';
import { MessageCircle } from 'lucide-react';
import { useParams } from 'react-router-dom';
import { PRODUCT_GRID_CLASS, PRODUCT_GRID_FIRST_CARDS, ProductCard } from '../../../components/product/product-card.tsx';
import { Breadcrumb } from '../../../components/ui/breadcrumb.tsx';
import { ButtonLink, ExternalButtonLink } from '../../../components/ui/button.tsx';
import { PageNotFound } from '../../../components/ui/page-not-found.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { site } from '../../../config/site.ts';
import { displayBrand } from '../../../lib/brand.ts';
import { useDocumentTitle } from '../../../lib/document-title.ts';
import { formatCount } from '../../../lib/format-count.ts';
import { usePageParam } from '../../../lib/use-page-param.ts';
import { useMachine } from '../../../lib/use-machine.ts';
import { unitsFitting } from '../../../lib/machine.ts';
import { ProductListing } from '../../listing/components/product-listing.tsx';
import { AddProductToQuoteList } from '../../quote-list/components/add-to-quote-list.tsx';
import { useCategoryProducts } from '../api/get-category-products.ts';


/** /category/:name and /category/:name/:brand — 75 per page, pagination top and bottom (spec section 2). */
export default function CategoryPage() {
  const { name = '', brand } = useParams();
  const [page] = usePageParam();
  const machine = useMachine() ?? undefined;
  const q = useCategoryProducts({ category: name, brand, page, machine });

  const categoryTitle = titleFromSlug(name);
  const brandTitle = brand ? displayBrand(titleFromSlug(brand)) : undefined;
  const title = brandTitle ? `${brandTitle} ${categoryTitle}` : categoryTitle;
  const total = q.data?.pagination.totalProducts ?? q.data?.pagination.totalCount ?? 0;
  const totalPages = q.data?.pagination.totalPages ?? 1;
  useDocumentTitle(q.isError ? 'Category Not Found' : `${title} Parts - Page ${page} of ${totalPages} (${formatCount(total)} products)`);

  if (q.isError) {
    return (
      <PageNotFound title="Category Not Found">We couldn't load this category. It may have moved or no longer exist.</PageNotFound>
    );
  }

  const products = q.data?.products ?? [];
  const pager = <Pagination page={page} totalPages={totalPages} label={`${title} pagination`} />;

  return (
    <>
      <section className="bg-ink text-white">
        <div className="container-page py-10 sm:py-14">
          <Breadcrumb
            items={[
              { label: 'Home', to: '/' },
              { label: 'Categories', to: '/categories' },
              ...(brandTitle ? [{ label: categoryTitle, to: `/category/${name}` }] : []),
              { label: brandTitle ?? categoryTitle },
            ]}
          />
          <h1 className="mt-4 font-display text-4xl font-extrabold uppercase leading-none sm:text-6xl">{title}</h1>
          <div className="mt-5 flex flex-col gap-5 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-zinc-300" aria-live="polite">
              {q.isSuccess ? (
                <>
                  <span className="font-semibold text-white">{formatCount(total)}</span> products · Page {page} of {totalPages} · Showing{' '}
                  {products.length}
                </>
              ) : (
                'Loading products...'
              )}
            </p>
            <ExternalButtonLink href={whatsappLink(categoryQuoteText(title), site.whatsappNumber)} variant="whatsapp">
              <MessageCircle className="size-4" aria-hidden="true" /> Request Quote
            </ExternalButtonLink>
          </div>
        </div>
      </section>
      <div className="container-page py-8">
        <ProductListing
          query={q}
          products={products}
          machine={machine}
          noFitWhere={`in ${title}`}
          empty={{
            message: 'There are no products in this category yet.',
            actions: <ButtonLink to="/categories">Browse all brands</ButtonLink>,
          }}
          above={<div className="mb-6">{pager}</div>}
          below={<div className="mt-10">{pager}</div>}
          gridClassName={PRODUCT_GRID_CLASS}
          firstCards={PRODUCT_GRID_FIRST_CARDS}
          card={(p, i) => <ProductCard product={p} priority={i < 4} action={<AddProductToQuoteList product={p} compact />} fitsUnits={unitsFitting(machine, p.fitsMachines)} />}
        />
      </div>
    </>
  );
}
