import type yauzl from 'yauzl';
import { TabularFileError } from './tabular-file-error.ts';
import { formatCount, type XlsxLimits } from './xlsx-limits.ts';
import { readXml, type XmlHandlers } from './xlsx-xml.ts';
import type { XlsxZip } from './xlsx-zip.ts';

/**
 * The shared-string table (xl/sharedStrings.xml): each `<si>` as the text a person sees, its rich-text runs joined and
 * its phonetic runs (`<rPh>`, the reading of Japanese text) left out. Held in memory whole, so counted.
 */
export async function readSharedStrings(zip: XlsxZip, entry: yauzl.Entry, limits: XlsxLimits): Promise<string[]> {
  const strings: string[] = [];
  let chars = 0;
  let current: string | null = null; // inside an <si>
  let phonetic = 0;
  let inText = false;
  const handlers: XmlHandlers = {
    open(name) {
      if (name === 'si') current = '';
      else if (name === 'rPh') phonetic++;
      else if (name === 't') inText = current !== null && phonetic === 0;
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'si' && current !== null) {
        if (strings.length >= limits.maxSharedStrings) {
          throw new TabularFileError(`the workbook has more than ${formatCount(limits.maxSharedStrings)} shared strings`);
        }
        strings.push(current);
        current = null;
      }
    },
    text(text) {
      if (!inText || current === null) return;
      current += text;
      chars += text.length;
      if (current.length > limits.maxTextChars) {
        throw new TabularFileError(`a shared string of the workbook is longer than ${formatCount(limits.maxTextChars)} characters`);
      }
      if (chars > limits.maxSharedStringChars) {
        throw new TabularFileError(`the workbook's shared strings hold more than ${formatCount(limits.maxSharedStringChars)} characters`);
      }
    },
  };
  await readXml(zip, entry, limits, handlers);
  return strings;
}
