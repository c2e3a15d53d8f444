import { childRole, startTsProcess } from '@forgeline/service-kit/ts-worker';
import { openForMerge, writeMerged } from './base.ts';

/**
 * The search index's full merge, in a process of its own (started by compaction.ts; this module imports only what the
 * merge reads and writes, never the engine that starts it). After a bulk import the catalog holds the base and hundreds
 * of thousands of changed documents; merging them into one new base in the catalog (even in a worker thread) held
 * the old index, the copy handed over and the new one at once: 2.0 GB at 750,000 parts. This process reads what the
 * catalog wrote to disk instead (the snapshot, and the journal up to the point the merge covers), writes the merged
 * base as a new snapshot file and ends, giving its memory back whole; the catalog then loads that file in place of
 * what it held. Writes go on meanwhile: the journal after that point is replayed on the new base.
 */

const ROLE = 'search-index-merge';
/** Background work: the catalog's requests go first on a busy machine. */
const MERGE_NICE = 10;

export interface MergeRequest {
  /** the index's folder (snapshot and journal) */
  dir: string;
  /** the journal's bytes [0, journalEnd) are merged; later ones are not */
  journalEnd: number;
  /** where the merged snapshot is written */
  target: string;
}

export interface MergeResult {
  documents: number;
  /** documents changed since the base that were merged in */
  merged: number;
  ms: number;
}

if (childRole() === ROLE) {
  // The catalog is this process's only reason to be: if it goes away, stop (the target is a file of its own).
  const orphaned = () => process.exit(1);
  process.once('disconnect', orphaned);
  process.once('message', (req: MergeRequest) => {
    const t0 = performance.now();
    openForMerge(req.dir, req.journalEnd)
      .then(async (state) => {
        const { documents, merged } = await writeMerged(state, req.target);
        process.off('disconnect', orphaned);
        process.send!({ documents, merged, ms: Math.round(performance.now() - t0) } satisfies MergeResult, undefined, undefined, () => process.disconnect());
      })
      .catch((err: unknown) => {
        console.error('search index merge process failed', err);
        process.exit(1);
      });
  });
}

/**
 * Runs one full merge in a new process. Resolves with its counts once the target snapshot is written; rejects when
 * the process could not start, failed, or was stopped through `signal` (the target may then be left half-written
 * under a temporary name, which the index removes when it next opens).
 */
export function runMergeProcess(req: MergeRequest, signal?: AbortSignal): Promise<MergeResult> {
  return new Promise((resolve, reject) => {
    // A process that cannot start throws here, which rejects the promise.
    const child = startTsProcess(import.meta.url, ROLE, MERGE_NICE);
    let result: MergeResult | null = null;
    const stop = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', stop, { once: true });
    child.on('message', (m: MergeResult) => (result = m));
    child.once('error', (err) => {
      signal?.removeEventListener('abort', stop);
      reject(err);
    });
    child.once('exit', (code, sig) => {
      signal?.removeEventListener('abort', stop);
      if (result) resolve(result);
      else reject(new Error(`the search index merge process stopped (${sig ?? `exit ${code}`}) before the merge was written`));
    });
    child.send(req);
  });
}
