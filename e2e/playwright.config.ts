import { defineConfig } from '@playwright/test';

/** One stack for the whole run, started by global-setup.ts on this port (E2E_PORT to change it). */
const port = Number(process.env.E2E_PORT ?? 18765);

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  globalSetup: './global-setup.ts',
  timeout: 45_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  // TEST_REPORT_DIR (set by .ci/run): also write the counts, for the one closing line scripts/test-summary.mjs prints.
  reporter: process.env.TEST_REPORT_DIR
    ? [['list'], ['json', { outputFile: `${process.env.TEST_REPORT_DIR}/e2e.json` }]]
    : [['list']],
  outputDir: '../test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
