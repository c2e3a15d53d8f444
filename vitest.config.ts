import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Tests start real servers (SQLite, FerretDB, redis-server, MinIO); give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    // TEST_REPORT_DIR (set by .ci/run): also write the counts, for the one closing line scripts/test-summary.mjs prints.
    reporters: process.env.TEST_REPORT_DIR ? ['default', ['json', { outputFile: `${process.env.TEST_REPORT_DIR}/vitest.json` }]] : ['default'],
    // Two projects, each inheriting the settings above: `node` (unit, HTTP and adapter suites; the web app's plain
    // functions) and `web` (React components in jsdom with Testing Library, the network answered by MSW).
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['{packages,services}/*/{src,test}/**/*.test.ts', 'gateway/{src,test}/**/*.test.ts', 'test/**/*.test.ts', 'scripts/**/*.test.ts', 'web/src/lib/**/*.test.ts', 'web/src/features/**/*.test.ts'],
          // web/src/lib and the features' *.test.ts hold plain functions tested here; components are web/src/**/*.test.tsx.
          exclude: ['**/node_modules/**', 'e2e/**'],
        },
      },
      {
        extends: true,
        plugins: [react()],
        // @panzoom/panzoom's `main` is a UMD file in a "type": "module" package: Node loads it as ESM with no exports.
        // The browser build and the SSR bundle take its `module` (ESM) file; so do the tests.
        resolve: { alias: { '@panzoom/panzoom': '@panzoom/panzoom/dist/panzoom.es.js' } },
        test: {
          name: 'web',
          include: ['web/src/**/*.test.tsx'],
          exclude: ['**/node_modules/**'],
          environment: 'jsdom',
          // jest-dom matchers, the MSW server (a request without a handler fails the test), a clean page per test.
          setupFiles: ['web/test/setup.ts'],
        },
      },
    ],
  },
});
