import fs from 'node:fs';
import { createRequire } from 'node:module';
import { serialInRange, serialKey } from '@forgeline/contracts/machine-fit';
import type { AssemblyLine, AssemblyPage, MachinePage } from '@forgeline/contracts/parts-diagrams';
import type { FitmentMakesResponse, FitmentModelsResponse } from '@forgeline/contracts/products';
import { assemblyPath, machinePath } from '@forgeline/contracts/slug';
import { getJson, literal } from './support/catalog.ts';
import { expect, test, type APIRequestContext, type Page } from './support/test.ts';

/**
 * Parts diagrams (#38) as a buyer uses them: a machine's page lists its assemblies; an assembly's drawing has a button
 * on every callout, linked with its table row both ways; a callout opens its parts and adds one to the quote list; a
 * serial number dims the lines of other production runs, which "Add all" then leaves out; all of it by keyboard, at
 * phone width, for axe-core, and (the table and its form) without JavaScript. The demo catalogue's diagrams are read
 * from the API at run time, so the tests hold for any seed.
 */

const QUOTE_LIST_KEY = 'forgeline.quote-list.v1';
const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface Pick {
  machine: MachinePage;
  page: AssemblyPage;
  /** A serial for which exactly one line (with a part) is not for the unit. */
  serial: string;
  dimmed: AssemblyLine;
}

/** The serial just outside one end of a line's range ("WMF03774" from: "WMF03773"), or null. */
function outside(line: AssemblyLine): string | null {
  const bound = line.serialFrom ?? line.serialTo;
  if (!bound) return null;
  const k = serialKey(bound);
  if (k.number === null) return null;
  const n = line.serialFrom ? k.number - 1 : k.number + 1;
  const digits = k.text.length - k.prefix.length;
  return n < 0 ? null : `${k.prefix}${String(n).padStart(digits, '0')}`;
}

const fits = (line: AssemblyLine, serial: string) => serialInRange(serial, line.serialFrom, line.serialTo);

/**
 * A machine with diagrams, and one of its assemblies with a serial-ranged line: the first, over the makes and models
 * with the most parts, for which some serial leaves out exactly one line that has a part.
 */
async function findAssembly(request: APIRequestContext): Promise<Pick> {
  const { makes } = await getJson<FitmentMakesResponse>(request, '/api/fitment/makes');
  for (const make of [...makes].sort((a, b) => b.productCount - a.productCount)) {
    const { models } = await getJson<FitmentModelsResponse>(request, `/api/fitment/models?make=${encodeURIComponent(make.make)}`);
    for (const model of [...models].sort((a, b) => b.productCount - a.productCount)) {
      const res = await request.get(`/api/machines/${make.slug}/${model.slug}`);
      if (!res.ok()) continue;
      const machine = (await res.json()) as MachinePage;
      for (const a of machine.assemblies) {
        if (!a.diagram) continue;
        const page = await getJson<AssemblyPage>(request, `/api/machines/${machine.makeSlug}/${machine.modelSlug}/assemblies/${a.slug}`);
        const withParts = page.lines.filter((l) => l.part && l.positions.length);
        if (withParts.length !== page.lines.length) continue;
        for (const line of withParts) {
          const serial = outside(line);
          if (!serial) continue;
          const out = withParts.filter((l) => !fits(l, serial));
          if (out.length === 1 && new Set(page.lines.map((l) => l.number)).size === page.lines.length) return { machine, page, serial, dimmed: out[0]! };
        }
      }
    }
  }
  throw new Error('the demo catalogue has no assembly with a serial-ranged line');
}

let picked: Promise<Pick> | undefined;
const assemblyFor = (request: APIRequestContext) => (picked ??= findAssembly(request));

/** The quote list as the browser keeps it: product id -> quantity. */
async function quoteList(page: Page): Promise<Record<string, number>> {
  const raw = (await page.evaluate(`localStorage.getItem(${JSON.stringify(QUOTE_LIST_KEY)})`)) as string | null;
  const lines = JSON.parse(raw ?? '[]') as { key: string; quantity: number }[];
  return Object.fromEntries(lines.map((l) => [l.key, l.quantity]));
}

