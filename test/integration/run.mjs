#!/usr/bin/env node
// Runs the integration suite (test/integration/suite) inside code-server's extension host: the
// same mocha suite @vscode/test-electron runs in desktop VS Code (runTest.mjs), here in the real
// VS Code that code-server carries, since this network blocks the desktop download.
//
// How: code-server's web workbench takes VS Code's own test arguments in its `payload` query
// (extensionDevelopmentPath, extensionTestsPath, as vscode-remote:// URIs), so the server's Node
// extension host loads this repository as the extension under development, in test mode, and
// calls the bundled suite's run(). A workbench must be open for the extension host to start:
// Debian's Chromium, driven by playwright-core, opens it. The suite writes its results as JSON;
// the workbench reports the host's exit through window.codeAutomationExit.
//
// Usage: node test/integration/run.mjs [--no-build]
// Exit: 0 passed, 1 failed, 3 could not run here (reason printed in one line).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { CHROMIUM, launchChromium } from '../chromium.mjs';
import { buildForRun, ROOT } from './build.mjs';
import { NOT_RUN_EXIT_CODE, report, watchResults } from './results.mjs';

const CACHE = join(ROOT, '.vscode-test');
// A run on another code-server than the default (DOCS_ASSISTANT_CODE_SERVER) keeps its screenshot apart.
const TARGET = process.env.DOCS_ASSISTANT_CODE_SERVER?.trim() || '4.100.3';
const SHOTS = join(ROOT, 'test-results', TARGET === '4.100.3' ? 'integration' : `integration-code-server-${TARGET}`);

function notRun(reason) {
  console.error(`Integration suite NOT run: ${reason}`);
  process.exit(NOT_RUN_EXIT_CODE);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const wallStart = Date.now();
  const suite = await buildForRun(process.argv);

  if (!existsSync(CHROMIUM))
    notRun(`${CHROMIUM} is missing (apt-get install -y chromium); a workbench must be open for code-server to start the extension host.`);
  let codeServer;
  try {
    const installer = await import('../../scripts/vscode/install-code-server.mjs');
    // DOCS_ASSISTANT_CODE_SERVER chooses which (default 4.100.3).
    codeServer = installer.ensureCodeServerTarget(installer.selectedCodeServerVersion());
  } catch (e) {
    notRun(`code-server could not be installed: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`);
  }

  mkdirSync(CACHE, { recursive: true });
  const userDataDir = mkdtempSync(join(CACHE, 'integration-user-'));
  const extensionsDir = join(userDataDir, 'extensions'); // empty: no installed copy of the extension competes
  const workspace = join(userDataDir, 'workspace');
  const resultsFile = join(userDataDir, 'results.json');
  mkdirSync(extensionsDir, { recursive: true });
  cpSync(join(ROOT, 'sample-workspace'), workspace, { recursive: true });
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  writeFileSync(
    join(userDataDir, 'User', 'settings.json'),
    JSON.stringify(
      {
        'security.workspace.trust.enabled': false,
        'workbench.startupEditor': 'none',
        'telemetry.telemetryLevel': 'off',
        'extensions.autoCheckUpdates': false,
        'update.mode': 'none',
        'git.enabled': false,
      },
      null,
      2,
    ),
  );

  const port = await freePort();
  const env = { ...process.env, DOCS_ASSISTANT_INTEGRATION_RESULTS: resultsFile };
  // The suite sets the demo keys itself, so that what it checks does not depend on this shell.
  delete env.DOCS_ASSISTANT_DEMO_ADMIN_KEY;
  delete env.DOCS_ASSISTANT_DEMO_ASSISTANT_KEY;
  const proc = spawn(
    codeServer.bin,
    [
      '--config',
      codeServer.config,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      ...codeServer.extensionTestArgs,
      '--extensions-dir',
      extensionsDir,
      '--user-data-dir',
      userDataDir,
      workspace,
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let serverLog = '';
  proc.stdout.on('data', (d) => (serverLog += d));
  proc.stderr.on('data', (d) => (serverLog += d));
  const stopServer = () => {
    try {
      process.kill(-proc.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  process.once('SIGINT', () => {
    stopServer();
    process.exit(130);
  });

  let browser;
  let passed = false;
  try {
    const url = `http://127.0.0.1:${port}`;
    // Listening is one event with nothing to show progress before it: a server that has not
    // listened within a minute never started.
    const listenDeadline = Date.now() + 60_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`code-server exited (${proc.exitCode}) before it listened:\n${serverLog.slice(-2000)}`);
      try {
        if ((await fetch(`${url}/healthz`)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > listenDeadline) throw new Error(`code-server did not listen on ${url} within 60 s:\n${serverLog.slice(-2000)}`);
      await sleep(200);
    }

    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
    const page = await context.newPage();
    let hostExit;
    await page.exposeFunction('codeAutomationExit', (code) => {
      hostExit = code;
    });
    const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
    const payload = [
      ['extensionDevelopmentPath', remote(ROOT)],
      ['extensionTestsPath', remote(suite)],
    ];
    // Only until the server answers: how long the workbench then takes to load is part of the
    // suite's start, which results.json bounds (a page `load` within 30 s is a guess at the machine).
    await page.goto(`${url}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`, { waitUntil: 'commit' });

    const watch = watchResults(resultsFile);
    for (;;) {
      const results = watch.poll();
      if (results?.done || hostExit !== undefined) break;
      if (proc.exitCode !== null) throw new Error(`code-server exited (${proc.exitCode}) during the run:\n${serverLog.slice(-2000)}`);
      const failure = watch.failure();
      if (failure) throw new Error(`${failure}:\n${serverLog.slice(-2000)}`);
      await sleep(250);
    }
    // The suite's last write (done) is synchronous and comes before run() settles, so before the
    // host reports its exit: one more read sees it, with no wait.
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'workbench-after-host-exit.png') }).catch(() => undefined);
    passed = report(watch.poll(), `code-server ${codeServer.version}`, Date.now() - wallStart);
    if (hostExit !== undefined && hostExit !== 0 && passed) {
      console.error(`The extension host exited with code ${hostExit} although every test passed.`);
      passed = false;
    }
  } finally {
    await browser?.close().catch(() => undefined);
    stopServer();
    if (passed) rmSync(userDataDir, { recursive: true, force: true });
    else console.error(`code-server's user data, logs and results.json are kept in ${userDataDir}`);
  }
  process.exit(passed ? 0 : 1);
}

main().catch((e) => {
  console.error(`Integration suite FAILED: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
