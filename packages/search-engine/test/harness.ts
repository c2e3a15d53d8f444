/**
 * Documents for the engine's tests: hand-made parts covering each relevance rule, and generated parts in any number
 * (deterministic; every part number unique, the part number in the name as a catalogue writes it).
 */
import type { SearchDoc } from '../src/documents/search-doc.ts';

const rows: Array<[id: string, name: string, partNumber: string, sku: string, brandName: string, category: string]> = [
  ['p-cat-0750', 'Caterpillar 1R-0750 Fuel Filter', '1R-0750', 'CAT-1R-0750', 'Caterpillar', 'Fuel Filters'],
  ['p-cat-0716', 'Caterpillar 1R-0716 Engine Oil Filter', '1R-0716', 'CAT-1R-0716', 'Caterpillar', 'Oil Filters'],
  ['p-cat-track', 'Caterpillar 6Y-2931 Track Roller', '6Y-2931', 'CAT-6Y-2931', 'Caterpillar', 'Track Rollers'],
  ['p-kom-1231', 'Komatsu 600-211-1231 Fuel Filter', '600-211-1231', 'KOM-600-211-1231', 'Komatsu', 'Fuel Filters'],
  ['p-kom-1340', 'Komatsu 600-211-1340 Fuel Filter Cartridge', '600-211-1340', 'KOM-600-211-1340', 'Komatsu', 'Fuel Filters'],
  ['p-kom-hyd', 'Komatsu 07063-01054 Hydraulic Filter Element', '07063-01054', 'KOM-07063-01054', 'Komatsu', 'Hydraulic Filters'],
  ['p-kom-pump', 'Komatsu 708-2L-00300 Hydraulic Pump', '708-2L-00300', 'KOM-708-2L-00300', 'Komatsu', 'Hydraulic Pumps'],
  ['p-jd-oil', 'John Deere RE504836 Engine Oil Filter', 'RE504836', 'JD-RE504836', 'John Deere', 'Oil Filters'],
  ['p-don-hyd', 'Donaldson P551315 Hydraulic Filter', 'P551315', 'DON-P551315', 'Donaldson', 'Hydraulic Filters'],
  ['p-gen-pump', 'Hydraulic Pump FLP-123456 for Komatsu PC200 Excavator', 'FLP-123456', 'FLP-123456', 'Generic', 'Hydraulic Pumps'],
  ['p-hit-gear', 'Hitachi 4368296 Crown Wheel and Pinion', '4368296', 'HIT-4368296', 'Hitachi', 'Final Drive Gears'],
  ['p-volvo-short', 'Volvo CE AB123 Wiper Blade', 'AB123', 'VOE-AB123', 'Volvo CE', 'Cab Parts'],
  ['p-perkins-ring', 'Perkins 4181A026 Piston Ring Set', '4181A026', 'PER-4181A026', 'Perkins', 'Piston Rings'],
  ['p-bosch-unicode', 'Bosch Rexroth Ölkühler R902603723 für Bagger', 'R902603723', 'REX-R902603723', 'Bosch Rexroth', 'Oil Coolers'],
];

/** The hand-made parts; `extra` holds the machine make (when not the brand) and the tags, as a catalogue sends them. */
export function fixtureDocs(): SearchDoc[] {
  return rows.map(([id, name, partNumber, sku, brandName, category]) => {
    const make = brandName === 'Generic' ? 'Komatsu' : brandName;
    const extra = [make, category.toLowerCase(), brandName.toLowerCase()].filter((s) => s && s !== brandName).join('\n');
    return { id, name, partNumber, sku, brandName, category, extra };
  });
}

const BRANDS: Array<[name: string, code: string]> = [
  ['Caterpillar', 'CAT'],
  ['Komatsu', 'KOM'],
  ['John Deere', 'JD'],
  ['Volvo CE', 'VOE'],
  ['Hitachi', 'HIT'],
  ['Liebherr', 'LIE'],
  ['Doosan', 'DOO'],
];
const PARTS: Array<[name: string, code: string, category: string]> = [
  ['Swing Bearing', 'SB', 'Slewing Parts'],
  ['Idler Wheel', 'IW', 'Undercarriage'],
  ['Fuel Filter', 'FF', 'Fuel Filters'],
  ['Hydraulic Pump', 'HP', 'Hydraulic Pumps'],
  ['Seal Kit', 'SK', 'Seals'],
  ['Track Roller', 'TR', 'Undercarriage'],
  ['Oil Filter', 'OF', 'Oil Filters'],
  ['Water Pump', 'WP', 'Cooling'],
  ['Hydraulic Filter', 'HF', 'Hydraulic Filters'],
  ['Starter Motor', 'SM', 'Electrical'],
  ['Hydraulic Cylinder Seal Kit', 'CS', 'Seals'],
];

/** `count` generated parts: part numbers `XX-nnnnn` (unique below 90,000 parts), SKUs prefixed by the brand. */
export function* generateDocs(count: number): Generator<SearchDoc> {
  for (let i = 0; i < count; i++) {
    const [brand, brandCode] = BRANDS[i % BRANDS.length]!;
    const [part, partCode, category] = PARTS[i % PARTS.length]!;
    const partNumber = `${partCode}-${10_000 + ((i * 7919) % 90_000)}`;
    yield {
      id: `u${((i * 2654435761) >>> 0).toString(16).padStart(8, '0')}${i.toString(16).padStart(6, '0')}`,
      name: `${brand} ${partNumber} ${part}`,
      partNumber,
      sku: `${brandCode}-${partNumber}`,
      brandName: brand,
      category,
      extra: `${category.toLowerCase()}\n${brand.toLowerCase()}`,
    };
  }
}

export async function* batches<T>(items: T[], size = 1000): AsyncIterable<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
