import { randomUUID } from 'node:crypto';
import { afterAll } from 'vitest';
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
