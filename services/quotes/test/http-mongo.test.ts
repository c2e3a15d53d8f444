import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeIndexChecks, MongoQueryRecorder } from '@forgeline/test-support/mongo-queries';
import { MongoQuoteStore, UNINDEXED_QUERIES } from '../src/adapters/mongo/mongo-quote-store.ts';
import { eventually, post, startCatalogStub, startService, validQuote, type TestService } from './harness.ts';

// The same service on the MongoDB adapter (against FerretDB), end to end over HTTP.
const ferret = await import('@forgeline/test-support/ferretdb')
  .then((m) => m.startFerretDb())
  .catch((err: Error) => ({ skip: `FerretDB helper unavailable: ${err.message}` }));
const skip = 'skip' in ferret ? ferret.skip : undefined;
if (skip) console.warn(`[quotes] HTTP tests on MongoDB skipped: ${skip}`);

describe.skipIf(Boolean(skip))('quotes service over HTTP on MongoDB (FerretDB)', () => {
  let catalog: Awaited<ReturnType<typeof startCatalogStub>>;
  let svc: TestService;
  const recorder = new MongoQueryRecorder();
  beforeAll(async () => {
    if ('skip' in ferret) return;
    catalog = await startCatalogStub();
    const store = await MongoQuoteStore.connect(`${ferret.url}/quotes_${randomUUID().replace(/-/g, '')}`, { onCommand: recorder.onCommand });
    svc = await startService({ catalogUrl: catalog.url, store });
  });
  afterAll(async () => {
    await svc?.close();
    await catalog?.close();
    if (!('skip' in ferret)) await ferret.stop();
  });

  it('stores a quote request as pending and sends both mails', async () => {
    const res = await post(`${svc.url}/api/quote-requests`, validQuote());
    expect(res.status).toBe(201);
    expect(await svc.store.getQuoteRequest(res.body.id)).toMatchObject({ status: 'pending', quantity: 3 });
    await eventually(async () => (await svc.store.listMails(res.body.id)).filter((m) => m.status === 'sent').length === 2);
  });

  it('refuses an unknown product and a replayed captcha', async () => {
    expect((await post(`${svc.url}/api/quote-requests`, validQuote({ productId: 'nope' }))).status).toBe(400);
    const c = (await (await fetch(`${svc.url}/api/captcha`)).json()) as { num1: number; num2: number; token: string };
    const body = { name: 'G', email: 'g@example.com', message: 'Hi', captchaAnswer: c.num1 + c.num2, captchaToken: c.token };
    expect((await post(`${svc.url}/api/contact`, body)).status).toBe(200);
    const replay = await post(`${svc.url}/api/contact`, body);
    expect(replay.status).toBe(400);
    expect(replay.body.message).toMatch(/already been used/);
    expect(await svc.store.countContactMessages()).toBe(1);
  });

  // What the running service sent (its outbox and captcha purges too), after the tests above.
  describeIndexChecks('quotes service over HTTP on FerretDB', recorder, UNINDEXED_QUERIES, { partial: true });
});
