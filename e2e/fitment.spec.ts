import type { Fitment, FitmentMakesResponse, FitmentModelsResponse, ProductDetail, ProductListResponse } from '@forgeline/contracts/products';
import { productPath, slugify } from '@forgeline/contracts/slug';
import { getJson, literal, type Subcategory } from './support/catalog.ts';
import { expect, test, type APIRequestContext, type Page } from './support/test.ts';

// Browser globals used inside page.evaluate callbacks (the root tsconfig has no DOM lib).
declare const window: { innerWidth: number };
declare const document: { documentElement: { scrollWidth: number } };

/**
 * A part's history and the machine it fits, in the storefront (issue #17): "Find parts for your machine" narrows the
 * listings and is kept for the visit, search hits say which older or other maker's number they were found by, and
 * product pages show what replaced them, what they replace, their cross-references and the machines they fit.
 * Test data comes from the API at run time (the demo catalogue: ~5 % superseded, ~30 % cross-referenced, 85 % with
 * fits), so the tests hold for any seeded catalogue.
 */

const headerSearch = (page: Page) => page.getByRole('combobox', { name: /search parts/i });
const removeChip = (page: Page) => page.getByRole('button', { name: 'Remove machine filter' });
/** The category hero's count line: "<n> products · Page 1 of 2 · Showing 75". */
const countLine = (page: Page) => page.locator('p[aria-live="polite"]').filter({ hasText: / products · Page / });
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const fitsMachine = (fits: Fitment[] | undefined, make: string, model: string) =>
  (fits ?? []).some((f) => slugify(f.make) === slugify(make) && slugify(f.model) === slugify(model));

/** Product details, read from the start of the gallery in batches until `enough` says so (or `max` are read). */
async function scanProducts(request: APIRequestContext, enough: (found: ProductDetail[]) => boolean, max = 1_000): Promise<ProductDetail[]> {
  const found: ProductDetail[] = [];
  for (let offset = 0; offset < max; offset += 100) {
    const page = await getJson<ProductListResponse>(request, `/api/catalog/products?limit=100&offset=${offset}`);
    for (let i = 0; i < page.products.length; i += 10) {
      const batch = page.products.slice(i, i + 10);
      found.push(...(await Promise.all(batch.map((p) => getJson<ProductDetail>(request, `/api/products/${p.id}`)))));
      if (enough(found)) return found;
    }
    if (!page.pagination.hasNextPage) break;
  }
  return found;
}

/**
 * A machine and a category it narrows: the model with the most parts of the make with the most parts, and the
 * category holding most of them (some of its parts fit, not all); also a category none of them is in.
 */
