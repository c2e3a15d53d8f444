import { randomUUID } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { mailedCode as mailedStaffCode, ADMIN_EMAIL } from './support/admin-sign-in.ts';
import { getJson, type ListResponse, type Summary } from './support/catalog.ts';
import { mailsMentioning } from './support/dev-mailbox.ts';
import { expect, test } from './support/test.ts';

/**
 * Issue 35, "Done when": a buyer signs up, adds three machines from the fitment lists and one by CSV, filters a
 * category by "my machines", saves a list for one unit, sends it as a quote, signs in from another browser and finds
 * the list and the request; a colleague invited by e-mail sees them too; a reorder of an old order flags a superseded
 * part and offers its replacement.
 */

const unwrapped = (eml: string) => eml.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

/** The newest sign-in code mailed to `email` that is none of `used`. */
async function mailedCode(email: string, used: string[]) {
  let code: string | undefined;
  await expect
    .poll(() => {
      code = mailsMentioning(email)
        .map(unwrapped)
        .map((m) => /sign-in code is (\d{6})/.exec(m)?.[1])
        .find((c) => c && !used.includes(c));
      return Boolean(code);
    }, { message: `a sign-in code mailed to ${email}` })
    .toBe(true);
  used.push(code!);
  return code!;
}

/** A browser of its own (another computer, as far as the site can tell). */
async function newBrowser(browser: Browser, width = 1280): Promise<Page> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width, height: 900 } });
  return context.newPage();
}

async function signInOnAccountPage(page: Page, email: string, used: string[]) {
  await page.goto('/account');
  await page.getByLabel('Your work e-mail').fill(email);
  await page.getByRole('button', { name: 'E-mail me a code' }).click();
  await expect(page.getByRole('status')).toContainText(`We sent a code to ${email}`);
  await page.getByLabel('The 6-digit code').fill(await mailedCode(email, used));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('tablist', { name: 'Account sections' })).toBeVisible();
}

const tab = (page: Page, name: string) => page.getByRole('tablist', { name: 'Account sections' }).getByRole('tab', { name });

