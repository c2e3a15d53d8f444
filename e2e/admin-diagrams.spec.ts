import { randomUUID } from 'node:crypto';
import { signInAsAdmin } from './support/admin-sign-in.ts';
import { getJson, type Summary } from './support/catalog.ts';
import { expect, test, type Page } from './support/test.ts';

/**
 * The Diagrams tab (#38) end to end: staff make an assembly, upload its drawing (an SVG, drawn by the media workers
 * as WebP), place three hotspots on it (clicks, a drag, the keyboard), link each to a part by the part search, save,
 * and the buyer's API shows the three lines where they were placed. Then someone else's change meanwhile is not
 * overwritten: the save says so and offers to reload.
 */
test.use({ viewport: { width: 1280, height: 1000 } });

interface AssemblyLine {
  number: string;
  positions: { x: number; y: number }[];
  partId: string;
  quantity: number;
  part: { id: string; name: string } | null;
}
interface AssemblyPage {
  id: string;
  slug: string;
  makeSlug: string;
  modelSlug: string;
  version: number;
  diagram: { url: string; width: number; height: number } | null;
  lines: AssemblyLine[];
}

const DRAWING = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800" viewBox="0 0 1200 800" onload="alert('no script runs')">
  <script>alert('no script runs')</script>
  <rect width="1200" height="800" fill="#f4f4f0"/>
  <path d="M100 600 L1100 200" stroke="#333" stroke-width="6"/>
  <circle cx="300" cy="520" r="60" fill="none" stroke="#333" stroke-width="6"/>
  <rect x="560" y="340" width="140" height="90" fill="none" stroke="#333" stroke-width="6"/>
  <circle cx="900" cy="280" r="40" fill="none" stroke="#333" stroke-width="6"/>
