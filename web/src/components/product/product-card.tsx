import type { ProductSummary } from '@forgeline/contracts/products';
import { productPath } from '@forgeline/contracts/slug';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { FirstScreenGrid } from '../ui/first-screen-grid.tsx';
import { altCodeMatchLabel } from '../../lib/alt-code-match.ts';
import { displayBrand } from '../../lib/brand.ts';
import { primaryImage } from '../../lib/product-image.ts';
import { ProductImage } from './product-image.tsx';

/**
 * A listing card's square photo (the product's first image at 480 px); `sizes` follows the grid's columns. Used by
 * the gallery and brand cards too. It lives in this module, which the entry already holds, because as a file of
 * its own it made the bundler split the chevron icons out of the entry into one more chunk to load.
 */
export function ProductCardImage({
  product,
  sizes,
  priority,
  className = 'size-full object-contain p-3',
}: {
  product: ProductSummary;
  sizes: string;
  priority: boolean;
  className?: string;
}) {
  return (
    <ProductImage
      src={primaryImage(product)}
      alt={product.name}
      width={480}
      height={480}
      sizes={sizes}
      priority={priority}
      className={className}
    />
  );
}

/** In a listing narrowed to a buyer's fleet: "Fits Haul truck 07, Loader 2" (nothing otherwise). */
export function FitsUnitsBadge({ units }: { units: string[] | undefined }) {
  return units?.length ? <p className="self-start rounded bg-emerald-50 px-1.5 py-0.5 text-xs font-semibold text-emerald-800">Fits {units.join(', ')}</p> : null;
}

/**
 * Card of the category and search result grids (spec section 2, category page). `action` goes under the card's link:
 * the page that shows the card puts "Add to quote list" there (the quote-list feature's, which this shared card does
 * not import).
 */
export function ProductCard({
  product,
  priority = false,
  action,
  fitsUnits,
}: {
  product: ProductSummary;
  priority?: boolean;
  action?: ReactNode;
  /** In a listing narrowed to the buyer's fleet: the names of their units this part fits. */
  fitsUnits?: string[];
}) {
  // A search hit found by an older number it replaces or another maker's number says so.
  const matchLabel = altCodeMatchLabel(product.match);
  return (
    <article className="render-when-near flex h-full flex-col overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-sm transition hover:-translate-y-0.5 hover:border-ink hover:shadow-md">
      <Link to={productPath(product)} className="group flex flex-1 flex-col">
        <div className="relative aspect-square overflow-hidden bg-zinc-100">
          <ProductCardImage
            product={product}
            sizes="(min-width: 1280px) 300px, (min-width: 640px) 33vw, 50vw"
            priority={priority}
            className="size-full object-contain p-3 transition-transform duration-300 group-hover:scale-105"
          />
          {product.inStock ? (
            <span className="absolute left-2 top-2 rounded bg-emerald-700 px-2 py-0.5 text-xs font-semibold text-white">In Stock</span>
          ) : null}
        </div>
        <div className="flex flex-1 flex-col gap-1.5 p-3 sm:p-4">
          <h2 className="line-clamp-2 text-sm font-bold uppercase leading-snug text-ink group-hover:underline sm:text-base">
            {product.name}
          </h2>
          <p className="text-xs text-steel sm:text-sm">
            Part #: <span className="font-mono font-semibold text-ink">{product.partNumber || 'N/A'}</span>
          </p>
          <FitsUnitsBadge units={fitsUnits} />
          {matchLabel ? (
            <p className="self-start rounded bg-safety/25 px-1.5 py-0.5 font-mono text-xs font-semibold text-ink break-all">{matchLabel}</p>
          ) : null}
          <div className="mt-auto flex flex-wrap gap-1.5 pt-2 text-xs">
            <span className="rounded bg-ink px-2 py-0.5 font-semibold text-safety">{displayBrand(product.brandName)}</span>
            <span className="rounded bg-zinc-100 px-2 py-0.5 text-steel">{product.category}</span>
          </div>
        </div>
      </Link>
      {action}
    </article>
  );
}

/** Cards rendered with the page (more than a 1440 px screen shows above the fold). */
export const PRODUCT_GRID_FIRST_CARDS = 15;

/** The product grid's columns: two on a phone, five on a wide screen. */
export const PRODUCT_GRID_CLASS = 'grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4 xl:grid-cols-5';

/** A listing's cards: the first screenful with the page, the rest as the visitor scrolls (FirstScreenGrid). */
export function ProductGrid({
  products,
  priorityCount = 0,
  action,
  fits,
}: {
  products: ProductSummary[];
  priorityCount?: number;
  /** Each card's action (ProductCard's `action`). */
  action?: (product: ProductSummary) => ReactNode;
  /** Each card's fleet units it fits (ProductCard's `fitsUnits`). */
  fits?: (product: ProductSummary) => string[];
}) {
  return (
    <FirstScreenGrid
      items={products}
      first={PRODUCT_GRID_FIRST_CARDS}
      className={PRODUCT_GRID_CLASS}
      gapClassName="mt-3 sm:mt-4"
    >
      {(p, i) => <ProductCard product={p} priority={i < priorityCount} action={action?.(p)} fitsUnits={fits?.(p)} />}
    </FirstScreenGrid>
  );
}
