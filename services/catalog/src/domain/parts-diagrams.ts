import { randomUUID } from 'node:crypto';
import type { Product, ProductListResponse } from '@forgeline/contracts/products';
import {
  WHERE_USED_LIMIT,
  type Assembly,
  type AssemblyHistoryEntry,
  type AssemblyLine,
  type AssemblyPage,
  type AssemblyPart,
  type AssemblySummary,
  type Callout,
  type WhereUsedResponse,
} from '@forgeline/contracts/parts-diagrams';
import { codeKey, slugify } from '@forgeline/contracts/slug';
import type { DiagramModel, DiagramStore, ProductRepository } from '../ports.ts';
import { replacementOf } from './replacement.ts';

/**
 * Parts diagrams (#38): the rules an assembly keeps whoever writes it (the editor, an import, the seed), and what the
 * buyer's pages read.
 */

/** Callouts in the order a parts book lists them: by number (7 before 12, 12 before 12A), then as given. */
export function sortCallouts<T extends { number: string }>(callouts: readonly T[]): T[] {
  const key = (n: string) => {
    const m = /^(\d+)([A-Z]?)$/.exec(n);
    return m ? [Number(m[1]), m[2]!] as const : [Number.MAX_SAFE_INTEGER, n] as const;
  };
  return callouts
    .map((c, i) => ({ c, i, k: key(c.number) }))
    .sort((a, b) => a.k[0] - b.k[0] || (a.k[1] < b.k[1] ? -1 : a.k[1] > b.k[1] ? 1 : 0) || a.i - b.i)
    .map((x) => x.c);
}

/** What an assembly holds that a change can change: equal content means no new version. */
export const contentOf = (a: Pick<Assembly, 'name' | 'callouts'>) => JSON.stringify([a.name, sortCallouts(a.callouts)]);

/** A slug for `name` not taken by another assembly of the model ("final-drive", "final-drive-2"). */
export function freeSlug(name: string, taken: (slug: string) => boolean): string {
  const base = slugify(name) || 'assembly';
  if (!taken(base)) return base;
  for (let n = 2; ; n++) if (!taken(`${base}-${n}`)) return `${base}-${n}`;
}

export function newAssembly(o: { make: string; model: string; name: string; slug: string; actor: string; at: string; id?: string; callouts?: Callout[] }): Assembly {
  return {
    id: o.id ?? randomUUID(),
    make: o.make.trim(),
    model: o.model.trim(),
    makeSlug: slugify(o.make),
    modelSlug: slugify(o.model),
    slug: o.slug,
    name: o.name.trim(),
    diagram: null,
    callouts: sortCallouts(o.callouts ?? []),
    version: 1,
    updatedAt: o.at,
    updatedBy: o.actor,
  };
}

export const historyEntry = (a: Assembly, action: AssemblyHistoryEntry['action'], actor: string, summary: string): AssemblyHistoryEntry => ({
  version: a.version,
  at: a.updatedAt,
  actor,
  action,
  summary,
});

/** "3 lines added, 1 removed, 2 changed" between two tables (the history's one line). */
export function describeChange(before: readonly Callout[], after: readonly Callout[]): string {
  const keyOf = (c: Callout) => `${c.number}|${c.partId}|${c.serialFrom ?? ''}|${c.serialTo ?? ''}`;
  const was = new Map(before.map((c) => [keyOf(c), JSON.stringify(c)]));
  const now = new Map(after.map((c) => [keyOf(c), JSON.stringify(c)]));
  let added = 0;
  let changed = 0;
  for (const [k, v] of now) {
    if (!was.has(k)) added++;
    else if (was.get(k) !== v) changed++;
  }
  const removed = [...was.keys()].filter((k) => !now.has(k)).length;
  const parts = [added && `${added} added`, removed && `${removed} removed`, changed && `${changed} changed`].filter(Boolean);
  return parts.length ? `lines: ${parts.join(', ')}` : 'no change to the lines';
}

/** The ids among `ids` that are no live part (a callout must name one). */
export async function unknownParts(repo: Pick<ProductRepository, 'getSummaries'>, ids: string[]): Promise<Set<string>> {
  const unique = [...new Set(ids)];
  const found = new Set((await repo.getSummaries(unique)).map((s) => s.id));
  return new Set(unique.filter((id) => !found.has(id)));
}

export const summaryOf = (a: Assembly): AssemblySummary => ({
  id: a.id,
  slug: a.slug,
  name: a.name,
  calloutCount: new Set(a.callouts.map((c) => c.number)).size,
  diagram: a.diagram,
});

const partOf = async (repo: ProductRepository, p: Product): Promise<AssemblyPart> => {
  const replaced = await replacementOf(repo, p);
  return {
    id: p.id,
    name: p.name,
    sku: p.sku,
    partNumber: p.partNumber,
    brandName: p.brandName,
    slug: p.slug,
    inStock: p.inStock,
    availability: p.availability,
    imageUrl: p.imageUrl,
    images: p.images,
    replacedBy: replaced ? { id: replaced.id, name: replaced.name, partNumber: replaced.partNumber, slug: replaced.slug } : null,
    crossReferences: p.crossReferences ?? [],
  };
};

