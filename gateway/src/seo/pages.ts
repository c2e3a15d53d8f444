/** What each storefront route says about itself in <head>. Pure: data in, HeadTags out. */
import type { Product } from '@forgeline/contracts/products';
import type { AssemblyPage, MachinePage } from '@forgeline/contracts/parts-diagrams';
import { assemblyPath, categoryPath, machinePath, productPath, titleFromSlug } from '@forgeline/contracts/slug';
import { PRELOADED_PRODUCT_ID } from '@forgeline/contracts/ssr';
import { heroSlides } from '@forgeline/site-config/hero-slides';
import { policies, type PolicyKind } from '@forgeline/site-config/policies';
import type { SiteConfig } from '@forgeline/site-config/site';
import { clip, type HeadTags } from './html.ts';

export interface PageContext {
  site: SiteConfig;
  /** Public origin without a trailing slash, e.g. https://www.forgelineparts.com */
  publicUrl: string;
}

export interface PageHead {
  status: number;
  tags: HeadTags;
}

const NOINDEX = 'noindex, follow';

export const absolute = (ctx: PageContext, pathOrUrl: string) =>
  /^https?:\/\//i.test(pathOrUrl) ? pathOrUrl : `${ctx.publicUrl}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`;

const defaultImage = (ctx: PageContext) => absolute(ctx, heroSlides[0]?.image ?? ctx.site.logoPath);

/** Media-service variants (`<hash>-<width>.webp`) and the sizes the product gallery asks for; mirrors web/src/lib/product-image.ts. */
const PROCESSED_IMAGE = /^(\/media\/products\/.+\/[^/]+?)-(\d+)\.webp$/;
const VARIANT_WIDTHS = [160, 480, 1200];
const GALLERY_SIZES = '(min-width: 1024px) 600px, 100vw';

/** The preload for a product's first image, matching what the gallery's <img> will request. */
export function productImagePreload(url: string): NonNullable<HeadTags['preloadImages']>[number] {
  const m = PROCESSED_IMAGE.exec(url);
  if (!m) return { href: url };
  return {
    href: `${m[1]}-1200.webp`,
    srcset: VARIANT_WIDTHS.map((w) => `${m[1]}-${w}.webp ${w}w`).join(', '),
    sizes: GALLERY_SIZES,
  };
}

/** Product-card images; mirrors components/product/product-card.tsx (sizes) and web/src/lib/product-image.ts. */
const CARD_SIZES = '(min-width: 1280px) 300px, (min-width: 640px) 33vw, 50vw';

/**
 * The preload for the first product card of a listing (its largest paint on phones), matching the card's <img>:
 * the first of `images`, else `imageUrl`; processed photos with the card's srcset and sizes.
 */
export function cardImagePreload(p: { images?: readonly string[] | null; imageUrl?: string | null }): NonNullable<HeadTags['preloadImages']> {
  const url = p.images?.find((u) => u && u.trim()) || p.imageUrl;
  if (!url) return [];
  const m = PROCESSED_IMAGE.exec(url);
  if (!m) return [{ href: url }];
  return [{ href: `${m[1]}-480.webp`, srcset: VARIANT_WIDTHS.map((w) => `${m[1]}-${w}.webp ${w}w`).join(', '), sizes: CARD_SIZES }];
}

/** The first hero slide, as the home page's <img srcset> asks for it (the 800 px copy sits beside each image). */
function heroPreload(): NonNullable<HeadTags['preloadImages']> {
  const first = heroSlides[0];
  if (!first) return [];
  return [{ href: first.image, srcset: `${first.image.replace(/\.webp$/, '-800.webp')} 800w, ${first.image} 1600w`, sizes: '100vw' }];
}

