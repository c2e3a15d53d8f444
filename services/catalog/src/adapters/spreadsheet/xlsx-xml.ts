import type yauzl from 'yauzl';
import { SaxesParser } from 'saxes';
import { TabularFileError } from './tabular-file-error.ts';
import { formatCount, formatName, type XlsxLimits } from './xlsx-limits.ts';
import type { XlsxZip } from './xlsx-zip.ts';

/** What a part's XML reader does with it; names come without their prefix (`x:row` is `row`). */
export interface XmlHandlers {
  open(name: string, attrs: Record<string, string>): void;
  close(name: string): void;
  text(text: string): void;
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** An attribute by its name without prefix (`r:id` is `id`). */
export function attr(attrs: Record<string, string>, name: string): string | undefined {
  if (attrs[name] !== undefined) return attrs[name];
  for (const key in attrs) if (localName(key) === name) return attrs[key];
  return undefined;
}

/**
 * Parses an entry's XML as it inflates (saxes, streaming; it expands no entities but XML's own, so no "billion
 * laughs"), pausing after each inflated chunk (and once at the end) so the caller can hand on what the chunk
 * completed; breaking out stops the inflating. A text, or a run of XML with no tag ending in it, longer than
 * maxTextChars is refused: saxes holds such a run in memory whole (counted per chunk, so a run is refused within a
 * chunk, 16-64 kB, of the limit).
 */
export async function* parseXml(zip: XlsxZip, entry: yauzl.Entry, limits: XlsxLimits, h: XmlHandlers): AsyncGenerator<void> {
  const name = formatName(entry.fileName);
  const tooLong = () => new TabularFileError(`${name} in the workbook holds a text longer than ${formatCount(limits.maxTextChars)} characters`);
  const parser = new SaxesParser({ position: false });
  let sinceEvent = 0;
  parser.on('opentag', (tag) => {
    sinceEvent = 0;
    h.open(localName(tag.name), tag.attributes as Record<string, string>);
  });
  parser.on('closetag', (tag) => {
    sinceEvent = 0;
    h.close(localName(tag.name));
  });
  const onText = (text: string) => {
    sinceEvent = 0;
    if (text.length > limits.maxTextChars) throw tooLong();
    h.text(text);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  const decoder = new TextDecoder('utf-8');
  try {
    for await (const chunk of zip.inflate(entry)) {
      const text = decoder.decode(chunk, { stream: true });
      sinceEvent += text.length;
      parser.write(text);
      if (sinceEvent > limits.maxTextChars) throw tooLong();
      yield;
    }
    parser.write(decoder.decode());
    parser.close();
    yield;
  } catch (err) {
    if (err instanceof TabularFileError) throw err;
    throw new TabularFileError(`the XLSX workbook could not be read: ${name}: ${(err as Error).message}`);
  }
}

/** Parses an entry's XML to its end, or until `stop()` says the caller has what it needs. */
export async function readXml(zip: XlsxZip, entry: yauzl.Entry, limits: XlsxLimits, h: XmlHandlers, stop = () => false): Promise<void> {
  for await (const _ of parseXml(zip, entry, limits, h)) if (stop()) return;
}
