import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureWebBuilt, startStack } from '../scripts/lib/stack.ts';

/**
 * Builds the web app and starts the whole stack the way `npm start` does, on a fresh data folder with a
 * small seeded catalogue. Tests find the dev mailbox at `${E2E_DATA_DIR}/mail/`.
 */
export default async function globalSetup() {
  if (!fs.existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) {
    throw new Error('Chromium is missing: install Debian\'s package (apt-get install -y chromium); npm test does this first when run as root (scripts/test-setup.sh).');
  }
  ensureWebBuilt();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forgeline-e2e-'));
  process.env.E2E_DATA_DIR = dataDir;
  const stack = await startStack({
    dataDir,
    port: Number(process.env.E2E_PORT ?? 18765),
    seedProducts: Number(process.env.E2E_PRODUCTS ?? 2_000),
    quiet: true,
    env: {
      // Browser tests send many requests from one address; the limits themselves are tested over HTTP.
      RATE_LIMIT_MULTIPLIER: '100',
      // The first is the one the tests sign in as (the login screen's prefill); the second is locked by a guesser.
      ADMIN_EMAILS: 'admin@forgeline-parts.example,ops@forgeline-parts.example',
    },
  });
  return async () => {
    await stack.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