function basic(
  ctx: PageContext,
  o: { title: string; description: string; path?: string; robots?: string; status?: number; jsonLd?: unknown[] },
): PageHead {
  const title = o.title.includes(ctx.site.name) ? o.title : `${o.title} | ${ctx.site.name}`;
  const url = o.path === undefined ? undefined : absolute(ctx, o.path);
  return {
    status: o.status ?? 200,
    tags: {
      title,
      description: o.description,
      canonical: o.robots ? undefined : url,
      robots: o.robots,
      openGraph: {
        type: 'website',
        site_name: ctx.site.name,
        title,
        description: o.description,
        url,
        image: defaultImage(ctx),
      },
      jsonLd: o.jsonLd ?? [],
    },
  };
}

function breadcrumbs(ctx: PageContext, items: { name: string; path: string }[]) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: items.map((item, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: item.name,
      item: absolute(ctx, item.path),
    })),
  };
}

function collectionPage(ctx: PageContext, name: string, description: string, path: string) {
  return { '@context': 'https://schema.org', '@type': 'CollectionPage', name, description, url: absolute(ctx, path), isPartOf: { '@type': 'WebSite', name: ctx.site.name, url: absolute(ctx, '/') } };
}

const policyHead = (ctx: PageContext, kind: PolicyKind) => {
  const p = policies[kind];
  return basic(ctx, { title: p.title, description: p.summary, path: p.path });
};

/** Routes that need no catalog data. `null` = not a known static route. */
export function staticPageHead(ctx: PageContext, pathname: string, search: URLSearchParams): PageHead | null {
  const { site } = ctx;
  switch (pathname) {
    case '/': {
      const q = search.get('search')?.trim();
      if (q) {
        return basic(ctx, {
          title: `Search results for "${clip(q, 60)}"`,
          description: `Industrial spare parts matching "${clip(q, 60)}" at ${site.name}.`,
          robots: NOINDEX,
        });
      }
      const home = basic(ctx, {
        title: `${site.name} | ${site.tagline}`,
        description: site.description,
        path: '/',
        jsonLd: [
          {
            '@context': 'https://schema.org',
            '@type': 'Organization',
            name: site.name,
            url: absolute(ctx, '/'),
            logo: absolute(ctx, site.logoPath),
            foundingDate: String(site.establishedYear),
            email: site.email,
            telephone: site.phone,
          },
          {
            '@context': 'https://schema.org',
            '@type': 'WebSite',
            name: site.name,
            url: absolute(ctx, '/'),
            potentialAction: {
              '@type': 'SearchAction',
              target: `${absolute(ctx, '/')}?search={search_term_string}`,
              'query-input': 'required name=search_term_string',
            },
          },
        ],
      });
      return { ...home, tags: { ...home.tags, preloadImages: heroPreload() } };
    }
    case '/categories': {
      const description = `Browse industrial spare parts by brand and category: ${site.stats.products} parts from 150+ brands at ${site.name}.`;
      return basic(ctx, {
        title: 'Browse by Brand',
        description,
        path: '/categories',
        jsonLd: [
          collectionPage(ctx, 'Browse by Brand', description, '/categories'),
          breadcrumbs(ctx, [
            { name: 'Home', path: '/' },
            { name: 'Categories', path: '/categories' },
          ]),
        ],
      });
    }
    case '/catalog': {
      // The gallery's own pages are canonical (?page=n); a gallery search is not indexed.
      const q = search.get('search')?.trim();
      const n = Number(search.get('page'));
      const page = Number.isInteger(n) && n > 1 ? n : 1;
      const path = page > 1 ? `/catalog?page=${page}` : '/catalog';
      const description = `See photos of ${site.stats.products} industrial spare parts with part codes, brands and categories.`;
      return basic(ctx, {
        title: `Industrial Parts Image Gallery${page > 1 ? ` - Page ${page}` : ''}`,
        description,
        path,
        robots: q ? NOINDEX : undefined,
        jsonLd: [
          collectionPage(ctx, 'Industrial Parts Image Gallery', description, path),
          breadcrumbs(ctx, [
            { name: 'Home', path: '/' },
            { name: 'Image Gallery', path: '/catalog' },
          ]),
        ],
      });
    }
    case '/about':
      return basic(ctx, {
        title: 'About Us',
        description: `${site.name}: established ${site.establishedYear}, ${site.stats.clients} clients in ${site.stats.countries} countries. ${site.description}`,
        path: '/about',
      });
    case '/contact':
      return basic(ctx, {
        title: 'Contact Us',
        description: `Call ${site.phone}, e-mail ${site.email} or chat on WhatsApp. ${site.businessHours}. We reply within 24 hours.`,
        path: '/contact',
      });
    case '/quote':
      // The buyer's own list (kept in their browser): nothing for a search engine.
      return basic(ctx, {
        title: 'Quote List',
        description: `Ask ${site.name} for one quote on many parts: collect them, or paste your parts list.`,
        path: '/quote',
        robots: 'noindex, follow',
      });
    case '/faq':
      return basic(ctx, {
        title: 'Frequently Asked Questions',
        description: 'Answers about ordering, shipping, payment, returns, international orders and technical support.',
        path: '/faq',
      });
    case '/privacy':
    case '/refund-policy':
    case '/shipping-policy':
    case '/disclaimer':
      return policyHead(ctx, pathname.slice(1) as PolicyKind);
    case '/admin':
      return basic(ctx, { title: 'Admin', description: `${site.name} administration.`, robots: 'noindex, nofollow' });
    default:
      return null;
  }
}

