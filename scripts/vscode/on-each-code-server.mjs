#!/usr/bin/env node
// Runs a command once per code-server the suites cover (4.100.3, the lowest VS Code; 4.139.1,
// today's), with DOCS_ASSISTANT_CODE_SERVER set for each, and prints how long each took.
// Fails if any run failed; every run goes ahead anyway, so one report shows both versions.
//
//   node scripts/vscode/on-each-code-server.mjs node test/integration/run.mjs --no-build
//   DOCS_ASSISTANT_CODE_SERVER=4.139.1 npm run test:e2e   # only that one
//
// Exit code: the first failing run's (so 3, "could not run here", stays 3), else 0.
import { spawnSync } from 'node:child_process';
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

const runs = [];
for (const version of versions) {
  console.log(`\n=== code-server ${version}: ${[cmd, ...args].join(' ')}\n`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, [CODE_SERVER_ENV]: version } });
  const code = r.status ?? (r.signal ? 1 : 0);
  if (r.error) console.error(`could not start ${cmd}: ${r.error.message}`);
  runs.push({ version, code: r.error ? 1 : code, seconds: (Date.now() - started) / 1000 });
  if (r.signal === 'SIGINT') break;
}

console.log(`\n${[cmd, ...args].join(' ')}, per code-server:`);
for (const r of runs) console.log(`  ${r.version.padEnd(8)} ${r.code === 0 ? 'passed' : r.code === 3 ? 'NOT RUN' : 'FAILED'}  ${r.seconds.toFixed(1)} s`);
const failed = runs.find((r) => r.code !== 0);
process.exit(failed ? failed.code : 0);
