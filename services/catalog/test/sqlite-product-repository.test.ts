import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '@forgeline/test-support/net';
import { SqliteProductRepository } from '../src/adapters/sqlite/sqlite-product-repository.ts';
import { describeProductRepository } from './product-repository.contract.ts';
import { PRODUCTS, id, makeProduct } from './fixtures.ts';

const dirs: Array<() => void> = [];
afterAll(() => {
  for (const remove of dirs) remove();
});

async function freshFile() {
  const tmp = tempDir('catalog-sqlite-');
  dirs.push(tmp.remove);
  return path.join(tmp.dir, 'catalog.sqlite');
}

describeProductRepository('sqlite', async () => SqliteProductRepository.open(await freshFile()));

describe('SqliteProductRepository', () => {
  it('sees totals written by another connection (the seed CLI writes while the service runs)', async () => {
    const file = await freshFile();
    const service = SqliteProductRepository.open(file);
    const seeder = SqliteProductRepository.open(file);
    try {
      await seeder.upsertMany(PRODUCTS.slice(0, 2));
      expect(await service.count()).toBe(2);
      await seeder.upsertMany([makeProduct({ id: id(50), name: 'Idler', sku: 'ID-1', category: 'Undercarriage', brandName: 'Hitachi' })]);
      expect(await service.count()).toBe(3);
      expect((await service.findBrand('hitachi'))?.productCount).toBe(1);
      expect((await service.listAll({ limit: 10, offset: 0 })).items.map((p) => p.name)).toContain('Idler');
      await seeder.upsertMany([{ ...PRODUCTS[0]!, name: 'Aardvark Filter' }]);
      expect((await service.listAll({ limit: 10, offset: 0 })).items[0]?.name).toBe('Aardvark Filter');
    } finally {
      await service.close();
      await seeder.close();
    }
  });

  it('keeps its data across a reopen', async () => {
    const file = await freshFile();
    const first = SqliteProductRepository.open(file);
    await first.upsertMany(PRODUCTS);
    await first.close();
    const again = SqliteProductRepository.open(file);
    try {
      expect(await again.count()).toBe(PRODUCTS.length);
      expect((await again.getById(id(1)))?.name).toBe('Hydraulic Oil Filter');
    } finally {
      await again.close();
    }
  });
});
