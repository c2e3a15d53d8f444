import type { MediaJobStatus, SkippedItem } from '@forgeline/contracts/media';
import type { JobInfo } from '../ports.ts';

/** A finished job's images: a SKU's photos, or a drawing (one image; superseded by a newer upload counts as unchanged). */
function imagesOf(info: JobInfo): { processed: number; unchanged: number; failed: { file?: string; reason: string }[] } {
  if (info.name === 'process-diagram') {
    const r = info.result as JobInfo<'process-diagram'>['result'];
    return { processed: r && !r.superseded ? 1 : 0, unchanged: r?.superseded ? 1 : 0, failed: [] };
  }
  const r = info.result as JobInfo<'process-sku'>['result'];
  return { processed: r?.processed ?? 0, unchanged: r?.unchanged ?? 0, failed: r?.failed ?? [] };
}

/** What one upload call queued: stored as JSON so any API process can answer the status call. */
export interface BatchRecord {
  id: string;
  kind: MediaJobStatus['kind'];
  createdAt: string;
  jobs: { jobId: string; sku: string; images: number }[];
  skipped: SkippedItem[];
}

/** Fold the queue's view of each SKU job into the status the admin panel shows. */
export function batchStatus(batch: BatchRecord, infos: (JobInfo | null)[]): MediaJobStatus {
  const skus = { total: batch.jobs.length, waiting: 0, active: 0, completed: 0, failed: 0 };
  const images = { total: 0, processed: 0, unchanged: 0, failed: 0 };
  const failures: MediaJobStatus['failures'] = [];
  let done = 0;
  batch.jobs.forEach((job, i) => {
    const info = infos[i];
    images.total += job.images;
    if (!info) {
      // Removed from the queue (retention) or never added: count it as waiting, not as success.
      skus.waiting += 1;
      return;
    }
    if (info.state === 'completed' && info.result) {
      skus.completed += 1;
      const r = imagesOf(info);
      images.processed += r.processed;
      images.unchanged += r.unchanged;
      images.failed += r.failed.length;
      for (const f of r.failed) failures.push({ sku: job.sku, file: f.file, reason: f.reason });
      done += job.images;
    } else if (info.state === 'failed') {
      skus.failed += 1;
      images.failed += job.images;
      failures.push({ sku: job.sku, reason: info.failedReason ?? 'failed' });
      done += job.images;
    } else if (info.state === 'active') {
      skus.active += 1;
      done += (job.images * Math.min(100, Math.max(0, info.progress))) / 100;
    } else {
      skus.waiting += 1;
    }
  });
  const finished = skus.completed + skus.failed === skus.total;
  const state: MediaJobStatus['state'] = !finished
    ? skus.active > 0 || skus.completed + skus.failed > 0
      ? 'running'
      : 'queued'
    : skus.failed === skus.total && skus.total > 0
      ? 'failed'
      : failures.length > 0
        ? 'completed_with_errors'
        : 'completed';
  const progress = images.total > 0 ? Math.round((done / images.total) * 1000) / 10 : finished ? 100 : 0;
  return {
    id: batch.id,
    kind: batch.kind,
    state,
    progress: finished ? 100 : Math.min(99.9, progress),
    createdAt: batch.createdAt,
    skus,
    images,
    failures,
    skipped: batch.skipped,
  };
}
