import fs from 'node:fs';
import path from 'node:path';

/** The stack's dev mailbox (`${E2E_DATA_DIR}/mail/`), where every sent mail lands as an .eml file. */
export function mailDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set: run through e2e/playwright.config.ts (its global setup sets it)');
  return path.join(dir, 'mail');
}

/** The .eml texts that mention `needle` (an address or id unique to one test). */
export function mailsMentioning(needle: string): string[] {
  const dir = mailDir();
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.eml'))
    .map((n) => fs.readFileSync(path.join(dir, n), 'utf8'))
    .filter((t) => t.includes(needle));
}
