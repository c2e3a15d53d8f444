import type { Product, ProductDetail } from '@forgeline/contracts/products';
import { categoryPath } from '@forgeline/contracts/slug';
import { productQuoteText, whatsappLink } from '@forgeline/site-config/whatsapp';
import { ArrowLeft, BadgeCheck, FileQuestion, MessageCircle, PackageX, Share2, ShieldCheck, Truck, Undo2, Zap } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { recordResultUse } from '../../../lib/search-analytics.ts';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { Breadcrumb } from '../../../components/ui/breadcrumb.tsx';
import { AddProductToQuoteList } from '../../quote-list/components/add-to-quote-list.tsx';
import { Button, ButtonLink, buttonClass, ExternalButtonLink } from '../../../components/ui/button.tsx';
import { PageNotFound } from '../../../components/ui/page-not-found.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { StateMessage } from '../../../components/ui/state-message.tsx';
import { site } from '../../../config/site.ts';
import { displayBrand } from '../../../lib/brand.ts';
import { useDocumentTitle } from '../../../lib/document-title.ts';
import { scheduleClearPreloadedProduct, takePreloadedProduct } from '../../../lib/preloaded-product.ts';
import { useServerQuoteForm } from '../../../lib/server-quote-form.ts';
import { QuoteRequestForm } from '../../quotes/components/quote-request-form.tsx';
import { ProductGoneError, useProduct } from '../api/get-product.ts';
import { PartHistorySections, ReplacedByNotice, WhereUsedSection } from './part-history.tsx';
import { ProductGallery } from './product-gallery.tsx';
import { ProductTabs } from './product-tabs.tsx';

export interface QuoteDialogSlotProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  product: { id: string; name: string; sku: string; partNumber: string };
}

const MOBILE_TAG_LIMIT = 3;

const TRUST = [
  { icon: BadgeCheck, label: 'OEM & genuine quality' },
  { icon: Truck, label: 'Worldwide tracked shipping' },
  { icon: Undo2, label: '30-day returns' },
  { icon: ShieldCheck, label: 'Secure payments' },
];

async function share(product: Product) {
  const url = window.location.href;
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title: product.name, text: `${product.name} (${product.sku})`, url });
      return;
    } catch (e) {
      if ((e as Error).name === 'AbortError') return;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    toast.success('Link copied', { description: 'The product address is on your clipboard.' });
  } catch {
    toast.error('Could not copy the link', { description: url });
  }
}

