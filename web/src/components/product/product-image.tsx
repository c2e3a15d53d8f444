import { useState, type ImgHTMLAttributes } from 'react';
import { FALLBACK_PRODUCT_IMAGE, productImageSources } from '../../lib/product-image.ts';

/**
 * A product photo: srcset for processed media images, the fallback picture when the URL fails,
 * lazy and async-decoded unless `priority` (the one image above the fold).
 */
export function ProductImage({
  src,
  alt,
  sizes,
  width,
  height,
  displayWidth,
  priority = false,
  className,
  ...rest
}: Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet' | 'width' | 'height'> & {
  src: string;
  alt: string;
  sizes: string;
  width: number;
  height: number;
  displayWidth?: number;
  priority?: boolean;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const broken = failed === src;
  const sources = broken ? { src: FALLBACK_PRODUCT_IMAGE } : productImageSources(src, sizes, displayWidth);
  return (
    <img
      {...rest}
      src={sources.src}
      srcSet={sources.srcSet}
      sizes={sources.srcSet ? sources.sizes : undefined}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? 'eager' : 'lazy'}
      decoding="async"
      fetchPriority={priority ? 'high' : undefined}
      className={className}
      onError={() => {
        if (!broken && src !== FALLBACK_PRODUCT_IMAGE) setFailed(src);
      }}
    />
  );
}
