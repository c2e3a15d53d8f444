import { describe, expect, it } from 'vitest';
import { productImagePath } from '@forgeline/contracts/media-paths';
import { FALLBACK_PRODUCT_IMAGE, primaryImage, productImageSources } from './product-image.ts';

const hash = '0123456789abcdef0123';

describe('product images', () => {
  it('gives a processed photo a srcset over every variant the media worker writes', () => {
    const stored = productImagePath(hash, 480, 'webp');
    const sources = productImageSources(stored, '(min-width: 640px) 25vw, 50vw', 300);
    expect(sources.src).toBe(`/media/products/${hash}-480.webp`);
    expect(sources.srcSet).toBe(
      `/media/products/${hash}-160.webp 160w, /media/products/${hash}-480.webp 480w, /media/products/${hash}-1200.webp 1200w`,
    );
    expect(sources.sizes).toBe('(min-width: 640px) 25vw, 50vw');
    expect(productImageSources(stored, '100vw', 1000).src).toBe(`/media/products/${hash}-1200.webp`);
  });

  it('uses a seeded drawing or an outside address as it is', () => {
    const drawing = '/media/generated/hydraulic-filters/caterpillar/1r-0750.svg';
    expect(productImageSources(drawing, '50vw')).toEqual({ src: drawing });
  });

  it('shows the first image, else imageUrl, else the fallback', () => {
    expect(primaryImage({ images: ['', '/a.webp'], imageUrl: '/b.svg' })).toBe('/a.webp');
    expect(primaryImage({ images: [], imageUrl: '/b.svg' })).toBe('/b.svg');
    expect(primaryImage({ images: null, imageUrl: '' })).toBe(FALLBACK_PRODUCT_IMAGE);
  });
});
