import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from './support/test.ts';
import { getJson, type ListResponse, type Summary } from './support/catalog.ts';
import { mailsMentioning } from './support/dev-mailbox.ts';

/**
 * The quote list: parts added from search results and a product page, a pasted list matched to the catalogue
 * (with an ambiguous line resolved by the buyer and a line kept as text), the list kept in step across tabs,
 * and one request for every line, down to the seller's mail.
 */

const badge = (page: Page) => page.getByRole('link', { name: /^Quote list/ });

async function searchHits(page: Page, q: string): Promise<Summary[]> {
  return (await getJson<ListResponse>(page.request, `/api/catalog/products?limit=48&search=${encodeURIComponent(q)}`)).products;
}

/** Parts of `hits` whose line `write(part)` the match call takes to that very part (a number several brands share is not). */
async function matchedAs(page: Page, hits: Summary[], write: (p: Summary) => string): Promise<Summary[]> {
  const res = await page.request.post('/api/parts/match', { data: { text: hits.map(write).join('\n') } });
  expect(res.ok()).toBe(true);
  const { lines } = (await res.json()) as { lines: { line: number; status: string; match?: { product: { id: string } } }[] };
  return hits.filter((p, i) => lines.find((l) => l.line === i + 1)?.match?.product.id === p.id && lines.find((l) => l.line === i + 1)?.status === 'matched');
}

const spacedNumber = (p: Summary) => p.partNumber!.toLowerCase().replace(/^(.{3})/, '$1 ');
const slipped = (p: Summary) => `${p.partNumber!.slice(0, -1)}${p.partNumber!.endsWith('7') ? '8' : '7'}`;

test('adds parts from search and a product page, matches a pasted list, and sends one request for all lines', async ({ page, context }) => {
  // From the search results: the first card, quantity 2.
  await page.goto('/?search=filter');
  const firstCard = page.locator('article').first();
  const fromSearch = (await firstCard.getByRole('heading').textContent())!.trim();
  await firstCard.getByLabel(/^Quantity of/).fill('2');
  await firstCard.getByRole('button', { name: /to quote list$/ }).click();
  await expect(page.getByText('Added to your quote list')).toBeVisible();
  await expect(badge(page)).toHaveAccessibleName('Quote list, 1 line');

  // From a product page: another part, quantity 3.
  const hits = await searchHits(page, 'filter');
  const other = hits.find((p) => p.name.toUpperCase() !== fromSearch.toUpperCase() && p.partNumber)!;
  await page.goto(`/products/${other.id}/${other.slug}`);
  await page.getByLabel(/^Quantity of/).fill('3');
  await page.getByRole('button', { name: 'Add to Quote List' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'On your quote list' })).toContainText('× 3');
  await expect(badge(page)).toHaveAccessibleName('Quote list, 2 lines');

  // The list page, and a second tab that follows it.
  await badge(page).click();
  await expect(page).toHaveURL(/\/quote$/);
  const lines = page.getByRole('list', { name: 'Quote list lines' }).getByRole('listitem');
  await expect(lines).toHaveCount(2);
  const second = await context.newPage();
  await second.goto('/quote');
  await expect(second.getByRole('list', { name: 'Quote list lines' }).getByRole('listitem')).toHaveCount(2);
  await page.getByLabel(/^Quantity for line 2/).fill('5');
  await expect(second.getByLabel(/^Quantity for line 2/)).toHaveValue('5');

  // A pasted list: a part number written another way, a typing slip, a word-only line (ambiguous), nonsense.
  const onList = (p: Summary) => p.id === other.id || p.name.toUpperCase() === fromSearch.toUpperCase();
  const candidates = hits.filter((p) => !onList(p) && /\d{4}/.test(p.partNumber ?? ''));
  const exactPart = (await matchedAs(page, candidates, spacedNumber))[2]!;
  const typoPart = (await matchedAs(page, candidates.filter((p) => p.id !== exactPart.id), slipped))[0]!;
  const pasted = ['Part No;Qty', `${spacedNumber(exactPart)};4`, `${slipped(typoPart)} x 2`, 'oil filter', 'qqq zzz unknown thing 7 pcs'];
  await page.getByLabel('Your list').fill(pasted.join('\n'));
  await page.getByRole('button', { name: 'Match parts' }).click();
  const summary = page.getByRole('status').filter({ hasText: / read: / });
  await expect(summary).toContainText('4 lines read');
  await expect(summary).toContainText('1 needs your choice');
  await expect(summary).toContainText('1 not found (added as your text)');
  await expect(page.getByText(`${exactPart.partNumber}`, { exact: false }).first()).toBeVisible();

  // The ambiguous line: the buyer picks the first alternative.
  const chooser = page.getByRole('group', { name: 'Which part do you mean?' });
  // One not on the list already (that would add to its quantity instead of making a line).
  const listed = (await lines.getByRole('link').allTextContents()).map((t) => t.trim().toUpperCase());
  const options = await chooser.getByRole('button').allTextContents();
  const at = options.findIndex((o) => o.includes(' · ') && !listed.some((n) => o.toUpperCase().includes(n)));
  const pick = chooser.getByRole('button').nth(at);
  const picked = options[at]!;
  await pick.click();
  await expect(chooser).toHaveCount(0);
  await expect(lines).toHaveCount(6);
  await expect(badge(page)).toHaveAccessibleName('Quote list, 6 lines');
  await expect(lines.getByText('qqq zzz unknown thing 7 pcs', { exact: true })).toBeVisible();
  await expect(second.getByRole('list', { name: 'Quote list lines' }).getByRole('listitem')).toHaveCount(6);

  // A note on a line, then the request.
  await page.getByLabel(/^Note for line 1/).fill('Need genuine only');
  const email = `e2e-list-${randomUUID().slice(0, 8)}@example.com`;
  await page.getByLabel(/^Full Name/).fill('List Buyer');
  await page.getByLabel(/^Business Email/).fill(email);
  await page.getByLabel(/^Country/).selectOption('Chile');
  const label = page.locator('label', { hasText: 'Security check' });
  await expect(label).toHaveText(/what is \d+ \+ \d+\?/);
  const [, a, b] = /what is (\d+) \+ (\d+)\?/.exec((await label.textContent()) ?? '')!;
  await page.getByLabel(/Security check/).fill(String(Number(a) + Number(b)));
  const whatsapp = page.getByRole('link', { name: 'Send the list on WhatsApp' });
  const waText = new URL((await whatsapp.getAttribute('href'))!).searchParams.get('text')!;
  expect(waText).toContain(`${other.partNumber} (${other.brandName}) × 5`);
  expect(waText).toContain('qqq zzz unknown thing 7 pcs × 7');
  await page.getByRole('button', { name: 'Send Quote Request (6 parts)' }).click();
  await expect(page.getByText('Thank you, List Buyer!')).toBeVisible();
  await expect(page.getByText(/request for 6 parts has been received/)).toBeVisible();
  await expect(badge(page)).toHaveAccessibleName('Quote list');
  await expect(second.getByText('Your quote list is empty')).toBeVisible();

  await expect.poll(() => mailsMentioning(email).length, { message: `two mails mentioning ${email}` }).toBe(2);
  for (const mail of mailsMentioning(email)) {
    const flat = mail.replace(/=\r?\n/g, '');
    expect(flat).toMatch(/Subject: .*6 parts/);
    for (const sku of [other.sku, exactPart.sku, typoPart.sku]) expect(flat).toContain(sku);
    expect(flat).toContain(picked.split(' · ')[0]!.trim());
    // The line kept as text: in the seller's mail as typed; the buyer's confirmation (to an address nobody verified)
    // carries none of the sender's words, only that a part outside the catalogue was asked for.
    if (/^To: .*sales@/m.test(flat)) expect(flat).toContain('qqq zzz unknown thing 7 pcs');
    else {
      expect(flat).not.toContain('qqq zzz');
      expect(flat).toContain('A part not in our catalogue');
    }
  }
});

