/** Escaping and <head> injection for the server-rendered SEO tags. Pure functions, no I/O. */

/** For text and attribute values inside HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * JSON that is safe inside a <script> element: `<`, `>` and `&` become \u escapes (so `</script>` and `<!--`
 * cannot end or confuse the element), and U+2028/U+2029 are escaped for old JS parsers. Still valid JSON.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export interface HeadTags {
  title: string;
  description: string;
  /** Absolute URL. */
  canonical?: string;
  robots?: string;
  /** The page's referrer policy (`no-referrer` where the address is a secret), whatever the headers say. */
  referrer?: string;
  /** Open Graph properties without the `og:` prefix (type, title, description, url, image, site_name). */
  openGraph: Record<string, string | undefined>;
  jsonLd: unknown[];
  /** The page's LCP image, fetched at high priority before the app's JavaScript has run. */
  preloadImages?: { href: string; srcset?: string; sizes?: string }[];
  /**
   * Data for the app by element id, as JSON data blocks (`<script type="application/json" id=…>`, never executed), e.g.
   * { [PRELOADED_PRODUCT_ID]: product }.
   */
  preload?: Record<string, unknown>;
}

/** Search engines show about 160 characters of a description. */
const TRIM_DESCRIPTION = 160;

/** One-line text for a meta description: whitespace collapsed, cut at a word near `max` characters. */
export function clip(text: string, max = TRIM_DESCRIPTION): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:-]+$/, '')}…`;
}

export function renderHeadTags(tags: HeadTags): string {
  const lines: string[] = [`<meta name="description" content="${escapeHtml(clip(tags.description))}">`];
  if (tags.robots) lines.push(`<meta name="robots" content="${escapeHtml(tags.robots)}">`);
  if (tags.referrer) lines.push(`<meta name="referrer" content="${escapeHtml(tags.referrer)}">`);
  if (tags.canonical) lines.push(`<link rel="canonical" href="${escapeHtml(tags.canonical)}">`);
  for (const [key, value] of Object.entries(tags.openGraph)) {
    if (value) lines.push(`<meta property="og:${escapeHtml(key)}" content="${escapeHtml(key === 'description' ? clip(value) : value)}">`);
  }
  lines.push(`<meta name="twitter:card" content="${tags.openGraph.image ? 'summary_large_image' : 'summary'}">`);
  for (const img of tags.preloadImages ?? []) {
    const set = img.srcset ? ` imagesrcset="${escapeHtml(img.srcset)}" imagesizes="${escapeHtml(img.sizes ?? '100vw')}"` : '';
    lines.push(`<link rel="preload" as="image" href="${escapeHtml(img.href)}"${set} fetchpriority="high">`);
  }
  for (const item of tags.jsonLd) lines.push(`<script type="application/ld+json">${scriptSafeJson(item)}</script>`);
  for (const [id, value] of Object.entries(tags.preload ?? {})) {
    if (!/^[A-Za-z_][\w-]*$/.test(id)) throw new Error(`Bad preload id: ${id}`);
    lines.push(`<script type="application/json" id="${id}">${scriptSafeJson(value)}</script>`);
  }
  return lines.join('\n    ');
}

/**
 * Put the tags into index.html: the <title> is replaced, any description, robots, canonical, Open Graph and
 * Twitter tags the build carries are removed (ours win), and the rest goes just before </head>.
 */
export function injectHead(indexHtml: string, tags: HeadTags): string {
  const title = `<title>${escapeHtml(tags.title)}</title>`;
  let html = indexHtml
    .replace(/<meta\s+name=["'](?:description|robots|twitter:[\w:]+)["'][^>]*>\s*/gi, '')
    .replace(/<meta\s+property=["']og:[\w:]+["'][^>]*>\s*/gi, '')
    .replace(/<link\s+rel=["']canonical["'][^>]*>\s*/gi, '');
  html = /<title>[\s\S]*?<\/title>/i.test(html) ? html.replace(/<title>[\s\S]*?<\/title>/i, () => title) : html.replace(/<\/head>/i, () => `${title}\n</head>`);
  const block = renderHeadTags(tags);
  return html.replace(/\s*<\/head>/i, () => `\n    ${block}\n  </head>`);
}