/** An assembly as the buyer's page shows it: each line with its part as it stands today. */
export async function assemblyPage(repo: ProductRepository, diagrams: DiagramStore, a: Assembly): Promise<AssemblyPage> {
  const ids = [...new Set(a.callouts.map((c) => c.partId))];
  const [products, siblings] = await Promise.all([Promise.all(ids.map((id) => repo.getById(id))), diagrams.listForModel(a.makeSlug, a.modelSlug)]);
  const parts = new Map<string, AssemblyPart>();
  await Promise.all(
    products.map(async (p) => {
      if (p) parts.set(p.id, await partOf(repo, p));
    }),
  );
  const lines: AssemblyLine[] = a.callouts.map((c) => ({ ...c, part: parts.get(c.partId) ?? null }));
  return {
    id: a.id,
    make: a.make,
    model: a.model,
    makeSlug: a.makeSlug,
    modelSlug: a.modelSlug,
    slug: a.slug,
    name: a.name,
    diagram: a.diagram,
    lines,
    version: a.version,
    updatedAt: a.updatedAt,
    siblings: siblings.map((s) => ({ slug: s.slug, name: s.name })),
  };
}

/** The assemblies a part is drawn in, with its callout numbers and quantity in each. */
export async function whereUsed(diagrams: DiagramStore, productId: string): Promise<WhereUsedResponse> {
  const { items, total } = await diagrams.whereUsed(productId, WHERE_USED_LIMIT);
  return {
    total,
    assemblies: items.map((a) => {
      // Lines of one number are the same place on the machine (split by serial range): counted once, the most of them.
      const byNumber = new Map<string, number>();
      for (const c of a.callouts) if (c.partId === productId) byNumber.set(c.number, Math.max(byNumber.get(c.number) ?? 0, c.quantity));
      return {
        make: a.make,
        model: a.model,
        makeSlug: a.makeSlug,
        modelSlug: a.modelSlug,
        assemblySlug: a.slug,
        assemblyName: a.name,
        callouts: [...byNumber.keys()],
        quantity: [...byNumber.values()].reduce((n, q) => n + q, 0),
      };
    }),
  };
}

/** An assembly a search can open. */
export type AssemblyHit = NonNullable<ProductListResponse['assemblies']>[number];

/** The words of a model's name that name it in a search: those with a digit ("320D", "PC200-8", "9400"), as codes. */
export const modelKeys = (model: string) =>
  model
    .split(/\s+/)
    .filter((w) => /\d/.test(w))
    .map(codeKey)
    .filter((k) => k.length >= 2);

/**
 * Search knows the parts books (#38): a query naming a machine model ("320D") and words of an assembly or its parts
 * ("idler seal") finds the assemblies it can open: by the assembly's name, and by the search's own hits drawn in it.
 * The models with parts books are read once per `ttlMs` (a few hundred rows), and again after any change.
 */
export class DiagramSearch {
  /** The models with parts books, and the words that name each, worked out once per read (not once per search). */
  private models: { at: number; list: Promise<{ model: DiagramModel; keys: string[] }[]> } | null = null;
  constructor(
    private readonly diagrams: DiagramStore,
    private readonly ttlMs = 30_000,
  ) {}

  clear(): void {
    this.models = null;
  }

  private modelList() {
    if (!this.models || Date.now() - this.models.at > this.ttlMs) {
      const list = this.diagrams.models().then((ms) => ms.map((model) => ({ model, keys: modelKeys(model.model) })));
      this.models = { at: Date.now(), list };
      list.catch(() => (this.models = null));
    }
    return this.models.list;
  }

  async find(query: string, hitIds: readonly string[], limit = 3): Promise<AssemblyHit[]> {
    // Most searches name no model: the words with a digit are the only ones that could, and most queries have none.
    const words = query.split(/\s+/).filter(Boolean);
    const keys = new Set(words.filter((w) => /\d/.test(w)).map(codeKey));
    if (!keys.size) return [];
    const named = (await this.modelList()).filter((m) => m.keys.some((k) => keys.has(k))).slice(0, 3);
    if (!named.length) return [];
    const modelWords = new Set(named.flatMap((m) => m.keys));
    const rest = words.filter((w) => !modelWords.has(codeKey(w))).map((w) => w.toLowerCase()).filter((w) => w.length >= 3);
    if (!rest.length) return [];
    const hits = new Set(hitIds);
    const scored: { score: number; hit: AssemblyHit }[] = [];
    for (const { model: m } of named) {
      for (const a of await this.diagrams.listForModel(m.makeSlug, m.modelSlug)) {
        const name = a.name.toLowerCase();
        const byName = rest.filter((w) => name.includes(w)).length;
        const callouts = [...new Set(a.callouts.filter((c) => hits.has(c.partId)).map((c) => c.number))];
        const score = byName * 2 + Math.min(callouts.length, 3);
        if (score > 0) {
          scored.push({
            score,
            hit: { make: a.make, model: a.model, makeSlug: a.makeSlug, modelSlug: a.modelSlug, assemblySlug: a.slug, assemblyName: a.name, callouts },
          });
        }
      }
    }
    return scored
      .sort((x, y) => y.score - x.score || x.hit.assemblyName.localeCompare(y.hit.assemblyName))
      .slice(0, limit)
      .map((s) => s.hit);
  }
}