test('the list survives a reload, refuses a 201st line with a clear message, and reads an uploaded CSV', async ({ page }) => {
  await page.goto('/quote');
  await expect(page.getByText('Your quote list is empty')).toBeVisible();
  // Fill the list to its limit through storage, as 200 earlier adds would have.
  const full = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ key: `text:${i}`, text: `PART-${i}`, quantity: 1, note: '' })));
  await page.evaluate(`localStorage.setItem('forgeline.quote-list.v1', ${JSON.stringify(full)})`);
  await page.reload();
  await expect(page.getByRole('list', { name: 'Quote list lines' }).getByRole('listitem')).toHaveCount(200);
  await expect(page.getByText('200 of 200 lines')).toBeVisible();

  const [part] = await matchedAs(page, await searchHits(page, 'filter'), (p) => p.partNumber ?? p.sku);
  const csv = `Part Number,Quantity\n${part!.partNumber},2\n`;
  await page.locator('input[type=file]').setInputFiles({ name: 'list.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByRole('status').filter({ hasText: / read: / })).toContainText('1 not added: the list is full');
  await expect(page.getByText('Not added: the quote list is full.')).toBeVisible();

  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Clear the list' }).click();
  await expect(page.getByText('Your quote list is empty')).toBeVisible();
  await page.locator('input[type=file]').setInputFiles({ name: 'list.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByRole('status').filter({ hasText: / read: / })).toContainText('1 line read: 1 matched and added');
  await page.reload();
  await expect(page.getByRole('list', { name: 'Quote list lines' }).getByRole('listitem')).toHaveCount(1);
  await expect(page.getByLabel(/^Quantity for line 1/)).toHaveValue('2');
});
