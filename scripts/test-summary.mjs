// Prints one closing line for the whole test run, "tests: N passed, N failed, N skipped",
// summed from the JSON reports vitest and Playwright write into TEST_REPORT_DIR (see .ci/run).
// CI reads a run's closing line to know how many tests ran; neither runner's own summary is one it reads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TEST_REPORT_DIR ?? process.argv[2];
if (!dir) {
  console.error('test-summary: set TEST_REPORT_DIR to the folder holding vitest.json and e2e.json');
  process.exit(2);
}

function read(name) {
  try {
    return JSON.parse(readFileSync(join(dir, name), 'utf8'));
  } catch (err) {
    console.error(`test-summary: ${name} could not be read from ${dir}: ${err.message}`);
    process.exit(1);
  }
}

const vitest = read('vitest.json');
const e2e = read('e2e.json');
const passed = vitest.numPassedTests + e2e.stats.expected + e2e.stats.flaky;
const failed = vitest.numFailedTests + e2e.stats.unexpected;
const skipped = vitest.numPendingTests + vitest.numTodoTests + e2e.stats.skipped;
if (passed === 0) console.error('test-summary: no test ran');
console.log(`unit/integration: ${vitest.numPassedTests} passed, ${vitest.numFailedTests} failed, ${vitest.numPendingTests + vitest.numTodoTests} skipped`);
console.log(`browser: ${e2e.stats.expected + e2e.stats.flaky} passed, ${e2e.stats.unexpected} failed, ${e2e.stats.skipped} skipped`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
