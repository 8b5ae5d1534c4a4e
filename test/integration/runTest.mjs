#!/usr/bin/env node
// Runs the integration suite (test/integration/suite) in desktop VS Code through
// @vscode/test-electron: mocha inside the extension host of an Extension Development Host.
// VS Code comes from DOCS_ASSISTANT_VSCODE_EXECUTABLE (the Electron binary of an installed
// VS Code, e.g. /usr/share/code/code) or from @vscode/test-electron's download into .vscode-test/.
// Where neither works (this network blocks the download), it says so in one line and exits 3:
// a run that did not happen never counts as passed. run.mjs runs the same suite in code-server.
//
// Usage: node test/integration/runTest.mjs [--no-build]
// Exit: 0 passed, 1 failed, 3 could not run here.
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildForRun, ROOT } from './build.mjs';
import { NOT_RUN_EXIT_CODE, readResults, report } from './results.mjs';

const EXECUTABLE_ENV = 'DOCS_ASSISTANT_VSCODE_EXECUTABLE';
const DOWNLOAD_TIMEOUT_MS = 120_000;
const CACHE = join(ROOT, '.vscode-test');
const { downloadAndUnzipVSCode, runTests } = createRequire(join(ROOT, 'package.json'))('@vscode/test-electron');

function notRun(reason) {
  console.error(`Integration suite NOT run: ${reason}`);
  process.exit(NOT_RUN_EXIT_CODE);
}

function firstLine(e) {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0];
}

async function vscodeExecutable() {
  const given = process.env[EXECUTABLE_ENV];
  if (given) {
    if (!existsSync(given)) notRun(`${EXECUTABLE_ENV}=${given} does not exist.`);
    return given;
  }
  // @vscode/test-electron's own timeout only covers a stalled transfer; a blocked network can
  // also hang before the first byte.
  let timer;
  const timeout = new Promise(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${DOWNLOAD_TIMEOUT_MS / 1000} s`)), DOWNLOAD_TIMEOUT_MS)),
  );
  try {
    return await Promise.race([downloadAndUnzipVSCode({ cachePath: CACHE, timeout: 30_000 }), timeout]);
  } catch (e) {
    notRun(
      `@vscode/test-electron could not download VS Code (${firstLine(e)}). Set ${EXECUTABLE_ENV} to an installed VS Code's executable, or run \`node test/integration/run.mjs\` for the same suite in code-server.`,
    );
  } finally {
    clearTimeout(timer);
  }
}

async function main() {
  const wallStart = Date.now();
  const suite = await buildForRun(process.argv);
  const executable = await vscodeExecutable();
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    notRun(`desktop VS Code needs a display and there is none: run this under \`xvfb-run -a\`.`);
  }

  mkdirSync(CACHE, { recursive: true });
  const userDataDir = mkdtempSync(join(CACHE, 'integration-electron-'));
  const workspace = join(userDataDir, 'workspace');
  const resultsFile = join(userDataDir, 'results.json');
  cpSync(join(ROOT, 'sample-workspace'), workspace, { recursive: true });
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  writeFileSync(
    join(userDataDir, 'User', 'settings.json'),
    JSON.stringify(
      {
        'security.workspace.trust.enabled': false,
        'workbench.startupEditor': 'none',
        'telemetry.telemetryLevel': 'off',
        'update.mode': 'none',
        'git.enabled': false,
      },
      null,
      2,
    ),
  );

  let exitCode;
  try {
    exitCode = await runTests({
      vscodeExecutablePath: executable,
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: suite,
      extensionTestsEnv: {
        DOCS_ASSISTANT_INTEGRATION_RESULTS: resultsFile,
        DOCS_ASSISTANT_DEMO_ADMIN_KEY: undefined,
        DOCS_ASSISTANT_DEMO_ASSISTANT_KEY: undefined,
      },
      // basic: a Linux desktop without a keyring would otherwise refuse SecretStorage writes.
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--password-store=basic',
        `--user-data-dir=${userDataDir}`,
        `--extensions-dir=${join(userDataDir, 'extensions')}`,
      ],
    });
  } catch (e) {
    console.error(`VS Code ended the run abnormally: ${firstLine(e)}`);
    exitCode = 1;
  }
  const passed = report(readResults(resultsFile), 'VS Code desktop (@vscode/test-electron)', Date.now() - wallStart) && exitCode === 0;
  if (passed) rmSync(userDataDir, { recursive: true, force: true });
  else console.error(`User data and results.json are kept in ${userDataDir}`);
  process.exit(passed ? 0 : 1);
}

main().catch((e) => {
  console.error(`Integration suite FAILED: ${firstLine(e)}`);
  process.exit(1);
});
