import type { ProductSummary } from '@forgeline/contracts/products';
import { primaryImage } from '../../lib/product-image.ts';
import { ProductImage } from './product-image.tsx';

/** A listing card's square photo (the product's first image at 480 px); `sizes` follows the grid's columns. */
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
