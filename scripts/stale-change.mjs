#!/usr/bin/env node
// `npm run stale-change [-- <folder>]`: issue 32's scripted change, for trying Check Docs for My
// Changes by hand. In the demo workspace that `npm start` opens (.vscode-test/start-workspace/,
// or <folder>, a copy of sample-workspace/), it commits the sample as it is (a Git repository, the
// first time) and then renames the relay CLI's --dlq to --dead-letter-queue, changes the
// visibility_timeout default from 30s to 60s and removes --delay (test/fixtures/staleDocsChange.ts).
// Run Check Docs for My Changes from the Source Control view: /cli and /configuration are stale.
// `git checkout -- relay-cli` in that folder undoes the change.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = resolve(process.argv[2] ?? join(ROOT, '.vscode-test', 'start-workspace'));
if (!existsSync(join(dir, 'relay-cli'))) {
  console.error(`${dir} has no relay-cli/: run \`npm start\` once first (it makes the demo workspace), or name a copy of sample-workspace/.`);
  process.exit(1);
}
const change = await tsImport('../test/fixtures/staleDocsChange.ts', import.meta.url);
if (!existsSync(join(dir, '.git'))) {
  change.commitSampleWorkspace(dir);
  console.log(`${dir} is now a Git repository with the sample committed.`);
}
const edited = change.applyStaleDocsChange(dir);
console.log(edited.length ? `Changed ${edited.join(', ')}: ${change.STALE_DOCS_CHANGE_TITLE}.` : 'The change was made already.');
console.log(`Stale: ${change.expectedStalePages.join(', ')}. Not stale: ${change.expectedNotStale.join(', ')}.`);