const hotspot = (page: Page, number: string) => page.getByRole('button', { name: new RegExp(`^Callout ${number}: `) });
const row = (page: Page, number: string) => page.locator(`tbody tr[data-callout="${number}"]`);

/**
 * axe-core's violations on the page (or inside `include`). The site's floating buttons (WhatsApp, back to top: every
 * page's, features/layout/components/floating-actions.tsx) sit outside the landmarks on every page alike; they are
 * left out here, where this feature's pages are checked.
 */
async function axeViolations(page: Page, include = 'body') {
  await page.evaluate(AXE_SOURCE);
  const context = JSON.stringify({ include: [[include]], exclude: [['.fixed.bottom-4.right-4']] });
  return (await page.evaluate(
    `axe.run(${context}, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) })))`,
  )) as { id: string; impact: string; nodes: string[] }[];
}

test.describe('parts diagrams', () => {
  test("from a machine's page to an assembly: a hotspot and its row light each other, and a callout adds its part with its quantity", async ({ page, request }) => {
    const { machine, page: assembly } = await assemblyFor(request);
    const name = `${machine.make} ${machine.model}`;
    await page.goto(machinePath(machine.make, machine.model));
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByText(new RegExp(`Parts diagrams: ${machine.assemblies.length} assembl`))).toBeVisible();
    await page.getByRole('link', { name: literal(assembly.name) }).first().click();
    await expect(page).toHaveURL(new RegExp(`${assemblyPath(assembly)}$`));
    await expect(page.getByRole('heading', { level: 1, name: assembly.name })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name })).toHaveAttribute('href', machinePath(machine.make, machine.model));

    const line = assembly.lines.find((l) => !l.serialFrom && !l.serialTo) ?? assembly.lines[0]!;
    await hotspot(page, line.number).first().hover();
    await expect(row(page, line.number)).toHaveAttribute('data-active', 'true');
    await row(page, assembly.lines.at(-1)!.number).hover();
    await expect(hotspot(page, assembly.lines.at(-1)!.number).first()).toHaveAttribute('data-active', 'true');
    await expect(row(page, line.number)).not.toHaveAttribute('data-active');

    await hotspot(page, line.number).first().click();
    const dialog = page.getByRole('dialog', { name: `Callout ${line.number}` });
    await expect(dialog.getByRole('heading', { name: line.part!.name })).toBeVisible();
    await expect(dialog.getByText(line.part!.sku, { exact: true })).toBeVisible();
    await dialog.getByRole('button', { name: new RegExp(`^Add to quote list × ${line.quantity}`) }).click();
    await expect(page.getByText('Added to your quote list')).toBeVisible();
    expect(await quoteList(page)).toEqual({ [line.part!.id]: line.quantity });

    // The part's own page says where it is used, and leads back.
    await dialog.getByRole('link', { name: /^Part page/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: line.part!.name })).toBeVisible();
    const whereUsed = page.getByRole('region', { name: 'Where used' });
    await expect(whereUsed.getByRole('link', { name: `${name} — ${assembly.name}` })).toHaveAttribute('href', assemblyPath(assembly));
  });

  test('a serial number dims the line not for the unit, and "Add all" adds every other line', async ({ page, request }) => {
    const { page: assembly, serial, dimmed } = await assemblyFor(request);
    await page.goto(assemblyPath(assembly));
    await page.getByRole('textbox', { name: /serial number/ }).fill(serial);
    await page.getByRole('button', { name: 'Check fit' }).click();
    await expect(page.locator('tbody tr[data-fits="false"]')).toHaveCount(1);
    await expect(row(page, dimmed.number)).toHaveAttribute('data-fits', 'false');
    await expect(row(page, dimmed.number).getByText(`Not for S/N ${serial}`)).toBeVisible();
    await expect(hotspot(page, dimmed.number).first()).toHaveAccessibleName(new RegExp(`not for s/n ${serial.toLowerCase()}\\)$`));

    await page.getByRole('button', { name: 'Add all to quote list' }).click();
    const expected: Record<string, number> = {};
    for (const l of assembly.lines) if (l !== dimmed && l.part) expected[l.part.id] = (expected[l.part.id] ?? 0) + l.quantity;
    await expect.poll(() => quoteList(page)).toEqual(expected);
    await expect(page.getByRole('link', { name: /^Quote list/ })).toHaveAccessibleName(`Quote list, ${Object.keys(expected).length} lines`);

    // The serial is the visit's machine now: kept on a reload, and the same page shows the same lines dimmed.
    await page.reload();
    await expect(row(page, dimmed.number)).toHaveAttribute('data-fits', 'false');

    // And the list is sent: a quote request for those parts.
    const parts = Object.keys(expected).length;
    await page.goto('/quote');
    await page.getByLabel(/^Full Name/).fill('Diagram Buyer');
    await page.getByLabel(/^Business Email/).fill(`e2e-diagram-${Date.now()}@example.com`);
    await page.getByLabel(/^Country/).selectOption('Chile');
    const label = page.locator('label', { hasText: 'Security check' });
    await expect(label).toHaveText(/what is \d+ \+ \d+\?/);
    const [, a, b] = /what is (\d+) \+ (\d+)\?/.exec((await label.textContent()) ?? '')!;
    await page.getByLabel(/Security check/).fill(String(Number(a) + Number(b)));
    await page.getByRole('button', { name: `Send Quote Request (${parts} part${parts === 1 ? '' : 's'})` }).click();
    await expect(page.getByText('Thank you, Diagram Buyer!')).toBeVisible();
    await expect(page.getByText(new RegExp(`request for ${parts} parts? has been received`))).toBeVisible();
  });

  test('by keyboard alone: Tab to a hotspot, Enter opens it, and its part goes on the quote list', async ({ page, request }) => {
    const { page: assembly } = await assemblyFor(request);
    await page.goto(assemblyPath(assembly));
    const focused = () => page.evaluate('document.activeElement && document.activeElement.getAttribute("aria-label")') as Promise<string | null>;
    let name: string | null = null;
    for (let i = 0; i < 80 && !name?.startsWith('Callout '); i++) {
      await page.keyboard.press('Tab');
      name = await focused();
    }
    expect(name, 'a hotspot is reached by Tab').toMatch(/^Callout \d+/);
    const number = /^Callout (\w+):/.exec(name!)![1]!;
    const line = assembly.lines.find((l) => l.number === number)!;
    await expect(row(page, number)).toHaveAttribute('data-active', 'true');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Callout ${number}` });
    await expect(dialog).toBeVisible();
    const focusedText = () => page.evaluate('document.activeElement ? document.activeElement.textContent.trim() : ""') as Promise<string>;
    for (let i = 0; i < 10 && !(await focusedText()).startsWith('Add to quote list'); i++) await page.keyboard.press('Tab');
    expect(await focusedText()).toMatch(/^Add to quote list/);
    await page.keyboard.press('Enter');
    await expect.poll(() => quoteList(page)).toEqual({ [line.part!.id]: line.quantity });
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    // Focus is back on the hotspot that opened it.
    expect(await focused()).toBe(name);
  });

  test('at phone width (360 px) nothing scrolls sideways, and axe-core finds nothing on either page or the dialog', async ({ page, request }) => {
    const { machine, page: assembly } = await assemblyFor(request);
    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of [machinePath(machine.make, machine.model), assemblyPath(assembly)]) {
      await page.goto(path);
      expect(await page.evaluate('document.documentElement.scrollWidth'), `${path} at 360 px`).toBeLessThanOrEqual(360);
      expect(await axeViolations(page), `axe on ${path} at 360 px`).toEqual([]);
    }
    await hotspot(page, assembly.lines[0]!.number).first().click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    expect(await axeViolations(page, '[role="dialog"]'), 'axe on the callout dialog').toEqual([]);

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(assemblyPath(assembly));
    expect(await axeViolations(page), 'axe on the assembly page at 1280 px').toEqual([]);
  });

  test('zoom: the buttons scale the drawing and its hotspots together, and reset brings it back', async ({ page, request }) => {
    const { page: assembly } = await assemblyFor(request);
    await page.goto(assemblyPath(assembly));
    const spot = hotspot(page, assembly.lines[0]!.number).first();
    const before = (await spot.boundingBox())!;
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(async () => (await spot.boundingBox())!.width).toBeGreaterThan(before.width * 1.2);
    await page.getByRole('button', { name: 'Reset' }).click();
    await expect.poll(async () => Math.round((await spot.boundingBox())!.width)).toBe(Math.round(before.width));
  });
});

test.describe('parts diagrams without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the table is the page: every line with its part linked, a ticked checkbox each, in a form to the quote list', async ({ page, request }) => {
    const { page: assembly, serial, dimmed } = await assemblyFor(request);
    await page.goto(assemblyPath(assembly));
    await expect(page.getByRole('heading', { level: 1, name: assembly.name })).toBeVisible();
    const table = page.getByRole('table');
    await expect(table.locator('tbody tr')).toHaveCount(assembly.lines.length);
    for (const l of assembly.lines.slice(0, 5)) {
      await expect(table.getByRole('link', { name: l.part!.name }).first()).toHaveAttribute('href', `/products/${l.part!.id}/${l.part!.slug}`);
    }
    const boxes = table.locator('input[type="checkbox"][name="add"]');
    await expect(boxes).toHaveCount(assembly.lines.length);
    await expect(boxes.first()).toHaveAttribute('value', `${assembly.lines[0]!.part!.id}~${assembly.lines[0]!.quantity}`);
    const form = page.locator('form[action="/quote"][method="get"]');
    await expect(form.getByRole('button', { name: 'Add selected to quote list' })).toBeVisible();

    // The serial form is a GET form too: the server renders the page for it, the line of the other run unticked.
    await page.getByRole('textbox', { name: /serial number/ }).fill(serial);
    await page.getByRole('button', { name: 'Check fit' }).click();
    await expect(page).toHaveURL(new RegExp(`\\?serial=${serial}$`));
    await expect(row(page, dimmed.number).getByText(`Not for S/N ${serial}`)).toBeVisible();
    await expect(row(page, dimmed.number).getByRole('checkbox')).not.toBeChecked();

    // Sent, it asks the quote list for the ticked lines.
    await form.getByRole('button', { name: 'Add selected to quote list' }).click();
    const sent = new URL(page.url()).searchParams.getAll('add');
    expect(sent).toHaveLength(assembly.lines.length - 1);
    expect(sent).not.toContain(`${dimmed.part!.id}~${dimmed.quantity}`);
    expect(new URL(page.url()).pathname).toBe('/quote');
    // And the quote list page, rendered by the server, holds those lines in the form that sends them.
    const quoteForm = page.getByRole('region', { name: 'Request a quote for these parts' });
    await expect(quoteForm.getByRole('button', { name: new RegExp(`Send Quote Request \\(${new Set(assembly.lines.filter((l) => l !== dimmed).map((l) => l.part!.id)).size} parts?\\)`) })).toBeVisible();
    await expect(quoteForm.getByRole('link', { name: dimmed.part!.name })).toHaveCount(assembly.lines.some((l) => l !== dimmed && l.part!.id === dimmed.part!.id) ? 1 : 0);
  });
});

test.describe('search opens the parts diagrams', () => {
  test('a machine and a word of an assembly finds it: the results link to the diagram', async ({ page, request }) => {
    const { machine, page: assembly } = await assemblyFor(request);
    const modelWord = machine.model.split(/\s+/).find((w) => /\d/.test(w))!;
    const word = assembly.name.split(/\W+/).find((w) => w.length >= 4)!;
    await page.goto(`/?search=${encodeURIComponent(`${modelWord} ${word}`)}`);
    const diagrams = page.getByRole('navigation', { name: 'Parts diagrams' });
    await diagrams.getByRole('link', { name: `${machine.make} ${machine.model}: ${assembly.name}` }).click();
    await expect(page).toHaveURL(assemblyPath(assembly));
    await expect(page.getByRole('heading', { level: 1, name: assembly.name })).toBeVisible();
  });
});