</svg>`;

/** The drawing's box on the page and a click at a fraction of it; returns the place in percent, as the editor keeps it. */
async function clickDrawingAt(page: Page, fx: number, fy: number) {
  const surface = page.getByTestId('diagram-surface');
  const box = (await surface.boundingBox())!;
  await surface.click({ position: { x: box.width * fx, y: box.height * fy } });
  return { x: fx * 100, y: fy * 100 };
}

test('staff upload a drawing, place three hotspots linked to parts, save, and buyers see the lines where they were placed', async ({ page, request }) => {
  page.on('pageerror', (e) => console.log('PAGEERROR', e.message, e.stack));
  const tag = randomUUID().slice(0, 6);
  const name = `E2E frame ${tag}`;
  const make = (await getJson<{ makes: { make: string }[] }>(request, '/api/fitment/makes')).makes[0]!.make;
  const model = (await getJson<{ models: { model: string }[] }>(request, `/api/fitment/models?make=${encodeURIComponent(make)}`)).models[0]!.model;
  // Three parts with part numbers, from deep in the catalogue (other specs use the first pages).
  const parts = (await getJson<{ products: Summary[] }>(request, '/api/catalog/products?limit=40&offset=1500')).products.filter((p) => p.partNumber).slice(0, 3);
  expect(parts).toHaveLength(3);

  await signInAsAdmin(page);
  await page.getByRole('tab', { name: 'Diagrams' }).click();
  await expect(page.getByRole('heading', { name: 'Parts diagrams' })).toBeVisible();

  // A new assembly: make and model as the fitment data names them.
  await page.getByRole('button', { name: 'New assembly' }).click();
  await page.getByLabel('Machine make').fill(make);
  await page.getByLabel('Machine model').fill(model);
  await page.getByLabel(/^Assembly name/).fill(name);
  await page.getByRole('button', { name: 'Create and open' }).click();
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
  await expect(page.getByText('No drawing yet')).toBeVisible();

  // The drawing: sent with its progress, processed by the media worker, then shown.
  await page.getByLabel(/^Drawing file/).setInputFiles({ name: 'frame.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(DRAWING) });
  await page.getByRole('button', { name: 'Upload drawing' }).click();
  const drawing = page.getByRole('region', { name: `Drawing of ${name}` }).locator('img');
  await expect(drawing).toBeVisible({ timeout: 30_000 });
  await expect(drawing).toHaveAttribute('src', /^\/media\/diagrams\/[0-9a-f]{20}-2400\.webp$/);
  // Shown once it has loaded (the WebP the worker made).
  await expect.poll(() => drawing.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
  await expect(page.getByText('New drawing', { exact: false }).first()).toBeVisible();

  // Three clicks place callouts 1, 2 and 3.
  const first = await clickDrawingAt(page, 0.25, 0.3);
  const second = await clickDrawingAt(page, 0.5, 0.2);
  const third = await clickDrawingAt(page, 0.75, 0.35);
  for (const n of ['1', '2', '3']) await expect(page.locator(`[data-hotspot="${n}"]`)).toHaveCount(1);
  await expect(page.getByText('Unsaved changes')).toBeVisible();

  // Callout 2 dragged elsewhere with the mouse.
  const surfaceBox = (await page.getByTestId('diagram-surface').boundingBox())!;
  const two = (await page.locator('[data-hotspot="2"]').boundingBox())!;
  await page.mouse.move(two.x + two.width / 2, two.y + two.height / 2);
  await page.mouse.down();
  await page.mouse.move(surfaceBox.x + surfaceBox.width * 0.45, surfaceBox.y + surfaceBox.height * 0.25, { steps: 5 });
  await page.mouse.up();
  const dragged = { x: 45, y: 25 };

  // Callout 3 moved from the keyboard: one big step right (Shift), two small steps down.
  const hotspot3 = page.locator('[data-hotspot="3"]');
  await hotspot3.focus();
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(hotspot3).toHaveAttribute('aria-label', /^Callout 3, at 80 % across, 36 % down$/);
  const moved = { x: third.x + 5, y: third.y + 1 };

  // Saving without parts: each line's part is marked.
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Not saved' })).toContainText('3 fields need a look');
  await expect(page.getByText('is required: the part this callout is')).toHaveCount(3);

  // Each line's part found by its part number and chosen (name, part number, brand and SKU shown).
  for (const [i, part] of parts.entries()) {
    const box = page.getByRole('combobox', { name: `Part, line ${i + 1}` });
    await box.fill(part.partNumber!);
    await page.getByRole('option').filter({ hasText: `SKU ${part.sku}` }).click();
    await expect(box).toHaveValue(`${part.partNumber} · ${part.name}`);
  }
  await page.getByLabel('Quantity, line 2').fill('4');

  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(/^Saved: version 3$/)).toBeVisible();
  await expect(page.getByText('Unsaved changes')).toHaveCount(0);

  // The buyer's API: the three lines, their parts and places.
  const machine = await getJson<{ makeSlug: string; modelSlug: string; assemblies: { slug: string; name: string }[] }>(
    request,
    `/api/machines/${encodeURIComponent(make)}/${encodeURIComponent(model)}`,
  );
  const slug = machine.assemblies.find((a) => a.name === name)!.slug;
  const buyer = await getJson<AssemblyPage>(request, `/api/machines/${machine.makeSlug}/${machine.modelSlug}/assemblies/${slug}`);
  expect(buyer.diagram).toMatchObject({ width: 2400, height: 1600 });
  expect(buyer.lines.map((l) => [l.number, l.partId, l.quantity, l.part?.name])).toEqual([
    ['1', parts[0]!.id, 1, parts[0]!.name],
    ['2', parts[1]!.id, 4, parts[1]!.name],
    ['3', parts[2]!.id, 1, parts[2]!.name],
  ]);
  for (const [line, at] of [
    [buyer.lines[0]!, first],
    [buyer.lines[1]!, dragged],
    [buyer.lines[2]!, moved],
  ] as const) {
    expect(line.positions).toHaveLength(1);
    expect(line.positions[0]!.x).toBeCloseTo(at.x, 0);
    expect(line.positions[0]!.y).toBeCloseTo(at.y, 0);
  }
  expect(second).toBeTruthy();

  // The preview link goes to the buyer's page of this assembly.
  await expect(page.getByRole('link', { name: /Preview as the buyer sees it/ })).toHaveAttribute('href', `/machines/${machine.makeSlug}/${machine.modelSlug}/${slug}`);

  // Someone else saves a change meanwhile: this editor's save is refused, says so, and offers to reload.
  const other = await page.request.put(`/api/admin/assemblies/${buyer.id}`, {
    data: { version: buyer.version, name, callouts: buyer.lines.map(({ part: _p, ...c }) => ({ ...c, note: 'checked by the other editor' })) },
    // A change made with the staff cookie must say it comes from the site itself (the gateway's same-site check).
    headers: { origin: new URL(page.url()).origin },
  });
  expect(other.status()).toBe(200);
  await page.getByLabel('Note, line 1').fill('mine');
  await page.getByRole('button', { name: 'Save changes' }).click();
  const conflict = page.getByRole('alert').filter({ hasText: 'Someone else changed this assembly' });
  await expect(conflict).toBeVisible();
  await conflict.getByRole('button', { name: 'Reload the assembly' }).click();
  await expect(page.getByLabel('Note, line 1')).toHaveValue('checked by the other editor');
  await expect(conflict).toHaveCount(0);

  // Unsaved work asks before the editor is left.
  await page.getByLabel('Note, line 2').fill('unsaved');
  page.once('dialog', (d) => void d.dismiss());
  await page.getByRole('button', { name: 'All assemblies' }).click();
  await expect(page.getByLabel('Note, line 2')).toHaveValue('unsaved');
});

test('the Diagrams tab fits a 360 px phone: the list and the editor, whose tables scroll in their own boxes', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await signInAsAdmin(page);
  await page.getByRole('tab', { name: 'Diagrams' }).click();
  const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
  const list = page.getByRole('table', { name: 'Assemblies' });
  await expect(list).toBeVisible();
  expect(await overflow(), 'the list').toBeLessThanOrEqual(0);

  // The seeded demo assemblies have drawings and lines.
  await list.getByRole('button').first().click();
  await expect(page.getByRole('region', { name: /^Drawing of / }).locator('img')).toBeVisible();
  expect(await overflow(), 'the editor').toBeLessThanOrEqual(0);
  const lines = page.getByRole('region', { name: 'Lines of the assembly' });
  await lines.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => lines.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
});