export function notFoundHead(ctx: PageContext, what = 'Page'): PageHead {
  return basic(ctx, {
    title: `${what} Not Found`,
    description: `The ${what.toLowerCase()} you're looking for doesn't exist. Browse ${ctx.site.stats.products} industrial spare parts at ${ctx.site.name}.`,
    robots: 'noindex',
    status: 404,
  });
}

/** A buyer's quote page: private (its link is the key), so never indexed, and its title names only the reference. */
export function quoteViewHead(ctx: PageContext, reference: string | null, status = 200): PageHead {
  const head = basic(ctx, {
    title: reference ? `Quote ${reference}` : 'Quote Link Not Valid',
    description: reference ? `Your quotation ${reference} from ${ctx.site.name}.` : `This quote link is not valid. Ask ${ctx.site.name} for a new quote.`,
    robots: 'noindex, nofollow',
    status,
  });
  // The address is the key: no link on the page may carry it away, whatever header an edge in front sets.
  return { ...head, tags: { ...head.tags, referrer: 'no-referrer', openGraph: { ...head.tags.openGraph, url: undefined } } };
}

/** A part the seller took off the storefront: 410 (search engines drop it), with its category as the way on. */
export function goneHead(ctx: PageContext, gone?: { category: string; categoryPath: string }): PageHead {
  return basic(ctx, {
    title: 'Part No Longer Available',
    description: gone
      ? `This part is no longer sold at ${ctx.site.name}. See the other ${gone.category} parts.`
      : `This part is no longer sold at ${ctx.site.name}.`,
    robots: 'noindex',
    status: 410,
  });
}

