// The results.json the suite writes inside the extension host (suite/index.ts) and the runners
// read (run.mjs while the suite runs, runTest.mjs after): the writer, the reader, what a runner
// concludes while it waits, and the report printed the same way for both hosts. A run counts as
// passed only when the suite finished, at least one test passed, and none failed.
import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomically } from '../../scripts/write-atomically.mjs';

/** Exit code for "the suite could not run here": distinct from 1 (tests failed). */
export const NOT_RUN_EXIT_CODE = 3;

const START_TIMEOUT_MS = 90_000;
const RUN_TIMEOUT_MS = 240_000;
/** How long a suite that started may leave results.json unreadable before the run fails. */
const UNREADABLE_MS = 60_000;

/**
 * Called by the suite after every test, while a runner reads the file every 250 ms: atomically,
 * so that no read ever lands in the middle of a write.
 */
export function writeResults(file, results) {
  writeFileAtomically(file, JSON.stringify(results, null, 2));
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
 * One successful read means the suite started, for good: a read that fails afterwards keeps the
 * last results and never turns the run back into "not started".
 */
export function watchResults(file, { now = Date.now } = {}) {
  const since = now();
  let results;
  let reads = 0;
  let unreadableSince;
  let unreadableWhy = '';
  return {
    poll() {
      try {
        results = JSON.parse(readFileSync(file, 'utf8'));
        reads++;
        unreadableSince = undefined;
      } catch (e) {
        unreadableSince ??= now();
        unreadableWhy = e instanceof Error ? e.message : String(e);
      }
      return results;
    },
    get results() {
      return results;
    },
    get started() {
      return results !== undefined;
    },
    failure() {
      const t = now();
      if (!results)
        return t - since > START_TIMEOUT_MS
          ? `The extension host never started the suite within ${START_TIMEOUT_MS / 1000} s: results.json was never readable (${unreadableWhy || 'not read yet'})`
          : undefined;
      if (unreadableSince !== undefined && t - unreadableSince > UNREADABLE_MS)
        return `The suite started, then results.json stayed unreadable for ${UNREADABLE_MS / 1000} s after ${reads} good reads: ${unreadableWhy}`;
      if (t - since > RUN_TIMEOUT_MS) return `The suite did not finish within ${RUN_TIMEOUT_MS / 1000} s`;
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
