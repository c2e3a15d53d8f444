import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '@forgeline/test-support/net';
import { MongoQuoteStore } from '../src/adapters/mongo/mongo-quote-store.ts';
import { SqliteQuoteStore } from '../src/adapters/sqlite/sqlite-quote-store.ts';
import { describeQuoteStore } from './quote-store.contract.ts';

const dirs: { remove: () => void }[] = [];
describeQuoteStore('sqlite', async () => {
  const tmp = tempDir('quotes-store-');
  dirs.push(tmp);
  return SqliteQuoteStore.inDataDir(tmp.dir);
});

// MongoDB's side runs against FerretDB (MongoDB's wire protocol) when the helper can start it.
const ferret = await import('@forgeline/test-support/ferretdb')
  .then((m) => m.startFerretDb())
  .catch((err: Error) => ({ skip: `FerretDB helper unavailable: ${err.message}` }));
const skip = 'skip' in ferret ? ferret.skip : undefined;
if (skip) console.warn(`[quotes] mongo QuoteStore contract skipped: ${skip}`);
describeQuoteStore(
  'mongo (FerretDB)',
  async () => {
    if ('skip' in ferret) throw new Error(ferret.skip);
    return MongoQuoteStore.connect(`${ferret.url}/quotes_${randomUUID().replace(/-/g, '')}`);
  },
  skip,
);

afterAll(async () => {
  for (const d of dirs) d.remove();
  if (!('skip' in ferret)) await ferret.stop();
});

describe.skipIf(Boolean(skip))('MongoQuoteStore after a crash inside a save', () => {
  it('moves the mails of a record stored without its outbox rows into the outbox on the next claim', async () => {
    if ('skip' in ferret) return;
    const url = `${ferret.url}/quotes_${randomUUID().replace(/-/g, '')}`;
    const store = await MongoQuoteStore.connect(url);
    const conn = await mongoose.createConnection(url).asPromise();
    try {
      // What a process leaves behind when it dies after inserting the record and before copying its mails.
      const mails = [{ id: 'quote-crash-buyer', refId: 'crash', message: { to: 'a@example.com', subject: 's', text: 't' } }];
      await conn.collection('quote_requests').insertOne({
        _id: 'crash' as never,
        productId: 'p',
        productName: 'P',
        productSku: 'S',
        customerName: 'A',
        customerEmail: 'a@example.com',
        customerPhone: '',
        customerCountry: 'X',
        quantity: 1,
        message: '',
        status: 'pending',
        createdAt: new Date().toISOString(),
        unqueuedMails: JSON.stringify(mails),
      });
      const claimed = await store.claimDueMails(new Date(Date.now() + 1_000), 10, 60_000);
      expect(claimed.map((m) => m.id)).toEqual(['quote-crash-buyer']);
      expect(await store.getQuoteRequest('crash')).toMatchObject({ id: 'crash', status: 'pending' });
      expect((await conn.collection('quote_requests').findOne({ _id: 'crash' as never }))?.unqueuedMails).toBeUndefined();
      // and not twice
      expect(await store.listMails('crash')).toHaveLength(1);
    } finally {
      await conn.close();
      await store.close();
    }
  });
});
