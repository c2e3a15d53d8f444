/**
 * The demo catalogue's parts diagrams (#38): for every machine model the generated parts fit, a parts book of the
 * assemblies its parts make up (a track roller frame for a dozer, a mast for a forklift), each with 8-40 callouts of
 * parts that fit the model (with their serial ranges), and a drawn exploded view (an SVG made here, served at
 * /media/generated/diagrams/...: no photos). The seed hands every product it writes to `take`; what is kept stays
 * small (at most a few dozen candidates per model and group), so 2,000,000 parts cost no more memory than 20,000.
 */
import type { Product } from '@forgeline/contracts/products';
import { GeneratedDiagramParamsSchema, round2, type Assembly, type Callout } from '@forgeline/contracts/parts-diagrams';

export { GeneratedDiagramParamsSchema };
import { stableUuid } from '../domain/stable-uuid.ts';
import { sortCallouts } from '../domain/parts-diagrams.ts';
import type { z } from 'zod';
import { slugify, titleFromSlug } from '@forgeline/contracts/slug';
import { BRANDS, CATEGORIES, type Group } from './catalogue-data.ts';
import { escapeXml } from './part-image.ts';

/** A parts-book section: the groups of parts it is made of, and the machines that have it (by the model's last word). */
interface Section {
  name: string;
  groups: Group[];
  /** Words of the model name ("Excavator", "Engine"); absent: every machine with an engine. */
  machines?: string[];
}
const TRACKED = ['Excavator', 'Dozer', 'Loader', 'Jumbo', 'Rig', 'Drill', 'Crusher', 'LT106'];
const WHEELED = ['Loader', 'Truck', 'Hauler', 'Grader', 'Backhoe', 'Tractor', 'Telehandler', 'Crane', 'Forklift', 'Combine', 'MT42'];
const SECTIONS: Section[] = [
  { name: 'Engine — lubrication', groups: ['filters', 'engine'] },
  { name: 'Engine — fuel system', groups: ['fuel', 'filters'] },
  { name: 'Cooling system', groups: ['cooling', 'engine'] },
  { name: 'Turbocharger and air intake', groups: ['turbo', 'filters'] },
  { name: 'Electrical system', groups: ['electrical'] },
  { name: 'Track roller frame', groups: ['undercarriage', 'bearings'], machines: TRACKED },
  { name: 'Final drive', groups: ['drivetrain', 'bearings', 'undercarriage'], machines: TRACKED },
  { name: 'Hydraulic pump and control valve', groups: ['hydraulics', 'filters'], machines: [...TRACKED, ...WHEELED] },
  { name: 'Boom, arm and bucket cylinders', groups: ['hydraulics'], machines: ['Excavator', 'Backhoe', 'Loader'] },
  { name: 'Bucket and ground engaging tools', groups: ['get'], machines: ['Excavator', 'Loader', 'Dozer', 'Backhoe'] },
  { name: 'Transmission', groups: ['drivetrain', 'filters', 'bearings'], machines: WHEELED },
  { name: 'Brakes and axles', groups: ['brakes', 'drivetrain'], machines: WHEELED },
  { name: 'Operator cab', groups: ['cab', 'electrical'], machines: [...TRACKED, ...WHEELED] },
  { name: 'Mast, carriage and forks', groups: ['forklift'], machines: ['Forklift', 'Truck', 'Telehandler'] },
  { name: 'Crushing chamber and wear parts', groups: ['mining', 'get'], machines: ['Crusher', 'LT106', 'Jumbo', 'Rig', 'Drill', 'Loader', 'MT42'] },
  { name: 'Generator set', groups: ['power', 'electrical'], machines: ['Engine'] },
  { name: 'Harvesting and baling', groups: ['agri'], machines: ['Combine', 'Tractor', 'Baler', '1290'] },
];
const GROUP_OF_CATEGORY = new Map(CATEGORIES.map((c) => [c.name, c.group] as const));
/** Candidates kept per model and group: enough for the largest section (40 callouts over two or three groups). */
const KEEP = 40;
export const DEMO_DIAGRAM_MIN_CALLOUTS = 8;
export const DEMO_DIAGRAM_MAX_CALLOUTS = 40;

