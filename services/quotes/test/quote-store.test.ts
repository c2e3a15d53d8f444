import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import mongoose from 'mongoose';
import { afterAll, describe, expect, it } from 'vitest';
import { startMongoDb } from '@forgeline/test-support/mongodb';
import { describeIndexChecks, MongoQueryRecorder } from '@forgeline/test-support/mongo-queries';
import { tempDir } from '@forgeline/test-support/net';
import { MongoQuoteStore, UNINDEXED_QUERIES } from '../src/adapters/mongo/mongo-quote-store.ts';
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
const recorder = new MongoQueryRecorder();
describeQuoteStore(
  'mongo (FerretDB)',
  async () => {
    if ('skip' in ferret) throw new Error(ferret.skip);
    return MongoQuoteStore.connect(`${ferret.url}/quotes_${randomUUID().replace(/-/g, '')}`, { onCommand: recorder.onCommand });
  },
  skip,
);
// FerretDB scans where MongoDB would use an index, so what is proven here is the shapes against the indexes.
describeIndexChecks('quotes on FerretDB', recorder, UNINDEXED_QUERIES, skip ? { skip } : {});

// A real MongoDB through testcontainers, where a Docker engine answers: the contract, the same check, and MongoDB's own plans.
const mongo = await startMongoDb();
if ('skip' in mongo) console.warn(`[quotes] mongo QuoteStore contract on MongoDB skipped: ${mongo.skip}`);
const onMongo = new MongoQueryRecorder();
describeQuoteStore(
  'mongo (MongoDB, testcontainers)',
  async () => {
    if ('skip' in mongo) throw new Error(mongo.skip);
    return MongoQuoteStore.connect(`${mongo.url}/quotes_${randomUUID().replace(/-/g, '')}`, { onCommand: onMongo.onCommand });
  },
  'skip' in mongo ? mongo.skip : undefined,
);
describeIndexChecks(
  'quotes on MongoDB (testcontainers)',
  onMongo,
  UNINDEXED_QUERIES,
  'skip' in mongo
    ? { skip: mongo.skip }
    : {
        explainOn: async () => {
          const conn = await mongoose.createConnection(mongo.url).asPromise();
          return { client: conn.getClient(), close: () => conn.close() };
        },
      },
);

afterAll(async () => {
  for (const d of dirs) d.remove();
  if (!('skip' in ferret)) await ferret.stop();
  if (!('skip' in mongo)) await mongo.stop();
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

describe('SqliteQuoteStore opening a database from before the inbox', () => {
  it('gives the requests and messages already stored their inbox entries, counts and search words', async () => {
    const tmp = tempDir('quotes-legacy-');
    dirs.push(tmp);
    const file = `${tmp.dir}/quotes.sqlite`;
    const old = new Database(file);
    old.exec(`CREATE TABLE quote_requests (id TEXT PRIMARY KEY, product_id TEXT NOT NULL, product_name TEXT NOT NULL, product_sku TEXT NOT NULL,
      customer_name TEXT NOT NULL, customer_email TEXT NOT NULL, customer_phone TEXT NOT NULL, customer_country TEXT NOT NULL,
      quantity INTEGER NOT NULL, message TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'pending', created_at TEXT NOT NULL);
      CREATE TABLE contact_messages (id TEXT PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, country_code TEXT NOT NULL,
      phone TEXT NOT NULL, subject TEXT NOT NULL, message TEXT NOT NULL, created_at TEXT NOT NULL);`);
    // One transaction: 6,100 commits of their own took a minute on a busy CI disk.
    const insert = old.prepare('INSERT INTO quote_requests VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    old.transaction(() => {
      for (let i = 0; i < 6_100; i++) {
        insert.run(`old-${i}`, 'p-1', 'Track Roller', `TR-${i}`, `Buyer ${i}`, `b${i}@fleet.example`, '', 'Peru', 1, '', 'pending', new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString());
      }
    })();
    old.prepare("UPDATE quote_requests SET status = 'won' WHERE id IN ('old-1', 'old-2')").run();
    old.prepare('INSERT INTO contact_messages VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run('old-c', 'Grace', 'g@x.example', '+1', '', 'Invoice copy', 'Please resend', '2025-02-01T00:00:00.000Z');
    old.close();
    const store = new SqliteQuoteStore(file);
    try {
      const page = await store.listInbox({}, 0, 3);
      expect(page.total).toBe(6_101);
      expect(page.counts).toMatchObject({ pending: 6_099, won: 2 });
      expect(page.items[0]).toMatchObject({ id: 'old-c', kind: 'contact', subject: 'Invoice copy' });
      expect((await store.listInbox({ q: 'TR-2499' }, 0, 5)).items.map((i) => i.id)).toEqual(['old-2499']);
      expect((await store.listInbox({ kind: 'quote', assignee: null }, 0, 1)).total).toBe(6_100);
      // a common word (every quote's product): newest first and counted per status the same way as a rare one
      const common = await store.listInbox({ q: 'track roll' }, 1, 3);
      expect(common.items.map((i) => i.id)).toEqual(['old-6098', 'old-6097', 'old-6096']);
      expect(common.counts).toMatchObject({ pending: 6_098, won: 2 });
      expect((await store.listInbox({ q: 'track', status: 'won' }, 0, 5)).items.map((i) => i.id)).toEqual(['old-2', 'old-1']);
      // a change made since is in the next search's counts
      await store.updateInbox('old-5', 0, { status: 'spam', updatedAt: new Date().toISOString(), events: [], mails: [] });
      await store.saveQuoteRequest({ ...(await store.getQuoteRequest('old-6'))!, id: 'new-1', createdAt: new Date().toISOString() }, []);
      expect((await store.listInbox({ q: 'track' }, 0, 1)).counts).toMatchObject({ pending: 6_098, won: 2, spam: 1 });
    } finally {
      await store.close();
    }
  });
});
