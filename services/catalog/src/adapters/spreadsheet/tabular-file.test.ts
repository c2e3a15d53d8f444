import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '@forgeline/test-support/net';
import { countTabularRows, readTabularRows, TabularFileError } from './tabular-file.ts';

const tmp = tempDir('forgeline-tabular-');
afterAll(() => tmp.remove());
let n = 0;
const file = (text: string) => {
  const f = path.join(tmp.dir, `f${++n}.csv`);
  writeFileSync(f, text);
  return f;
};
/** What the parser reads: the rows with any content. */
const parsedRows = async (f: string) => {
  let rows = 0;
  for await (const r of readTabularRows(f)) if (r.cells.some((c) => c.trim())) rows++;
  return rows;
};

describe('counting a file\'s rows for the progress bar', () => {
  const samples: Record<string, string> = {
    plain: 'sku,name\nA,Filter\nB,Seal\n',
    'no final newline': 'sku,name\nA,Filter\nB,Seal',
    crlf: 'sku,name\r\nA,Filter\r\nB,Seal\r\n',
    bom: '\uFEFF"sku","name"\n"A","Filter"\n',
    'quoted newlines and escaped quotes': 'sku,name,description\nA,"Filter, fuel","line one\nline two ""quoted"""\nB,Seal,"a\r\nb"\n',
    'blank and whitespace-only rows': 'sku,name\n\nA,Filter\n , \n"",""\n\t\nB,Seal\n\n',
    semicolons: 'sku;name\nA;"Filter; fuel"\nB;Seal\n',
    tabs: 'sku\tname\nA\tFilter\n\t\nB\tSeal\n',
    'empty quoted fields': 'sku,name,tags\nA,"",""\nB,Seal,"x|y"\n',
  };
  for (const [name, text] of Object.entries(samples)) {
    it(`counts as the parser reads: ${name}`, async () => {
      const f = file(text);
      expect(await countTabularRows(f)).toBe(await parsedRows(f));
    });
  }

  it('a file the parser refuses is refused by the count, before anything is written', async () => {
    for (const text of ['sku,name\nA,"Filter\n', 'sku,name\nA,"Filter"x\n', 'sku,name\nA,Fil"ter\n']) {
      await expect(countTabularRows(file(text))).rejects.toBeInstanceOf(TabularFileError);
    }
    await expect(countTabularRows(file('sku,name\nA,Fil"ter\n'))).rejects.toThrow(/line 2: a quote opens in the middle of a field/);
  });

  it('lines ended by a lone CR are counted by the parser', async () => {
    const f = file('sku,name\rA,Filter\rB,Seal\r');
    expect(await countTabularRows(f)).toBe(await parsedRows(f));
  });
});