interface Candidate {
  id: string;
  partNumber: string;
  serialFrom?: string;
  serialTo?: string;
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h >>> 0;
}
/** A small deterministic stream from a name (the same assembly gets the same drawing and table everywhere). */
function streamOf(key: string): () => number {
  let a = hash(key) || 1;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class DemoDiagramCollector {
  /** make|model -> group -> candidates (the first parts of the catalogue that fit it). */
  private readonly models = new Map<string, { make: string; model: string; byGroup: Map<Group, Candidate[]> }>();

  take(p: Product): void {
    const group = GROUP_OF_CATEGORY.get(p.category);
    if (!group || !p.fits) return;
    for (const f of p.fits) {
      const key = `${f.make}|${f.model}`;
      let m = this.models.get(key);
      if (!m) this.models.set(key, (m = { make: f.make, model: f.model, byGroup: new Map() }));
      let list = m.byGroup.get(group);
      if (!list) m.byGroup.set(group, (list = []));
      if (list.length < KEEP) list.push({ id: p.id, partNumber: p.partNumber, ...(f.serialFrom ? { serialFrom: f.serialFrom } : {}), ...(f.serialTo ? { serialTo: f.serialTo } : {}) });
    }
  }

  /** The parts books: for each model, the sections it has and enough fitting parts to fill (8 at least). */
  assemblies(at: string): Assembly[] {
    const out: Assembly[] = [];
    for (const { make, model, byGroup } of this.models.values()) {
      const words = model.split(/\s+/);
      for (const section of SECTIONS) {
        if (section.machines && !section.machines.some((w) => words.includes(w))) continue;
        const pool = section.groups.flatMap((g) => byGroup.get(g) ?? []);
        const unique = [...new Map(pool.map((c) => [c.id, c])).values()];
        if (unique.length < DEMO_DIAGRAM_MIN_CALLOUTS) continue;
        const a = demoAssembly(make, model, section.name, unique, at);
        if (a) out.push(a);
      }
    }
    return out;
  }
}

/** One assembly: a share of the pool (shuffled by its name), numbered 1..n along the drawing. */
function demoAssembly(make: string, model: string, name: string, pool: Candidate[], at: string): Assembly | null {
  const makeSlug = slugify(make);
  const modelSlug = slugify(model);
  const slug = slugify(name);
  const key = `${makeSlug}/${modelSlug}/${slug}`;
  const r = streamOf(key);
  const shuffled = pool.map((c) => ({ c, k: r() })).sort((a, b) => a.k - b.k).map((x) => x.c);
  const n = Math.min(shuffled.length, DEMO_DIAGRAM_MIN_CALLOUTS + Math.floor(r() * (DEMO_DIAGRAM_MAX_CALLOUTS - DEMO_DIAGRAM_MIN_CALLOUTS + 1)));
  const layout = demoLayout(key, n);
  const callouts: Callout[] = [];
  for (let i = 0; i < n; i++) {
    const c = shuffled[i]!;
    const q = r();
    const quantity = q < 0.6 ? 1 : q < 0.8 ? 2 : q < 0.9 ? 4 : 6 + Math.floor(r() * 3);
    const spot = layout[i]!;
    const positions = [{ x: round2(spot.bubble.x / 12), y: round2(spot.bubble.y / 8) }];
    const line: Callout = { number: String(i + 1), positions, partId: c.id, quantity };
    if (c.serialFrom) line.serialFrom = c.serialFrom;
    if (c.serialTo) line.serialTo = c.serialTo;
    // A part fitting only the units before a production change: its successor is named, as parts books do.
    if (c.serialTo && !c.serialFrom) line.note = `Up to S/N ${c.serialTo}; later units use another part`;
    else if (c.serialFrom && !c.serialTo) line.note = `From S/N ${c.serialFrom}`;
    callouts.push(line);
  }
  return {
    id: stableUuid(`assembly:${key}`),
    make,
    model,
    makeSlug,
    modelSlug,
    slug,
    name,
    diagram: { url: demoDiagramUrl(makeSlug, modelSlug, slug, n), width: 1200, height: 800 },
    callouts: sortCallouts(callouts),
    version: 1,
    updatedAt: at,
    updatedBy: 'demo catalogue',
  };
}

export const demoDiagramUrl = (makeSlug: string, modelSlug: string, slug: string, n: number) => `/media/generated/diagrams/${makeSlug}/${modelSlug}/${slug}-${n}.svg`;

/** Where item i of an exploded view sits (the part's centre, its kind) and where its callout is drawn, in a 1200 x 800 drawing. */
export interface DemoSpot {
  item: { x: number; y: number; kind: number; size: number };
  bubble: { x: number; y: number };
}

/**
 * Where callout rings may sit: a grid 90 units apart (the drawing is 1200 x 800), so that on a phone, where the
 * drawing is some 330-380 px wide, every hotspot is at least 24 px from the next (WCAG's target size: Lighthouse
 * counts a 22 px gap as a failure).
 */
const RING_SPACING = 90;
const RING_SLOTS = (() => {
  const slots: { x: number; y: number }[] = [];
  for (let y = 140; y <= 770; y += RING_SPACING) for (let x = 60; x <= 1150; x += RING_SPACING) slots.push({ x, y });
  return slots;
})();

export function demoLayout(key: string, n: number): DemoSpot[] {
  const r = streamOf(`${key}#layout`);
  const rows = Math.max(1, Math.ceil(n / 14));
  const perRow = Math.ceil(n / rows);
  const top = 170;
  const band = (800 - top - 60) / rows;
  const taken = new Set<number>();
  const spots: DemoSpot[] = [];
  for (let i = 0; i < n; i++) {
    const row = Math.floor(i / perRow);
    const k = i % perRow;
    const inRow = Math.min(perRow, n - row * perRow);
    // Each row an axis rising left to right, the parts spread along it as an exploded view draws them.
    const t = inRow === 1 ? 0.5 : k / (inRow - 1);
    const x = 110 + t * 980;
    const y = top + band * (row + 0.5) + (0.5 - t) * band * 0.35;
    // Its ring: the free grid slot nearest a point above or below it (alternately), never on the part itself.
    const want = { x, y: k % 2 === 0 ? y - band * 0.3 : y + band * 0.3 };
    let best = -1;
    let bestD = Infinity;
    RING_SLOTS.forEach((slot, j) => {
      if (taken.has(j) || Math.hypot(slot.x - x, slot.y - y) < 40) return;
      const d = Math.hypot(slot.x - want.x, slot.y - want.y);
      if (d < bestD) [best, bestD] = [j, d];
    });
    taken.add(best);
    spots.push({ item: { x, y, kind: Math.floor(r() * 8), size: 18 + r() * Math.min(22, band * 0.18) }, bubble: RING_SLOTS[best]! });
  }
  return spots;
}

/** One part of the exploded view, drawn in line art. */
function itemSvg({ x, y, kind, size: s }: DemoSpot['item']): string {
  const f = (v: number) => v.toFixed(1);
  switch (kind) {
    case 0: {
      // gear
      let pts = '';
      for (let i = 0; i < 48; i++) {
        const a = (i / 48) * Math.PI * 2;
        const rr = i % 4 < 2 ? s : s * 0.82;
        pts += `${f(x + rr * Math.cos(a))},${f(y + rr * Math.sin(a))} `;
      }
      return `<polygon points="${pts.trim()}"/><circle cx="${f(x)}" cy="${f(y)}" r="${f(s * 0.35)}"/>`;
    }
    case 1: // bolt: hex head and shank
      return `<polygon points="${[0, 1, 2, 3, 4, 5].map((i) => `${f(x - s * 0.6 + s * 0.45 * Math.cos((i * Math.PI) / 3))},${f(y + s * 0.45 * Math.sin((i * Math.PI) / 3))}`).join(' ')}"/><rect x="${f(x - s * 0.15)}" y="${f(y - s * 0.18)}" width="${f(s * 1.3)}" height="${f(s * 0.36)}"/><path d="M${f(x + s * 0.2)} ${f(y - s * 0.18)}v${f(s * 0.36)}M${f(x + s * 0.5)} ${f(y - s * 0.18)}v${f(s * 0.36)}M${f(x + s * 0.8)} ${f(y - s * 0.18)}v${f(s * 0.36)}"/>`;
    case 2: // seal or O-ring
      return `<ellipse cx="${f(x)}" cy="${f(y)}" rx="${f(s * 0.55)}" ry="${f(s)}"/><ellipse cx="${f(x)}" cy="${f(y)}" rx="${f(s * 0.35)}" ry="${f(s * 0.72)}"/>`;
    case 3: {
      // bearing
      let balls = '';
      for (let i = 0; i < 10; i++) {
        const a = (i / 10) * Math.PI * 2;
        balls += `<circle cx="${f(x + s * 0.68 * Math.cos(a))}" cy="${f(y + s * 0.68 * Math.sin(a))}" r="${f(s * 0.14)}"/>`;
      }
      return `<circle cx="${f(x)}" cy="${f(y)}" r="${f(s)}"/><circle cx="${f(x)}" cy="${f(y)}" r="${f(s * 0.42)}"/>${balls}`;
    }
    case 4: // cylinder or housing
      return `<rect x="${f(x - s)}" y="${f(y - s * 0.55)}" width="${f(s * 2)}" height="${f(s * 1.1)}" rx="${f(s * 0.2)}"/><ellipse cx="${f(x + s)}" cy="${f(y)}" rx="${f(s * 0.22)}" ry="${f(s * 0.55)}"/><path d="M${f(x - s * 0.4)} ${f(y - s * 0.55)}v${f(s * 1.1)}"/>`;
    case 5: {
      // spring
      let d = `M${f(x - s)} ${f(y)}`;
      for (let i = 0; i < 8; i++) d += `L${f(x - s + ((i + 0.5) * s * 2) / 8)} ${f(y + (i % 2 ? s * 0.6 : -s * 0.6))}`;
      return `<path d="${d}L${f(x + s)} ${f(y)}"/>`;
    }
    case 6: // plate or cover with holes
      return `<path d="M${f(x - s)} ${f(y - s * 0.5)}L${f(x + s * 0.6)} ${f(y - s * 0.8)}L${f(x + s)} ${f(y + s * 0.5)}L${f(x - s * 0.6)} ${f(y + s * 0.8)}Z"/><circle cx="${f(x - s * 0.5)}" cy="${f(y - s * 0.1)}" r="${f(s * 0.12)}"/><circle cx="${f(x + s * 0.5)}" cy="${f(y + s * 0.1)}" r="${f(s * 0.12)}"/>`;
    default: // washer
      return `<ellipse cx="${f(x)}" cy="${f(y)}" rx="${f(s * 0.3)}" ry="${f(s * 0.7)}"/><ellipse cx="${f(x)}" cy="${f(y)}" rx="${f(s * 0.12)}" ry="${f(s * 0.3)}"/>`;
  }
}

/**
 * The drawing of a demo assembly: its title, an exploded view of n parts along one to three axes, and a leader line
 * from each part to the ring where its callout number sits (the page puts the numbered button there). Pure; every
 * text escaped; about 6-15 kB.
 */
export function renderDiagramSvg(o: { title: string; subtitle: string; key: string; n: number }): string {
  const spots = demoLayout(o.key, o.n);
  const f = (v: number) => v.toFixed(1);
  let axes = '';
  const rows = Math.max(1, Math.ceil(o.n / 14));
  const perRow = Math.ceil(o.n / rows);
  for (let row = 0; row < rows; row++) {
    const first = spots[row * perRow];
    const last = spots[Math.min(o.n, (row + 1) * perRow) - 1];
    if (first && last) axes += `<path class="axis" d="M${f(first.item.x - 60)} ${f(first.item.y)}L${f(last.item.x + 60)} ${f(last.item.y)}"/>`;
  }
  const items = spots.map((s) => itemSvg(s.item)).join('');
  const leaders = spots.map((s) => `<path d="M${f(s.item.x)} ${f(s.item.y)}L${f(s.bubble.x)} ${f(s.bubble.y)}"/>`).join('');
  const rings = spots.map((s) => `<circle cx="${f(s.bubble.x)}" cy="${f(s.bubble.y)}" r="17"/>`).join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 800" width="1200" height="800" role="img" aria-label="${escapeXml(`Exploded view: ${o.title}, ${o.subtitle}`)}">` +
    '<style>.frame{fill:#fff;stroke:#cbd5e1}.t{font:600 30px sans-serif;fill:#0f172a}.s{font:20px sans-serif;fill:#475569}' +
    '.items *{fill:#f8fafc;stroke:#1e293b;stroke-width:2;stroke-linejoin:round}.axis{stroke:#94a3b8;stroke-width:1.5;stroke-dasharray:24 6 4 6;fill:none}' +
    '.leaders path{stroke:#64748b;stroke-width:1.2;fill:none}.rings circle{fill:#fff;stroke:#1e293b;stroke-width:1.5}</style>' +
    '<rect class="frame" x="1" y="1" width="1198" height="798"/>' +
    `<text class="t" x="40" y="60">${escapeXml(o.title.slice(0, 60))}</text><text class="s" x="40" y="92">${escapeXml(o.subtitle.slice(0, 80))}</text>` +
    `${axes}<g class="leaders">${leaders}</g><g class="items">${items}</g><g class="rings">${rings}</g></svg>`
  );
}

const SECTION_NAME = new Map(SECTIONS.map((s) => [slugify(s.name), s.name] as const));
const MAKE_NAME = new Map(BRANDS.map((b) => [slugify(b.name), b.name] as const));
const MODEL_NAME = new Map(BRANDS.flatMap((b) => (b.models ?? []).map((m) => [`${slugify(b.name)}/${slugify(m)}`, m] as const)));
/** GET /media/generated/diagrams/:make/:model/:assembly-:n.svg: the drawing demoAssembly's URL names. */
export function renderDemoDiagram(p: z.infer<typeof GeneratedDiagramParamsSchema>): string {
  const m = /^(.*)-(\d+)$/.exec(p.file)!;
  const slug = m[1]!;
  const n = Math.min(DEMO_DIAGRAM_MAX_CALLOUTS, Math.max(1, Number(m[2])));
  const make = MAKE_NAME.get(p.make) ?? titleFromSlug(p.make);
  const model = MODEL_NAME.get(`${p.make}/${p.model}`) ?? titleFromSlug(p.model);
  return renderDiagramSvg({ title: SECTION_NAME.get(slug) ?? titleFromSlug(slug), subtitle: `${make} ${model}`, key: `${p.make}/${p.model}/${slug}`, n });
}