/** Add a machine with the fitment lists' make and model. */
async function addMachine(page: Page, unit: string, make: string, model: string, serial?: string) {
  await page.getByRole('button', { name: 'Add a machine' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/^Unit name/).fill(unit);
  await dialog.getByLabel(/^Make/).selectOption(make);
  await dialog.getByLabel(/^Model/).selectOption(model);
  if (serial) await dialog.getByLabel(/^Serial number/).fill(serial);
  await dialog.getByRole('button', { name: /^(Add|Save)/ }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('list', { name: 'Your machines' })).toContainText(unit);
}

/** Staff's session for API calls in this page's context (the code from the dev mailbox). */
async function staffApi(page: Page) {
  const sent = await page.request.post('/api/admin/auth/send-otp', { data: { email: ADMIN_EMAIL } });
  const { sessionId } = (await sent.json()) as { sessionId: string };
  const verified = await page.request.post('/api/admin/auth/verify-otp', { data: { sessionId, otp: await mailedStaffCode(sessionId) } });
  const { token } = (await verified.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}

test('a buyer keeps a fleet, filters by it, saves a list for a unit and sends it; a second browser and an invited colleague find it all; a reorder offers the replacement', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const domain = `quarry-${randomUUID().slice(0, 8)}.example`;
  const planner = `planner@${domain}`;
  const colleague = `tech@${domain}`;
  const used: string[] = [];

  // Three machines the catalogue's fitment lists know: the first make's first three models (or makes).
  const makes = (await getJson<{ makes: { make: string }[] }>(page.request, '/api/fitment/makes')).makes.map((m) => m.make);
  const picks: [string, string][] = [];
  for (const make of makes) {
    const models = (await getJson<{ models: { model: string }[] }>(page.request, `/api/fitment/models?make=${encodeURIComponent(make)}`)).models;
    for (const m of models) if (picks.length < 4) picks.push([make, m.model]);
    if (picks.length >= 4) break;
  }
  expect(picks.length).toBe(4);

  await signInOnAccountPage(page, planner, used);
  await addMachine(page, 'Haul truck 07', ...picks[0]!);
  await addMachine(page, 'Loader 2', ...picks[1]!);
  await addMachine(page, 'Dozer 5', ...picks[2]!);
  // The fourth by CSV.
  await page.getByLabel(/Import CSV/).setInputFiles({ name: 'fleet.csv', mimeType: 'text/csv', buffer: Buffer.from(`unit_name,make,model,serial,hours\nGrader 1,${picks[3]![0]},${picks[3]![1]},,1200\n`) });
  await expect(page.getByText(/1 machine added, 0 updated/)).toBeVisible();
  const machines = page.getByRole('list', { name: 'Your machines' });
  await expect(machines.getByRole('listitem')).toHaveCount(4);

  // A category of parts that fit the first machine, narrowed to "all my machines": every card fits one of them.
  const fitting = (await getJson<ListResponse>(page.request, `/api/catalog/products?make=${encodeURIComponent(picks[0]![0])}&model=${encodeURIComponent(picks[0]![1])}&limit=1`)).products[0]!;
  const category = fitting.category;
  await page.goto(`/category/${fitting.category.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`);
  const fleetRequest = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/products' && new URL(r.url()).searchParams.has('machines'));
  await page.getByLabel('My machines').selectOption({ label: 'All my machines (4)' });
  const fleetAnswer = (await (await fleetRequest).json()) as { products: (Summary & { fitsMachines?: number[] })[] };
  expect(fleetAnswer.products.length).toBeGreaterThan(0);
  for (const p of fleetAnswer.products) expect(p.fitsMachines?.length, `${p.sku} fits one of the fleet`).toBeGreaterThan(0);
  await expect(page.getByText('My machines (4)', { exact: true })).toBeVisible();
  const firstCard = page.getByRole('article').first();
  await expect(firstCard.getByText(/^Fits (Haul truck 07|Loader 2|Dozer 5|Grader 1)/)).toBeVisible();
  expect(category).toBeTruthy();

  // One unit: the filter narrows to it; its first part goes on the quote list, saved as a list for that unit.
  await page.getByLabel('My machines').selectOption({ label: `Haul truck 07 — ${picks[0]![0]} ${picks[0]![1]}` });
  await expect(page.getByText(/Haul truck 07 —/).first()).toBeVisible();
  const card = page.getByRole('article').first();
  const partName = (await card.getByRole('heading').textContent())!.trim();
  await card.getByRole('button', { name: /Add .* to quote list|Add to quote list/ }).click();
  await page.goto('/quote');
  await page.getByRole('button', { name: 'Save as a parts list' }).click();
  const save = page.getByRole('dialog');
  await save.getByLabel(/^List name/).fill('07 — 500 h service');
  await save.getByLabel('For the machine').selectOption({ label: `Haul truck 07 — ${picks[0]![0]} ${picks[0]![1]}` });
  await save.getByRole('button', { name: /^Save/ }).click();
  await expect(save).toBeHidden();

  // The list sent as a quote from the account: the quote list filled from it, then the request as always.
  await page.goto('/account?tab=lists');
  const lists = page.getByRole('list', { name: 'Your parts lists' });
  await expect(lists).toContainText('07 — 500 h service');
  await expect(lists).toContainText('Haul truck 07');
  await page.getByRole('button', { name: 'Send 07 — 500 h service as a quote request' }).click();
  // The quote list still holds the lines the list was saved from: the page asks before replacing them. (Looked for
  // once, at once, the question could come a moment later and be missed: CI, 2026-11-29.)
  await page.getByRole('button', { name: 'Replace them' }).click();
  await expect(page).toHaveURL(/\/quote$/);
  await expect(page.getByRole('list', { name: 'Quote list lines' })).toContainText(partName);
  await page.getByLabel(/^Full Name/).fill('Quarry Planner');
  await page.getByLabel(/^Business Email/).fill(planner);
  await page.getByLabel(/^Country/).selectOption('Chile');
  const label = page.locator('label', { hasText: 'Security check' });
  const [, a, b] = /what is (\d+) \+ (\d+)\?/.exec((await label.textContent()) ?? '')!;
  await page.getByLabel(/Security check/).fill(String(Number(a) + Number(b)));
  await page.getByRole('button', { name: /^Send Quote Request/ }).click();
  await expect(page.getByText('Thank you, Quarry Planner!')).toBeVisible();

  // Another browser: signed in there, the list and the request are there.
  const elsewhere = await newBrowser(browser);
  await signInOnAccountPage(elsewhere, planner, used);
  await tab(elsewhere, 'Parts lists').click();
  await expect(elsewhere.getByRole('list', { name: 'Your parts lists' })).toContainText('07 — 500 h service');
  await tab(elsewhere, 'Quotes & orders').click();
  await expect(elsewhere.getByRole('list', { name: 'Your quote requests' })).toContainText(partName);

  // A colleague invited by e-mail joins at sign-in and sees the same.
  await page.goto('/account?tab=company');
  await page.getByLabel(/^E-mail/).fill(colleague);
  await page.getByRole('button', { name: /^Invite/ }).click();
  await expect(page.getByRole('list', { name: 'Standing invitations' })).toContainText(colleague);
  await expect.poll(() => mailsMentioning(colleague).some((m) => unwrapped(m).includes('/account/sign-in'))).toBe(true);
  const tech = await newBrowser(browser, 390);
  await signInOnAccountPage(tech, colleague, used);
  await tab(tech, 'Parts lists').click();
  await expect(tech.getByRole('list', { name: 'Your parts lists' })).toContainText('07 — 500 h service');
  await tab(tech, 'Quotes & orders').click();
  await expect(tech.getByRole('list', { name: 'Your quote requests' })).toContainText(partName);
  await tab(tech, 'Machines').click();
  await expect(tech.getByRole('list', { name: 'Your machines' }).getByRole('listitem')).toHaveCount(4);

  // An old order of a part since superseded: quoted, accepted, then staff list a new part that replaces it.
  const [oldPart, newPart] = (await getJson<ListResponse>(page.request, '/api/catalog/products?limit=2&offset=40')).products;
  const asked = await page.request.post('/api/quote-requests', {
    data: { customerName: 'Quarry Planner', customerEmail: planner, customerCountry: 'Chile', lines: [{ productId: oldPart!.id, quantity: 6 }] },
  });
  expect(asked.status()).toBe(201);
  const quoteId = ((await asked.json()) as { id: string }).id;
  const staff = await staffApi(page);
  const detail = await page.request.get(`/api/admin/quotes/${quoteId}`, { headers: staff });
  const replied = await page.request.post(`/api/admin/quotes/${quoteId}/reply`, {
    headers: { ...staff, 'if-match': detail.headers().etag! },
    data: { message: 'Our price.', lines: [{ unitPrice: 80, currency: 'USD', leadTime: '2 days' }] },
  });
  expect(replied.status()).toBe(200);
  let token = '';
  await expect
    .poll(() => {
      token = mailsMentioning(planner).map(unwrapped).map((m) => /\/quote\/view\/([A-Za-z0-9_-]{43})/.exec(m)?.[1]).find(Boolean) ?? '';
      return token;
    })
    .not.toBe('');
  const accepted = await page.request.post(`/api/quote-view/${token}/accept`, {
    data: { version: 1, poNumber: 'PO-OLD-1', delivery: { company: 'Quarry Co', address: '1 Pit Road', contactName: 'Ada', contactPhone: '' }, quantities: [6] },
  });
  expect(accepted.status()).toBe(201);
  const full = await getJson<{ partNumber: string }>(page.request, `/api/products/${oldPart!.id}`);
  const edited = await page.request.get(`/api/admin/products/${newPart!.id}`, { headers: staff });
  const newDetail = (await edited.json()) as { replaces?: string[] };
  const patched = await page.request.patch(`/api/admin/products/${newPart!.id}`, {
    headers: { ...staff, 'if-match': edited.headers().etag ?? '*' },
    data: { replaces: [...(newDetail.replaces ?? []), full.partNumber] },
  });
  expect(patched.status(), await patched.text()).toBe(200);

  await page.goto('/account?tab=history');
  const orders = page.getByRole('list', { name: 'Your orders' });
  await expect(orders).toContainText('PO-OLD-1');
  await orders.getByRole('button', { name: /^Reorder order/ }).first().click();
  const reorder = page.getByRole('dialog');
  await expect(reorder.getByRole('list', { name: 'Lines to reorder' })).toContainText(/Superseded/);
  await expect(reorder).toContainText(newPart!.name);
  await reorder.getByRole('button', { name: 'Add to quote list' }).click();
  await page.goto('/quote');
  await expect(page.getByRole('list', { name: 'Quote list lines' })).toContainText(newPart!.name);
});