async function machineAndCategories(request: APIRequestContext) {
  const { makes } = await getJson<FitmentMakesResponse>(request, '/api/fitment/makes');
  const make = [...makes].sort((a, b) => b.productCount - a.productCount)[0];
  expect(make, 'the seeded catalogue has parts that fit machines').toBeTruthy();
  const { models } = await getJson<FitmentModelsResponse>(request, `/api/fitment/models?make=${encodeURIComponent(make!.make)}`);
  const model = [...models].sort((a, b) => b.productCount - a.productCount)[0]!;
  const machine = `make=${encodeURIComponent(make!.make)}&model=${encodeURIComponent(model.model)}`;
  const fitting = await getJson<ProductListResponse>(request, `/api/catalog/products?limit=100&${machine}`);
  const perCategory = new Map<string, number>();
  for (const p of fitting.products) perCategory.set(p.category, (perCategory.get(p.category) ?? 0) + 1);
  const subs = await getJson<Subcategory[]>(request, '/api/subcategories');
  const slugOf = (name: string) => subs.find((s) => s.category === name)!.categorySlug;
  const best = [...perCategory.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  const category = { name: best, slug: slugOf(best) };
  const full = await getJson<ProductListResponse>(request, `/api/products?category=${category.slug}&limit=1`);
  const narrowed = await getJson<ProductListResponse>(request, `/api/products?category=${category.slug}&limit=1&${machine}`);
  const emptyName = subs.map((s) => s.category).find((c) => !perCategory.has(c))!;
  const empty = await getJson<ProductListResponse>(request, `/api/products?category=${slugOf(emptyName)}&limit=1&${machine}`);
  expect(empty.pagination.totalProducts, `${emptyName} holds no part for the machine`).toBe(0);
  return {
    make: make!.make,
    model: model.model,
    category,
    fullTotal: full.pagination.totalProducts,
    narrowedTotal: narrowed.pagination.totalProducts,
    emptyCategory: { name: emptyName, slug: slugOf(emptyName) },
  };
}

async function chooseMachine(page: Page, make: string, model: string, serial?: string) {
  const toggle = page.getByRole('button', { name: /choose your machine|change machine/i });
  if (await toggle.isVisible()) await toggle.click(); // phone width: the form is folded away
  await page.getByLabel('Make').selectOption(make);
  await expect(page.getByLabel('Model').locator('option', { hasText: model })).toHaveCount(1);
  await page.getByLabel('Model').selectOption(model);
  await page.getByLabel(/Serial number/).fill(serial ?? '');
  await page.getByRole('button', { name: 'Find parts' }).click();
}

test.describe('find parts for your machine', () => {
  test('a chosen machine narrows a category to the parts that fit, stays for the visit and comes off with its chip', async ({ page, request }) => {
    const m = await machineAndCategories(request);
    expect(m.narrowedTotal).toBeGreaterThan(0);
    expect(m.narrowedTotal).toBeLessThan(m.fullTotal);

    await page.goto(`/category/${m.category.slug}`);
    await expect(countLine(page)).toHaveText(new RegExp(`^${grouped(m.fullTotal)} products · `));
    await expect(removeChip(page)).toHaveCount(0);

    await chooseMachine(page, m.make, m.model);
    const showing = Math.min(m.narrowedTotal, 75);
    const pages = Math.ceil(m.narrowedTotal / 75);
    await expect(countLine(page)).toHaveText(new RegExp(`^${grouped(m.narrowedTotal)} products · Page 1 of ${pages} · Showing ${showing}$`));
    await expect(page.getByText(`Fits: ${m.make} ${m.model}`)).toBeVisible();
    await expect(removeChip(page)).toBeVisible();

    // Every card shown is a part that fits the machine (read back from the API).
    const cards = page.locator('main article a[href^="/products/"]');
    await expect(cards).toHaveCount(showing);
    const ids = await cards.evaluateAll((links) => links.map((a) => (a as unknown as { getAttribute(n: string): string }).getAttribute('href').split('/')[2]!));
    for (const id of ids) {
      const p = await getJson<ProductDetail>(request, `/api/products/${id}`);
      expect(fitsMachine(p.fits, m.make, m.model), `${p.name} fits ${m.make} ${m.model}`).toBe(true);
    }

    // Kept for the visit: a reload shows the same machine and the same narrowed list.
    await page.reload();
    await expect(removeChip(page)).toBeVisible();
    await expect(countLine(page)).toHaveText(new RegExp(`^${grouped(m.narrowedTotal)} products · `));
    await expect(page.getByLabel('Make')).toHaveValue(m.make);

    // Another listing of the visit is narrowed too; one with nothing for the machine says so and offers the way back.
    await page.goto(`/category/${m.emptyCategory.slug}`);
    await expect(page.getByText(new RegExp(`No parts fit ${literal(`${m.make} ${m.model}`).source} in `))).toBeVisible();
    await page.getByRole('button', { name: 'Clear machine filter' }).click();
    await expect(removeChip(page)).toHaveCount(0);
    await expect(page.locator('main article').first()).toBeVisible();

    // The chip's × works from the keyboard and gives the full list back.
    await page.goto(`/category/${m.category.slug}`);
    await chooseMachine(page, m.make, m.model);
    await expect(countLine(page)).toHaveText(new RegExp(`^${grouped(m.narrowedTotal)} products · `));
    await removeChip(page).focus();
    await page.keyboard.press('Enter');
    await expect(countLine(page)).toHaveText(new RegExp(`^${grouped(m.fullTotal)} products · `));
    await expect(removeChip(page)).toHaveCount(0);
    await expect(page.getByLabel('Make')).toBeFocused();
    await page.reload();
    await expect(countLine(page)).toHaveText(new RegExp(`^${grouped(m.fullTotal)} products · `));
    await expect(removeChip(page)).toHaveCount(0);
  });

  test('the gallery narrows by serial number too, and home opens the gallery for the chosen machine', async ({ page, request }) => {
    // A fit with a serial range whose serial narrows the model's parts (some parts fit only other units of it).
    const ranged = (p: ProductDetail) => p.fits?.find((f) => f.serialFrom || f.serialTo);
    const candidates = (await scanProducts(request, (found) => found.filter(ranged).length >= 10)).map(ranged).filter((f): f is Fitment => Boolean(f));
    let chosen: { fit: Fitment; serial: string; model: number; withSerial: number } | undefined;
    for (const fit of candidates) {
      const serial = (fit.serialFrom ?? fit.serialTo)!;
      const q = `make=${encodeURIComponent(fit.make)}&model=${encodeURIComponent(fit.model)}`;
      const model = (await getJson<ProductListResponse>(request, `/api/catalog/products?limit=1&${q}`)).pagination.totalProducts;
      const withSerial = (await getJson<ProductListResponse>(request, `/api/catalog/products?limit=1&${q}&serial=${encodeURIComponent(serial)}`)).pagination.totalProducts;
      if (withSerial > 0 && withSerial < model) {
        chosen = { fit, serial, model, withSerial };
        break;
      }
    }
    expect(chosen, 'the seeded catalogue has a serial that narrows a model').toBeTruthy();
    const { fit, serial } = chosen!;
    const stat = page.locator('dl > div').filter({ hasText: 'Products' }).locator('dd'); // the gallery hero's figure

    await page.goto('/');
    await chooseMachine(page, fit.make, fit.model, serial);
    await expect(page).toHaveURL(/\/catalog$/);
    await expect(page.getByText(`Fits: ${fit.make} ${fit.model} · S/N ${serial}`)).toBeVisible();
    await expect(stat).toHaveText(grouped(chosen!.withSerial));
    await expect(page.getByText(new RegExp(`^${grouped(chosen!.withSerial)} products · Page 1 of`))).toBeVisible();

    // Without the serial, the whole model.
    await chooseMachine(page, fit.make, fit.model);
    await expect(page.getByText(`Fits: ${fit.make} ${fit.model}`, { exact: true })).toBeVisible();
    await expect(stat).toHaveText(grouped(chosen!.model));
  });

  test('at phone width the selector folds away, works and leaves no horizontal scroll', async ({ page, request }) => {
    const m = await machineAndCategories(request);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/category/${m.category.slug}`);
    await expect(page.getByLabel('Make')).toBeHidden();
    await chooseMachine(page, m.make, m.model);
    await expect(countLine(page)).toHaveText(new RegExp(`^${grouped(m.narrowedTotal)} products · `));
    await expect(removeChip(page)).toBeVisible();
    await expect(page.getByLabel('Make')).toBeHidden(); // folded again once chosen
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

test.describe("a part's history", () => {
  test('the header search says when a hit was found by an older number or a cross-reference', async ({ page, request }) => {
    const found = await scanProducts(request, (ps) => ps.some((p) => p.replaces?.length) && ps.some((p) => p.crossReferences?.length));
    const current = found.find((p) => p.replaces?.length)!;
    const crossed = found.find((p) => p.crossReferences?.length)!;
    expect(current, 'the seeded catalogue has superseded numbers').toBeTruthy();
    expect(crossed, 'the seeded catalogue has cross-references').toBeTruthy();
    const old = current.replaces![0]!;
    const x = crossed.crossReferences![0]!;

    await page.goto('/');
    const box = headerSearch(page);
    await box.fill(old);
    const replaces = page.getByRole('option').filter({ hasText: `Replaces ${old}` });
    await expect(replaces.first()).toBeVisible();
    // Followed along its chain, the old number leads to the part sold today: the same part or a newer one.
    await expect(replaces.first()).toContainText(/Part #:/);

    await box.fill(x.partNumber);
    await expect(page.getByRole('option').filter({ hasText: `Cross-ref: ${x.brand} ${x.partNumber}` }).first()).toBeVisible();

    // The full results' cards say so too.
    await box.press('Escape');
    await page.goto(`/?search=${encodeURIComponent(old)}`);
    await expect(page.locator('main article').filter({ hasText: `Replaces ${old}` }).first()).toBeVisible();
  });

  test("a superseded part's page links to the part that replaced it", async ({ page, request }) => {
    const found = await scanProducts(request, (ps) => ps.some((p) => p.replacedBy));
    const old = found.find((p) => p.replacedBy);
    expect(old, 'the seeded catalogue has a superseded part').toBeTruthy();
    const next = old!.replacedBy!;

    await page.goto(productPath(old!));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(old!.name);
    const link = page.getByRole('link', { name: new RegExp(`^Replaced by ${literal(next.partNumber).source}`) });
    await expect(link).toBeVisible();
    await expect(link).toHaveAttribute('href', productPath(next));
    await link.click();
    await expect(page).toHaveURL(new RegExp(`${literal(productPath(next)).source}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(next.name);
    await expect(page.getByText('This part has been superseded.')).toHaveCount(0);
  });

  test('a product page shows the machines it fits, the numbers it replaces and its cross-references, and only what it has', async ({ page, request }) => {
    const found = await scanProducts(
      request,
      (ps) => ps.some((p) => p.fits?.length && p.crossReferences?.length && p.replaces?.length) && ps.some((p) => !p.fits?.length && !p.crossReferences?.length && !p.replaces?.length),
    );
    const rich = found.find((p) => p.fits?.length && p.crossReferences?.length && p.replaces?.length) ?? found.find((p) => p.fits?.length && p.crossReferences?.length)!;
    const bare = found.find((p) => !p.fits?.length && !p.crossReferences?.length && !p.replaces?.length);

    await page.goto(productPath(rich));
    const fits = page.getByRole('table', { name: 'Machines this part fits' });
    await expect(fits.getByRole('columnheader')).toHaveText(['Make', 'Model', 'Serial range']);
    if (rich.fits!.length > 12) await page.getByRole('button', { name: /^Show all \d+ machines$/ }).click();
    await expect(fits.locator('tbody tr')).toHaveCount(rich.fits!.length);
    for (const f of rich.fits!) {
      const range = f.serialFrom && f.serialTo ? `${f.serialFrom}–${f.serialTo}` : f.serialFrom ? `From ${f.serialFrom}` : f.serialTo ? `Up to ${f.serialTo}` : 'All';
      await expect(fits.locator('tbody tr').filter({ hasText: f.model }).filter({ hasText: range }).first()).toContainText(f.make);
    }
    const xrefs = page.getByRole('table', { name: 'Cross-references' });
    for (const x of rich.crossReferences!) await expect(xrefs.getByRole('row').filter({ hasText: x.brand }).filter({ hasText: x.partNumber }).first()).toBeVisible();
    if (rich.replaces?.length) {
      await expect(page.getByRole('heading', { name: 'Part history' })).toBeVisible();
      for (const n of rich.replaces) await expect(page.getByRole('list', { name: 'Older part numbers' }).getByText(n, { exact: true })).toBeVisible();
    }

    if (bare) {
      await page.goto(productPath(bare));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(bare.name);
      for (const name of ['Fits', 'Part history', 'Cross-references']) await expect(page.getByRole('heading', { name, exact: true })).toHaveCount(0);
    }
  });
});
