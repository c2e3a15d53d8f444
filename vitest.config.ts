import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'services/*/{src,test}/**/*.test.ts', 'gateway/src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/lib/**/*.test.ts', 'web/src/features/**/*.test.ts'],
    // web/src/lib holds plain functions tested here; components are tested in the browser (e2e/).
    exclude: ['**/node_modules/**', 'e2e/**'],
    // Tests start real servers (SQLite, FerretDB, redis-server, MinIO); give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    // TEST_REPORT_DIR (set by .ci/run): also write the counts, for the one closing line scripts/test-summary.mjs prints.
    reporters: process.env.TEST_REPORT_DIR ? ['default', ['json', { outputFile: `${process.env.TEST_REPORT_DIR}/vitest.json` }]] : ['default'],
  },
});
