import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartsMatchResponse } from '@forgeline/contracts/parts-match';
import type { Product } from '@forgeline/contracts/products';
import { listLineShapes, withTypo } from '../src/seed/parts-list-samples.ts';
import { createRng, generateProducts } from '../src/seed/generate.ts';
import { normalizeCode } from '../src/domain/search/normalize.ts';
import { startCatalog, type CatalogUnderTest } from './harness.ts';

/**
 * A realistic pasted list against a generated catalogue: 80 real parts written eight ways (as printed, lower case
 * without separators, with the brand in front, quantities before or after, columns, a typing mistake), blank lines,
 * a header and numbering, and 12 lines of nonsense. Each line's product, quantity and status is checked.
 */
const products: Product[] = [...generateProducts({ count: 3_000, seed: 7 })];
const codes = new Set(products.map((p) => normalizeCode(p.partNumber ?? p.sku)));
let catalog: CatalogUnderTest;

beforeAll(async () => {
  catalog = await startCatalog({ products });
});
afterAll(async () => {
  await catalog?.stop();
});


describe('POST /api/parts/match', () => {
  it('matches a 100-line list in mixed formats: every real part to its product and quantity, no nonsense line', async () => {
    const rnd = createRng(99);
    // Parts with a part number of their own (several brands can share one; those are the buyer's choice).
    const byCode = new Map<string, Product[]>();
    for (const p of products) byCode.set(normalizeCode(p.partNumber ?? ''), [...(byCode.get(normalizeCode(p.partNumber ?? '')) ?? []), p]);
    const unique = products.filter((p) => p.partNumber && normalizeCode(p.partNumber).length >= 6 && byCode.get(normalizeCode(p.partNumber))!.length === 1);
    const picked = Array.from({ length: 80 }, (_, i) => unique[(i * 37) % unique.length]!);
    const expected: { line: number; product?: Product; quantity: number; kind?: string }[] = [];
    const rows: string[] = ['Part No;Qty;Description'];
    picked.forEach((p, i) => {
      const q = 1 + (i % 9);
      const code = p.partNumber!;
      const shapes = listLineShapes(p, code, q, i + 1);
      const t = i % 10 === 9 ? withTypo(code, rnd, (c) => codes.has(normalizeCode(c))) : null;
      rows.push(t ? `${t} x ${q}` : shapes[i % shapes.length]!);
      expected.push({ line: rows.length, product: p, quantity: q, kind: t ? 'typo' : undefined });
      if (i % 20 === 0) rows.push('');
    });
    for (const junk of ['asdf qwerty', 'hello', '???', 'zzzz 9999999999999', 'please call me', 'thanks!!', 'xyz', '12', 'N/A', 'lorem ipsum dolor', 'QQ-00000000', '---']) {
      rows.push(junk);
      expected.push({ line: rows.length, quantity: junk === '12' ? 12 : 1 });
    }
    const res = await catalog.call('/api/parts/match', { method: 'POST', body: { text: rows.join('\n') } });
    expect(res.status).toBe(200);
    const body = res.body as PartsMatchResponse;
    const byLine = new Map(body.lines.map((l) => [l.line, l]));
    let right = 0;
    for (const e of expected) {
      const got = byLine.get(e.line);
      if (!e.product) {
        expect(got?.status ?? 'unmatched', `line ${e.line} ${rows[e.line - 1]}`).not.toBe('matched');
        continue;
      }
      expect(got, `line ${e.line}`).toBeDefined();
      expect(got!.quantity, `quantity of line ${e.line}: ${got!.input}`).toBe(e.quantity);
      if (got!.status === 'matched' && got!.match!.product.id === e.product.id) right++;
      else console.warn(`line ${e.line} "${got!.input}": ${got!.status} ${got!.match?.product.partNumber ?? ''}`);
      if (e.kind === 'typo' && got!.status === 'matched') expect(got!.match!.kind).toBe('typo');
    }
    // Every real part matched to its product first (typo lines included).
    expect(right).toBe(80);
    expect(body.summary.matched).toBe(80);
  });

  it('refuses what is not a list with a 400 naming the problem', async () => {
    const cases: [unknown, RegExp][] = [
      [{ text: '' }, /the list is empty/],
      [{ text: Array.from({ length: 501 }, (_, i) => `AB-${1000 + i}`).join('\n') }, /more than 500 lines/],
      [{ text: `1R-0750\n${'y'.repeat(10_000)}` }, /line 2 has 10000 characters/],
      [{ text: 'PK\u0003\u0004\u0000\u0000' }, /not text/],
      [{ list: '1R-0750' }, /text/],
    ];
    for (const [body, message] of cases) {
      const res = await catalog.call('/api/parts/match', { method: 'POST', body });
      expect(res.status, String(message)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
  });
});
