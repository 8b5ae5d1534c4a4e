#!/usr/bin/env node
// Runs a command once per code-server the suites cover (4.100.3, the lowest VS Code; 4.139.1,
// today's), with DOCS_ASSISTANT_CODE_SERVER set for each, and prints how long each took.
// Fails if any run failed; every run goes ahead anyway, so one report shows both versions.
//
//   node scripts/vscode/on-each-code-server.mjs node test/integration/run.mjs --no-build
//   DOCS_ASSISTANT_CODE_SERVER=4.139.1 npm run test:e2e   # only that one
//
// Exit code: the first failing run's (so 3, "could not run here", stays 3), else 0.
//
// A failing test's name, and the first lines of why it failed, are repeated under the summary: CI
// keeps only the tail of a long log, and a run that failed on the first code-server otherwise
// scrolls its failure out of that tail (a failure once seen only by name could not be diagnosed).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { CODE_SERVER_ENV, CODE_SERVER_VERSIONS } from './install-code-server.mjs';

const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  console.error('usage: on-each-code-server.mjs <command> [args…]');
  process.exit(2);
}
const chosen = (process.env[CODE_SERVER_ENV] ?? '').trim();
if (chosen && !CODE_SERVER_VERSIONS.includes(chosen)) {
  console.error(`${CODE_SERVER_ENV}=${chosen} is not one of ${CODE_SERVER_VERSIONS.join(', ')}.`);
  process.exit(2);
}
const versions = chosen ? [chosen] : CODE_SERVER_VERSIONS;

/** A failure line of either reporter: the integration suite's `✘ title`, mocha's `1) title`. */
const FAILURE = /^\s*(✘ |\d+\) )/;
/** Where mocha's epilogue starts: only there is a failure line followed by why it failed. */
const EPILOGUE = /^\s*\d+ failing/;
/** The lines kept after each failure line of the epilogue: the test's title, then the error. */
const LINES_AFTER_FAILURE = 6;
/** A stack frame: the error's message is what says why, the frames only where. */
const STACK_FRAME = /^\s*at /;
/** The most failure lines kept per run: enough to name them and say why, bounded whatever a run prints. */
const MAX_FAILURE_LINES = 60;

/** Runs one command, passing its output through line by line and keeping its failure lines. */
function run(version) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['inherit', 'pipe', 'pipe'], env: { ...process.env, [CODE_SERVER_ENV]: version } });
    const failures = [];
    let epilogue = false;
    let after = 0;
    const keep = (line) => {
      if (failures.length < MAX_FAILURE_LINES) failures.push(line.slice(0, 300));
    };
    const follow = (from, to) => {
      createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) => {
        to.write(`${line}\n`);
        if (EPILOGUE.test(line)) epilogue = true;
        if (FAILURE.test(line)) {
          keep(line.trim());
          after = epilogue ? LINES_AFTER_FAILURE : 0;
        } else if (after > 0 && line.trim() && !STACK_FRAME.test(line)) {
          keep(`  ${line.trim()}`);
          after -= 1;
        } else if (STACK_FRAME.test(line)) after = 0;
      });
    };
    follow(child.stdout, process.stdout);
    follow(child.stderr, process.stderr);
    child.on('error', (e) => {
      console.error(`could not start ${cmd}: ${e.message}`);
      resolve({ code: 1, signal: null, failures });
    });
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), signal, failures }));
  });
}

const runs = [];
for (const version of versions) {
  console.log(`\n=== code-server ${version}: ${[cmd, ...args].join(' ')}\n`);
  const started = Date.now();
  const r = await run(version);
  runs.push({ version, code: r.code, failures: r.failures, seconds: (Date.now() - started) / 1000 });
  if (r.signal === 'SIGINT') break;
}

console.log(`\n${[cmd, ...args].join(' ')}, per code-server:`);
for (const r of runs) {
  console.log(`  ${r.version.padEnd(8)} ${r.code === 0 ? 'passed' : r.code === 3 ? 'NOT RUN' : 'FAILED'}  ${r.seconds.toFixed(1)} s`);
  if (r.code !== 0) for (const f of r.failures) console.log(`           ${f}`);
}
const failed = runs.find((r) => r.code !== 0);
process.exit(failed ? failed.code : 0);
