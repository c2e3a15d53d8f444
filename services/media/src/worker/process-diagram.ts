import type { Diagram } from '@forgeline/contracts/parts-diagrams';
import { HttpError } from '@forgeline/service-kit/errors';
import type { ProcessDiagramResult } from '../jobs.ts';
import type { Logger } from '@forgeline/service-kit/logger';
import { PermanentJobError, type Catalog, type JobHandlers, type ObjectStore } from '../ports.ts';
import { diagramImageKey, diagramImageUrl, diagramOriginalsPrefix } from '../domain/keys.ts';
import { makeDiagramImages } from '../images/diagram.ts';
import { NotAnImageError } from '../images/inspect.ts';

const sameDiagram = (a: Diagram | null, b: Diagram) =>
  !!a && a.url === b.url && a.width === b.width && a.height === b.height && JSON.stringify(a.variants ?? []) === JSON.stringify(b.variants ?? []);

/**
 * process-diagram: one uploaded parts drawing into its WebP copies, then to its assembly. Safe to run again (a retry,
 * a worker that died mid-way): the copies are named by the original's hash, and the catalog is not told a drawing the
 * assembly has already. A catalog that is down or busy (5xx, 409 from an edit landing at the same moment) fails the
 * attempt and the queue tries again; an assembly deleted meanwhile, or a file that does not decode, fails it for good.
 */
export function createProcessDiagram(deps: { store: ObjectStore; catalog: Catalog; logger: Logger }): JobHandlers['process-diagram'] {
  const { store, catalog, logger } = deps;

  /** A drawing uploaded after this one (its key sorts later): that one is the assembly's, whatever order jobs end in. */
  async function supersededBy(assemblyId: string, originalKey: string): Promise<string | undefined> {
    return (await store.list(diagramOriginalsPrefix(assemblyId))).filter((k) => k > originalKey).sort().at(-1);
  }

  return async ({ assemblyId, originalKey, hash, format, actor }, ctx) => {
    const skipped = (): ProcessDiagramResult => ({ assemblyId, diagram: null, superseded: true, catalogUpdated: false });
    if (await supersededBy(assemblyId, originalKey)) return skipped();
    const input = await store.getBuffer(originalKey);
    if (!input) throw new PermanentJobError(`The uploaded drawing (${originalKey}) is no longer stored`);
    let made;
    try {
      made = await makeDiagramImages(input, format);
    } catch (err) {
      if (err instanceof NotAnImageError) throw new PermanentJobError(`The drawing could not be processed: ${err.message}`);
      throw err;
    }
    await ctx.progress(60);
    await Promise.all(made.images.map((img) => store.put(diagramImageKey(hash, img.width), img.data, { contentType: 'image/webp', size: img.data.length })));
    await ctx.progress(80);
    const diagram: Diagram = {
      url: diagramImageUrl(hash, made.width),
      width: made.width,
      height: made.height,
      ...(made.images.length > 1 ? { variants: made.images.slice(1).map((img) => ({ width: img.width, url: diagramImageUrl(hash, img.width) })) } : {}),
    };
    // Checked again: a newer upload may have been queued while this one was drawn.
    if (await supersededBy(assemblyId, originalKey)) return skipped();
    const assembly = await catalog.assemblyById(assemblyId);
    if (!assembly) throw new PermanentJobError(`Assembly ${assemblyId} no longer exists`);
    if (sameDiagram(assembly.diagram, diagram)) return { assemblyId, diagram, superseded: false, catalogUpdated: false };
    let updated;
    try {
      updated = await catalog.setDiagram(assemblyId, { ...diagram, actor: actor.slice(0, 120) });
    } catch (err) {
      if (err instanceof HttpError && err.status === 400) throw new PermanentJobError(`The catalog refused the drawing: ${err.message}`);
      throw err;
    }
    if (!updated) throw new PermanentJobError(`Assembly ${assemblyId} no longer exists`);
    logger.info({ jobId: ctx.id, assemblyId, version: updated.version, width: diagram.width, height: diagram.height }, 'assembly drawing set');
    return { assemblyId, diagram, superseded: false, catalogUpdated: true };
  };
}