/** Product pages: Product and BreadcrumbList JSON-LD, the product preloaded for the web app. */
export function productHead(ctx: PageContext, product: Product): PageHead {
  const { site } = ctx;
  const path = productPath(product);
  const url = absolute(ctx, path);
  const brand = product.brandName === 'Generic' ? 'OEM/Genuine' : product.brandName;
  const images = (product.images.length ? product.images : product.imageUrl ? [product.imageUrl] : []).map((i) => absolute(ctx, i));
  const code = product.partNumber || product.sku;
  const title = `${product.name}${code && !product.name.includes(code) ? ` (${code})` : ''} | ${brand} | ${site.name}`;
  // The numbers a buyer may search with (old ones it supersedes, other makers'): in the description and the JSON-LD,
  // so a web search for an old number finds today's part.
  const otherNumbers = [
    ...(product.replaces?.length ? [`Replaces ${product.replaces.join(', ')}.`] : []),
    ...(product.crossReferences?.length ? [`Cross-reference: ${product.crossReferences.map((x) => `${x.brand} ${x.partNumber}`).join(', ')}.`] : []),
  ].join(' ');
  const baseDescription =
    product.description.trim() ||
    `${product.name}, part number ${code}, ${brand} ${product.category} part. ${product.availability}. Request a quote from ${site.name}: worldwide shipping to ${site.stats.countries} countries.`;
  const description = otherNumbers ? `${otherNumbers} ${baseDescription}` : baseDescription;
  const additionalProperty = [
    ...(product.replaces ?? []).map((n) => ({ '@type': 'PropertyValue', name: 'Replaces part number', value: n })),
    ...(product.crossReferences ?? []).map((x) => ({ '@type': 'PropertyValue', name: `${x.brand} part number`, value: x.partNumber })),
    ...(product.fits ?? []).map((f) => ({
      '@type': 'PropertyValue',
      name: 'Fits',
      value: `${f.make} ${f.model}${f.serialFrom || f.serialTo ? ` (serial ${f.serialFrom ?? ''}-${f.serialTo ?? ''})` : ''}`,
    })),
  ];
  const categoryUrlPath = categoryPath(product.category);
  return {
    status: 200,
    tags: {
      title,
      description,
      canonical: url,
      openGraph: {
        type: 'product',
        site_name: site.name,
        title,
        description,
        url,
        image: images[0] ?? defaultImage(ctx),
      },
      jsonLd: [
        {
          '@context': 'https://schema.org',
          '@type': 'Product',
          name: product.name,
          sku: product.sku,
          ...(product.partNumber ? { mpn: product.partNumber } : {}),
          brand: { '@type': 'Brand', name: brand },
          category: product.category,
          description: clip(description, 5000),
          url,
          ...(images.length ? { image: images } : {}),
          ...(additionalProperty.length ? { additionalProperty } : {}),
        },
        breadcrumbs(ctx, [
          { name: 'Home', path: '/' },
          { name: 'Products', path: '/catalog' },
          { name: product.category, path: categoryUrlPath },
          { name: product.name, path },
        ]),
      ],
      preloadImages: product.images[0] || product.imageUrl ? [productImagePreload((product.images[0] || product.imageUrl)!)] : [],
      preload: { [PRELOADED_PRODUCT_ID]: product },
    },
  };
}

export interface ListFacts {
  /** Display names (from the catalogue when it has products, else from the slug). */
  categoryName?: string;
  brandName?: string;
  categorySlug?: string;
  brandSlug?: string;
  total: number;
  page: number;
  totalPages: number;
}

const pageSuffix = (f: ListFacts) => (f.page > 1 ? ` - Page ${f.page} of ${f.totalPages}` : '');
const pageQuery = (f: ListFacts) => (f.page > 1 ? `?page=${f.page}` : '');

/** /category/{c} and /category/{c}/{b}. An empty list is served but kept out of the index. */
export function categoryHead(ctx: PageContext, f: ListFacts & { categorySlug: string }): PageHead {
  const category = f.categoryName ?? titleFromSlug(f.categorySlug);
  const brand = f.brandSlug ? (f.brandName ?? titleFromSlug(f.brandSlug)) : undefined;
  const label = brand ? `${brand === 'Generic' ? 'OEM/Genuine' : brand} ${category}` : category;
  const path = (f.brandSlug ? `/category/${f.categorySlug}/${f.brandSlug}` : `/category/${f.categorySlug}`) + pageQuery(f);
  const crumbs = [
    { name: 'Home', path: '/' },
    { name: 'Categories', path: '/categories' },
    { name: category, path: `/category/${f.categorySlug}` },
    ...(brand && f.brandSlug ? [{ name: brand, path: `/category/${f.categorySlug}/${f.brandSlug}` }] : []),
  ];
  if (f.total === 0) return { ...notFoundHead(ctx, 'Category') };
  return basic(ctx, {
    title: `${label} Parts${pageSuffix(f)}`,
    description: `${f.total.toLocaleString('en-US')} ${label} spare parts in stock at ${ctx.site.name}: part numbers, photos and quotes within hours. Worldwide shipping to ${ctx.site.stats.countries} countries.`,
    path,
    jsonLd: [breadcrumbs(ctx, crumbs)],
  });
}

