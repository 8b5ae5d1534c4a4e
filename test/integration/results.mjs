// The results.json the suite writes inside the extension host (suite/index.ts) and the runners
// read (run.mjs while the suite runs, runTest.mjs after): the writer, the reader, what a runner
// concludes while it waits, and the report printed the same way for both hosts. A run counts as
// passed only when the suite finished, at least one test passed, and none failed.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** Exit code for "the suite could not run here": distinct from 1 (tests failed). */
export const NOT_RUN_EXIT_CODE = 3;

const START_TIMEOUT_MS = 90_000;
const RUN_TIMEOUT_MS = 240_000;

/** Called by the suite after every test. */
export function writeResults(file, results) {
  writeFileSync(file, JSON.stringify(results, null, 2));
}

export function readResults(file) {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined; // being written
  }
}

/**
 * What a runner knows while the suite runs: poll() reads the file, failure() says why to stop
 * waiting (undefined while the run may go on). The clock starts when the workbench is opened.
 */
export function watchResults(file, { now = Date.now } = {}) {
  const since = now();
  let results;
  return {
    poll() {
      results = readResults(file);
      return results;
    },
    get results() {
      return results;
    },
    failure() {
      if (!results && now() - since > START_TIMEOUT_MS) return `The extension host did not start the suite within ${START_TIMEOUT_MS / 1000} s`;
      if (now() - since > RUN_TIMEOUT_MS) return `The suite did not finish within ${RUN_TIMEOUT_MS / 1000} s`;
      return undefined;
    },
  };
}

/** Prints every test and a summary; returns true when the run passed. */
export function report(results, where, wallMs) {
  if (!results) {
    console.error(`Integration suite FAILED in ${where}: the extension host never started the suite (no results).`);
    return false;
  }
  console.log(`\nIntegration suite in ${where}: ${results.host}`);
  for (const t of results.tests) {
    const mark = t.state === 'passed' ? '  ✔' : t.state === 'failed' ? '  ✘' : '  -';
    console.log(`${mark} ${t.title}${t.state === 'passed' ? ` (${t.durationMs} ms)` : ''}`);
    if (t.error)
      console.log(
        t.error
          .split('\n')
          .map((l) => `      ${l}`)
          .join('\n'),
      );
  }
  const passed = results.done && results.failed === 0 && results.passed > 0;
  const status = passed ? 'PASSED' : results.done ? 'FAILED' : 'FAILED (did not finish)';
  console.log(
    `\nIntegration suite ${status}: ${results.passed} passing, ${results.failed} failing, ${results.pending} pending; suite ${(results.durationMs / 1000).toFixed(1)} s, whole run ${(wallMs / 1000).toFixed(1)} s.`,
  );
  return passed;
}
