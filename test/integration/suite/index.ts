import Mocha from 'mocha';
import * as vscode from 'vscode';
import testFiles from 'integration-test-files';
import { writeResults as writeResultsFile, type IntegrationResults } from '../results.mjs';
import { beforeSuite, closeEmulator, DEMO, extension, resetSettings } from './harness';
import { startHeartbeat, type Heartbeat } from './heartbeat';

// The test runner the extension host loads through --extensionTestsPath (VS Code desktop via
// @vscode/test-electron) or the workbench's `payload` (code-server). It runs mocha in this
// process, next to the extension, and writes the outcome as JSON to
// DOCS_ASSISTANT_INTEGRATION_RESULTS, because neither host hands the runner our output reliably.

function writeResults(results: IntegrationResults): void {
  const file = process.env.DOCS_ASSISTANT_INTEGRATION_RESULTS;
  if (file) writeResultsFile(file, results);
}

export async function run(): Promise<void> {
  const started = Date.now();
  const results: IntegrationResults = {
    host: `${vscode.env.appName} ${vscode.version} (${vscode.env.appHost})`,
    done: false,
    passed: 0,
    failed: 0,
    pending: 0,
    durationMs: 0,
    tests: [],
  };
  writeResults(results);
  const heartbeat = startHeartbeat(results, () => writeResults(results));
  let failures: number;
  try {
    failures = await runMocha(results, heartbeat);
  } finally {
    heartbeat.stop(); // before the last write, so that no beat comes after `done`
  }
  results.done = true;
  results.durationMs = Date.now() - started;
  writeResults(results);
  if (failures > 0) throw new Error(`${failures} integration test(s) failed.`);
  if (results.passed === 0) throw new Error('No integration test ran.');
}

/** Runs every *.test.ts, recording each outcome in `results` and writing it as it comes; resolves to the failures. */
async function runMocha(results: IntegrationResults, heartbeat: Heartbeat): Promise<number> {
  // The first-run path of `npm start`: demo keys in the environment go into SecretStorage when
  // the extension activates. Nothing has activated it yet (it has no startup activation events).
  beforeSuite.extensionWasActive = extension().isActive;
  if (!beforeSuite.extensionWasActive) {
    process.env.DOCS_ASSISTANT_DEMO_ADMIN_KEY = DEMO.adminKey;
    process.env.DOCS_ASSISTANT_DEMO_ASSISTANT_KEY = DEMO.assistantKey;
  }

  const mocha = new Mocha({ ui: 'bdd', timeout: 30_000, color: false, reporter: 'spec' });
  mocha.suite.emit('pre-require', globalThis, 'integration', mocha);
  for (const load of testFiles) await load();
  mocha.suite.afterAll('stop the emulator, forget the settings', async () => {
    await resetSettings();
    await closeEmulator();
  });

  return new Promise<number>((resolve) => {
    const runner = mocha.run(resolve);
    heartbeat.follow(runner);
    const record = (state: 'passed' | 'failed' | 'pending') => (test: Mocha.Test | Mocha.Hook, err?: Error) => {
      results[state]++;
      results.tests.push({
        title: test.fullTitle(),
        state,
        durationMs: test.duration ?? 0,
        ...(err ? { error: `${err.message}\n${err.stack ?? ''}`.slice(0, 4000) } : {}),
      });
      writeResults(results);
    };
    runner.on('pass', record('passed'));
    runner.on('fail', record('failed'));
    runner.on('pending', record('pending'));
  });
}
