import { expect, test } from './support/test.ts';

/** Static pages (about, FAQ, policies, contact) and what crawlers get: head tags, sitemaps, robots.txt. */

test('about page shows the company, four stats, mission, vision and five trust indicators', async ({ page }) => {
  await page.goto('/about');
  await expect(page.getByRole('heading', { level: 1, name: 'About Forgeline Parts' })).toBeVisible();
  for (const label of ['Clients Globally', 'Shipments Delivered', 'Products', 'Countries Served']) {
    await expect(page.locator('dt', { hasText: label }).first()).toBeVisible();
  }
  for (const value of ['15,000+', '50,000+', '500,000+', '80+']) {
    await expect(page.locator('dd', { hasText: value }).first()).toBeVisible();
  }
  await expect(page.getByRole('heading', { name: 'Our Mission' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Our Vision' })).toBeVisible();
  const trust = page.locator('section[aria-labelledby="trust-heading"] li');
  await expect(trust).toHaveCount(5);
  await expect(trust.locator('svg')).toHaveCount(5);
});

test('FAQ has six categories whose accordions keep at most one answer open', async ({ page }) => {
  await page.goto('/faq');
  await expect(page.getByRole('heading', { level: 1, name: 'Frequently Asked Questions' })).toBeVisible();
  for (const title of ['Ordering & Products', 'Shipping & Delivery', 'Payment & Pricing', 'Returns & Warranty', 'International Orders', 'Technical Support']) {
    await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
  }
  const shipping = page.locator('#faq-shipping');
  const first = shipping.getByRole('button', { name: 'Which shipping options do you offer?' });
  const second = shipping.getByRole('button', { name: 'How long before my order ships?' });
  await expect(first).toHaveAttribute('aria-expanded', 'false');

  await first.click();
  await expect(first).toHaveAttribute('aria-expanded', 'true');
  await expect(shipping.getByText('Express (3-5 business days)')).toBeVisible();

  await second.click();
  await expect(second).toHaveAttribute('aria-expanded', 'true');
  await expect(first).toHaveAttribute('aria-expanded', 'false');
  await expect(shipping.getByText('Express (3-5 business days)')).toBeHidden();

  await second.click(); // collapsible: the open one closes again
  await expect(second).toHaveAttribute('aria-expanded', 'false');

  await expect(page.getByRole('link', { name: 'Contact Us' }).last()).toHaveAttribute('href', '/contact');
  await expect(page.getByRole('link', { name: 'Chat on WhatsApp' })).toHaveAttribute('href', /^https:\/\/wa\.me\/\d+\?text=/);
});

const policyPages = [
  { path: '/privacy', title: 'Privacy Policy', claim: 'Customers under 18 are excluded' },
  { path: '/refund-policy', title: 'Returns & Refund Policy', claim: 'within 30 days of delivery' },
  { path: '/shipping-policy', title: 'Shipping Policy', claim: 'Express: 3-5 business days.' },
  { path: '/disclaimer', title: 'Disclaimer', claim: '150+ brands' },
];

for (const p of policyPages) {
  test(`${p.path} shows its title, last-updated date and claims`, async ({ page }) => {
    await page.goto(p.path);
    await expect(page.getByRole('heading', { level: 1, name: p.title })).toBeVisible();
    await expect(page.getByText('Last updated: September 2025')).toBeVisible();
    await expect(page.getByText(p.claim).first()).toBeVisible();
  });
}

test('refund policy carries every returns figure of the specification', async ({ page }) => {
  await page.goto('/refund-policy');
  const text = await page.locator('article').innerText();
  for (const claim of ['30 days', '5-7 business days', '5-10 business days', '15-25%', '7 days of the expected delivery', '48 hours']) {
    expect(text).toContain(claim);
  }
});

test('contact page lays out phone, two e-mails, hours, WhatsApp, the form and four FAQ cards', async ({ page }) => {
  await page.goto('/contact');
  await expect(page.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Get in Touch' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Send Us a Message' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Frequently Asked Questions' })).toBeVisible();
  const info = page.locator('aside');
  await expect(info.locator('a[href^="tel:"]')).toHaveCount(1);
  await expect(info.locator('a[href^="mailto:"]')).toHaveCount(2);
  await expect(info.getByText('MON - FRI: 9:00 - 18:00')).toBeVisible();
  await expect(info.getByRole('link', { name: 'Chat on WhatsApp' })).toHaveAttribute('href', /^https:\/\/wa\.me\/\d+\?text=/);
  await expect(page.locator('section[aria-labelledby="contact-faq-heading"] li')).toHaveCount(4);
});

test('a product page answers the first request with its own head tags and preloaded data', async ({ request }) => {
  const list = await (await request.get('/api/catalog/products?limit=1')).json();
  const product = list.products[0] as { id: string; name: string; slug: string; sku: string };
  const path = `/products/${product.id}/${product.slug}`;
  const res = await request.get(path, { headers: { accept: 'text/html' } });
  expect(res.status()).toBe(200);
  const html = await res.text();
  const head = html.slice(0, html.indexOf('</head>'));
  expect(head).toMatch(/<title>[^<]+<\/title>/);
  expect(head).toContain('<meta name="description"');
  expect(head).toMatch(new RegExp(`<link rel="canonical" href="https?://[^"]+${path}">`));
  expect(head).toContain('<meta property="og:type" content="product">');
  expect(head).toContain('<meta property="og:title"');
  const ld = [...head.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
  expect(ld.map((d) => d['@type'])).toEqual(['Product', 'BreadcrumbList']);
  expect(ld[0].sku).toBe(product.sku);
  const preload = /<script type="application\/json" id="__PRELOADED_PRODUCT__">(.*?)<\/script>/.exec(head);
  expect(JSON.parse(preload![1]!).id).toBe(product.id);

  const missing = await request.get('/products/00000000-0000-4000-8000-000000000000/nothing', { headers: { accept: 'text/html' } });
  expect(missing.status()).toBe(404);
  expect(await missing.text()).toContain('<meta name="robots" content="noindex">');
});

test('robots.txt points at a sitemap index that covers pages and products', async ({ request }) => {
  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toMatch(/^Sitemap: https?:\/\/\S+\/sitemap\.xml$/m);

  const index = await request.get('/sitemap.xml');
  expect(index.headers()['content-type']).toContain('xml');
  const indexXml = await index.text();
  expect(indexXml).toContain('<sitemapindex');
  expect(indexXml).toContain('/sitemap-pages.xml</loc>');
  expect(indexXml).toContain('/sitemap-products-1.xml</loc>');

  const pages = await (await request.get('/sitemap-pages.xml')).text();
  for (const p of ['/about', '/faq', '/privacy', '/category/', '/brands-available/']) expect(pages).toContain(p);
  const products = await (await request.get('/sitemap-products-1.xml')).text();
  expect(products).toMatch(/<loc>https?:\/\/[^<]+\/products\/[^<]+<\/loc>/);
});
