import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { generateDocs } from '../../test/harness.ts';
import { IndexBuilder } from './index-builder.ts';
import { buildSegmentParts, mergeSegmentParts } from './segment-builder.ts';

const docs = [...generateDocs(6000)];
/** The builder's thread, to stop it as a crash would. */
const threadOf = (b: IndexBuilder) => (b as unknown as { worker: Worker | null }).worker;

describe('the index builder thread', () => {
  let builder: IndexBuilder;
  afterEach(async () => {
    await builder.close();
  });

  it('builds and merges in its thread exactly what the same code builds here', async () => {
    builder = new IndexBuilder();
    const a = await builder.build(docs.slice(0, 3000), 0);
    const b = await builder.build(docs.slice(3000), 3000);
    expect(builder.threadJobs).toBe(2);
    expect(a).toEqual(buildSegmentParts(docs.slice(0, 3000), 0));
    const remap = Int32Array.from({ length: 6000 }, (_, d) => (d % 7 === 0 ? -1 : d)); // every 7th replaced since
    const want = mergeSegmentParts([a, b], remap, 0);
    const merged = await builder.merge([structuredClone(a), structuredClone(b)], remap.slice(), 0);
    expect(builder.threadJobs).toBe(3);
    expect(merged).toEqual(want);
    expect(merged.codes.docs.includes(7)).toBe(false);
  });

  it('a build the thread did not finish is done here instead; a merge whose data went with the thread fails', async () => {
    builder = new IndexBuilder();
    const building = builder.build(docs, 0);
    await threadOf(builder)!.terminate();
    expect(await building).toEqual(buildSegmentParts(docs, 0));

    const seg = buildSegmentParts(docs.slice(0, 3000), 0);
    const merging = builder.merge([seg, buildSegmentParts(docs.slice(3000), 3000)], Int32Array.from({ length: 6000 }, (_, d) => d), 0);
    await threadOf(builder)!.terminate();
    await expect(merging).rejects.toThrow(/the thread stopped during a merge/);
    // The next job starts a new thread.
    expect(await builder.build(docs.slice(0, 500), 0)).toEqual(buildSegmentParts(docs.slice(0, 500), 0));
  });
});