/** /brands-available/{b} */
export function brandHead(ctx: PageContext, f: ListFacts & { brandSlug: string }): PageHead {
  const brand = f.brandName ?? titleFromSlug(f.brandSlug);
  const shown = brand === 'Generic' ? 'OEM/Genuine' : brand;
  if (f.total === 0) return notFoundHead(ctx, 'Brand');
  return basic(ctx, {
    title: `${shown} Parts${pageSuffix(f)}`,
    description: `${f.total.toLocaleString('en-US')} ${shown} spare parts at ${ctx.site.name}: search by part number or SKU and get a quote within hours.`,
    path: `/brands-available/${f.brandSlug}${pageQuery(f)}`,
    jsonLd: [
      breadcrumbs(ctx, [
        { name: 'Home', path: '/' },
        { name: 'Categories', path: '/categories' },
        { name: `${shown} Parts`, path: `/brands-available/${f.brandSlug}` },
      ]),
    ],
  });
}

/** Names in a description: the first few, then how many more ("Engine — lubrication, Final drive and 4 more"). */
function someOf(names: string[], shown = 3): string {
  const first = names.slice(0, shown);
  const more = names.length - first.length;
  if (more > 0) return `${first.join(', ')} and ${more} more`;
  return first.length > 1 ? `${first.slice(0, -1).join(', ')} and ${first.at(-1)}` : (first[0] ?? '');
}

/** /machines/{make}/{model} (#38): a machine model's parts book. One without diagrams yet is served but not indexed. */
export function machineHead(ctx: PageContext, m: MachinePage): PageHead {
  const name = `${m.make} ${m.model}`;
  const path = machinePath(m.make, m.model);
  const count = m.assemblies.length;
  const fit = m.productCount ? ` ${m.productCount.toLocaleString('en-US')} parts in stock fit it.` : '';
  return basic(ctx, {
    title: `${name} parts diagrams`,
    description: count
      ? `Parts diagrams of the ${name}: ${count} assembl${count === 1 ? 'y' : 'ies'} (${someOf(m.assemblies.map((a) => a.name))}) with numbered callouts, part numbers and quantities.${fit} Request a quote from ${ctx.site.name}.`
      : `Spare parts for the ${name} at ${ctx.site.name}.${fit} Send us your serial number and we will find the part.`,
    path,
    robots: count ? undefined : NOINDEX,
    jsonLd: [
      breadcrumbs(ctx, [
        { name: 'Home', path: '/' },
        { name, path },
      ]),
    ],
  });
}

/** /machines/{make}/{model}/{assembly} (#38): one assembly's drawing and parts table; the drawing is the page's largest paint. */
export function assemblyHead(ctx: PageContext, a: AssemblyPage): PageHead {
  const machine = `${a.make} ${a.model}`;
  const path = assemblyPath(a);
  const numbers = [...new Set(a.lines.flatMap((l) => (l.part ? [l.part.partNumber || l.part.sku] : [])))];
  const callouts = new Set(a.lines.map((l) => l.number)).size;
  const head = basic(ctx, {
    title: `${a.name} — ${machine} parts diagram`,
    description: `Parts diagram of the ${a.name} of the ${machine}: ${callouts} callout${callouts === 1 ? '' : 's'}${numbers.length ? ` with part numbers (${someOf(numbers)})` : ''} and quantities. Ask ${ctx.site.name} for a quote on the whole list.`,
    path,
    jsonLd: [
      breadcrumbs(ctx, [
        { name: 'Home', path: '/' },
        { name: machine, path: machinePath(a.make, a.model) },
        { name: a.name, path },
      ]),
    ],
  });
  const d = a.diagram;
  if (!d) return head;
  // As assembly-drawing.tsx's <img> asks for it: the variants' srcset (raster drawings) or the drawing itself.
  const preload = d.variants?.length
    ? { href: d.url, srcset: [...d.variants.map((v) => `${v.url} ${v.width}w`), `${d.url} ${d.width}w`].join(', '), sizes: '(min-width: 1024px) 60vw, 100vw' }
    : { href: d.url };
  return { ...head, tags: { ...head.tags, preloadImages: [preload] } };
}