function ProductView({ product, quoteDialog }: { product: ProductDetail; quoteDialog?: (p: QuoteDialogSlotProps) => ReactNode }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  const quoteParam = params.get('quote');
  const serverQuoteForm = useServerQuoteForm();
  const [quoteOpen, setQuoteOpen] = useState(false);
  // ?quote=1 (where "Get Instant Quote" leads) opens the dialog; after mounting, so the first render matches the server's.
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- after hydration: the server's HTML has the dialog closed
    if (quoteParam === '1') setQuoteOpen(true);
  }, [quoteParam]);
  const onQuoteOpenChange = (open: boolean) => {
    setQuoteOpen(open);
    if (!open && quoteParam) {
      setParams(
        (prev) => {
          const p = new URLSearchParams(prev);
          p.delete('quote');
          return p;
        },
        { replace: true },
      );
    }
  };
  const images = product.images.length ? product.images : product.imageUrl ? [product.imageUrl] : [];
  const brand = product.brandName || product.brand;
  const extraTags = Math.max(0, product.tags.length - MOBILE_TAG_LIMIT);
  useDocumentTitle(`${product.name} (${product.partNumber || product.sku})`);

  return (
    <div className="container-page py-6 sm:py-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Breadcrumb
          tone="light"
          items={[
            { label: 'Home', to: '/' },
            { label: 'Products', to: '/catalog' },
            { label: product.category, to: categoryPath(product.category) },
            { label: product.name },
          ]}
        />
        <Link
          to="/catalog"
          className={buttonClass('ghost', 'sm')}
          onClick={(e) => {
            if (window.history.length > 1) {
              e.preventDefault();
              void navigate(-1);
            }
          }}
        >
          <ArrowLeft className="size-4" aria-hidden="true" /> Back
        </Link>
      </div>

      {product.replacedBy ? <ReplacedByNotice replacedBy={product.replacedBy} /> : null}

      <div className="mt-6 grid gap-8 lg:grid-cols-2 lg:gap-12">
        <ProductGallery productId={product.id} name={product.name} images={images} />

        <div>
          <div className="flex flex-wrap items-center gap-2">
            <Link
              to={categoryPath(product.category, brand)}
              className="rounded bg-ink px-2.5 py-1 text-xs font-bold uppercase tracking-wider text-safety hover:bg-ink-soft"
            >
              {displayBrand(brand)}
            </Link>
            <Link
              to={categoryPath(product.category)}
              className="rounded border border-zinc-300 bg-white px-2.5 py-1 text-xs font-semibold text-steel hover:border-ink hover:text-ink"
            >
              {product.category}
            </Link>
            <span
              className={
                product.inStock
                  ? 'rounded bg-emerald-100 px-2.5 py-1 text-xs font-bold text-emerald-800'
                  : 'rounded bg-zinc-200 px-2.5 py-1 text-xs font-bold text-zinc-700'
              }
            >
              {product.inStock ? product.availability || 'In Stock' : 'Out of Stock'}
            </span>
          </div>

          <h1 className="mt-4 font-display text-2xl font-extrabold uppercase leading-tight text-ink sm:text-3xl xl:text-4xl">{product.name}</h1>

          <dl className="mt-5 grid grid-cols-2 gap-3 text-sm">
            <div className="rounded-md border border-zinc-200 bg-white p-3">
              <dt className="text-xs font-bold uppercase tracking-wider text-steel">SKU</dt>
              <dd className="mt-0.5 break-all font-mono font-semibold text-ink">{product.sku}</dd>
            </div>
            <div className="rounded-md border border-zinc-200 bg-white p-3">
              <dt className="text-xs font-bold uppercase tracking-wider text-steel">Part Number</dt>
              <dd className="mt-0.5 break-all font-mono font-semibold text-ink">{product.partNumber || 'N/A'}</dd>
            </div>
          </dl>

          {product.tags.length ? (
            <ul className="mt-4 flex flex-wrap gap-1.5" aria-label="Tags">
              {product.tags.map((t, i) => (
                <li key={t} className={`${i >= MOBILE_TAG_LIMIT ? 'hidden sm:block' : ''} rounded bg-zinc-200/70 px-2 py-0.5 text-xs text-ink`}>
                  {t}
                </li>
              ))}
              {extraTags > 0 ? (
                <li className="rounded bg-zinc-200/70 px-2 py-0.5 text-xs font-semibold text-ink sm:hidden" aria-label={`${extraTags} more tags`}>
                  +{extraTags}
                </li>
              ) : null}
            </ul>
          ) : null}

          {product.description ? <p className="mt-5 leading-relaxed text-steel">{product.description}</p> : null}

          <div className="mt-6 grid gap-3 sm:grid-cols-2">
            {/* A link, so it works before the app has started (and without JavaScript, to the form below); the app opens the dialog. */}
            <a
              href={`${pathname}?quote=1#quote`}
              className={buttonClass('primary', 'lg')}
              onClick={(e) => {
                e.preventDefault();
                setQuoteOpen(true);
              }}
            >
              <Zap className="size-5" aria-hidden="true" /> Get Instant Quote
            </a>
            <ExternalButtonLink href={whatsappLink(productQuoteText(product), site.whatsappNumber)} variant="whatsapp" size="lg">
              <MessageCircle className="size-5" aria-hidden="true" /> Chat on WhatsApp
            </ExternalButtonLink>
          </div>
          <div className="mt-3">
            <AddProductToQuoteList product={product} />
          </div>
          <Button variant="ghost" size="sm" className="mt-3" onClick={() => void share(product)}>
            <Share2 className="size-4" aria-hidden="true" /> Share
          </Button>

          <ul className="mt-6 grid grid-cols-2 gap-3 border-t border-zinc-200 pt-6">
            {TRUST.map((t) => (
              <li key={t.label} className="flex items-center gap-2 text-sm font-medium text-ink">
                <t.icon className="size-5 shrink-0 text-safety-deep" aria-hidden="true" /> {t.label}
              </li>
            ))}
          </ul>
        </div>
      </div>

      {quoteParam === '1' || quoteParam === 'sent' ? (
        // Without JavaScript the browser shows this form; with it, React and the browser ignore a <noscript>'s content.
        <noscript>
          <QuoteRequestForm product={product} state={serverQuoteForm} sent={quoteParam === 'sent'} />
        </noscript>
      ) : null}

      <PartHistorySections fits={product.fits} replaces={product.replaces} crossReferences={product.crossReferences} />
      <WhereUsedSection whereUsed={product.whereUsed} />

      <div className="mt-10">
        <ProductTabs product={product} />
      </div>

      {quoteDialog
        ? quoteDialog({
            open: quoteOpen,
            onOpenChange: onQuoteOpenChange,
            product: { id: product.id, name: product.name, sku: product.sku, partNumber: product.partNumber },
          })
        : null}
    </div>
  );
}

/** Any path starting with /products/{id} (spec section 2, product detail). */
export default function ProductPage({ quoteDialog }: { quoteDialog?: (p: QuoteDialogSlotProps) => ReactNode }) {
  const { id = '' } = useParams();
  const [preloaded] = useState(() => takePreloadedProduct(id));
  useEffect(() => scheduleClearPreloadedProduct(), []);
  const q = useProduct(id, preloaded && preloaded.id === id ? preloaded : undefined);
  const openedId = q.data?.id;
  useEffect(() => {
    if (openedId) recordResultUse('open', openedId);
  }, [openedId]);

  if (!id) {
    return (
      <StateMessage headingLevel={1} icon={FileQuestion} title="Invalid Product URL" actions={<ButtonLink to="/catalog">Browse the catalog</ButtonLink>}>
        Please use a valid product URL format.
      </StateMessage>
    );
  }
  if (q.isPending) return <Spinner label="Loading product..." />;
  if (q.error instanceof ProductGoneError) {
    const { category, categoryPath } = q.error;
    return (
      <StateMessage
        headingLevel={1}
        icon={PackageX}
        title="Part No Longer Available"
        actions={
          <>
            {categoryPath ? <ButtonLink to={categoryPath}>See other {category} parts</ButtonLink> : null}
            <ButtonLink to="/catalog" variant="outline">
              Browse the catalog
            </ButtonLink>
          </>
        }
      >
        This part is no longer sold here. Ask us for an alternative, or see what we have in its category.
      </StateMessage>
    );
  }
  if (q.isError) {
    return (
      <PageNotFound
        icon={PackageX}
        title="Product Not Found"
        moreActions={
          <ButtonLink to="/catalog" variant="outline">
            Browse the catalog
          </ButtonLink>
        }
      >
        The product you're looking for doesn't exist.
      </PageNotFound>
    );
  }
  return <ProductView product={q.data} quoteDialog={quoteDialog} />;
}
