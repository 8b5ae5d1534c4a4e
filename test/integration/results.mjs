// The results.json the suite writes inside the extension host (suite/index.ts) and the runners
// read (run.mjs while the suite runs, runTest.mjs after): the writer, the reader, what a runner
// concludes while it waits, and the report printed the same way for both hosts. A run counts as
// passed only when the suite finished, at least one test passed, and none failed.
import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomically } from '../../scripts/write-atomically.mjs';

/** Exit code for "the suite could not run here": distinct from 1 (tests failed). */
export const NOT_RUN_EXIT_CODE = 3;

/** How long a suite may take to write its first results.json: only a suite that never started. */
const START_TIMEOUT_MS = 90_000;
/** How often the suite rewrites results.json while it runs (suite/heartbeat.ts). */
export const HEARTBEAT_MS = 1000;
/**
 * How long a suite that started may go without a new, readable results.json. The heartbeat
 * writes every second: a host that has not run a 1 s timer for a minute cannot run mocha's
 * timeouts either, so its suite is not merely slow but stopped.
 */
const SILENCE_MS = 60_000;

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
 * last results and never turns the run back into "not started". After that, no total time is
 * imposed: a suite on a slow machine runs as long as it keeps writing, and mocha's own timeouts
 * bound each of its tests and hooks.
 */
export function watchResults(file, { now = Date.now } = {}) {
  const since = now();
  let results;
  let text;
  let reads = 0;
  let progressAt = since;
  let unreadable = '';
  return {
    poll() {
      try {
        const read = readFileSync(file, 'utf8');
        const parsed = JSON.parse(read);
        reads++;
        unreadable = '';
        if (read !== text) progressAt = now();
        [text, results] = [read, parsed];
      } catch (e) {
        unreadable = e instanceof Error ? e.message : String(e);
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
          ? `The extension host never started the suite within ${START_TIMEOUT_MS / 1000} s: results.json was never readable (${unreadable || 'not read yet'})`
          : undefined;
      const current = results.current;
      if (t - progressAt > SILENCE_MS) {
        const where = current ? ` (last in "${current.title}")` : '';
        return unreadable
          ? `The suite started, then results.json became unreadable: nothing new and readable for ${SILENCE_MS / 1000} s after ${reads} good reads${where}: ${unreadable}`
          : `The suite started, then the extension host wrote nothing new for ${SILENCE_MS / 1000} s, though it writes every ${HEARTBEAT_MS / 1000} s${where}`;
      }
      if (current && current.timeoutMs > 0 && current.elapsedMs > 2 * current.timeoutMs)
        return `"${current.title}" has run ${Math.round(current.elapsedMs / 1000)} s, twice its own timeout of ${current.timeoutMs / 1000} s, and mocha has not ended it`;
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
