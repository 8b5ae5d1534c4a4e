#!/usr/bin/env node
// `npm start`: the extension in a real VS Code against the local service emulator.
//   1. builds and packages the extension (.vsix),
//   2. starts the emulator (test/emulator) on 127.0.0.1,
//   3. opens VS Code on a copy of sample-workspace/ in .vscode-test/start-workspace/, beside a clone of the
//      emulator's docs repository (acme-docs/, origin https://github.com/acme/acme-docs, reached by Git's
//      own url.<bare>.insteadOf), with the extension configured for the emulator and both
//      demo keys seeded into SecretStorage on first run (src/host/vscode/demoKeys.ts), so a new user can
//      ask and launch jobs at once, with nothing to paste:
//      - a desktop `code` on the PATH: `code --extensionDevelopmentPath` in its own profile;
//      - otherwise code-server (a real VS Code in the browser), installed once into .vscode-test/;
//        the URL to open is printed.
// `npm start -- --web` runs the extension as github.dev and vscode.dev would: in code-server's web
// worker extension host (its browser bundle, dist/web/extension.js), where a browser has no
// environment for the demo keys: they are printed to paste into "Set … API Key".
// Ctrl+C stops everything it started. Everything it writes stays in ignored folders.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = join(ROOT, '.vscode-test');
const SAMPLE_WORKSPACE = join(ROOT, 'sample-workspace');
/**
 * The demo's workspace: sample-workspace/ copied once (new files added, the user's edits kept) and the
 * docs clone inside it. Not sample-workspace/ itself: the tests copy that, and must not copy a clone.
 */
const WORKSPACE = join(CACHE, 'start-workspace');
const DOCS_CLONE = join(WORKSPACE, 'acme-docs');
/** Filled from the emulator's banner, so the keys and ids always match the emulator's own. */
const DEMO = { adminKey: '', assistantKey: '', projectId: '', domain: '' };
const children = [];

function say(msg) {
  console.log(`\x1b[36m[start]\x1b[0m ${msg}`);
}

function fail(msg) {
  console.error(`\x1b[31m[start]\x1b[0m ${msg}`);
  stopAll(1);
}

function portFree(port) {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

async function pickPort(preferred) {
  if (await portFree(preferred)) return preferred;
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function start(cmd, args, opts = {}) {
  // Its own process group, so Ctrl+C can stop it with everything it spawned.
  const child = spawn(cmd, args, { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], ...opts });
  children.push(child);
  return child;
}

let stopping = false;
function stopAll(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const c of children) {
    try {
      if (c.exitCode === null && c.pid) process.kill(-c.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  setTimeout(() => process.exit(code), 300).unref();
}
process.on('SIGINT', () => {
  say('stopping…');
  stopAll(0);
});
process.on('SIGTERM', () => stopAll(0));

function which(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).stdout.trim();
}

/** The settings that point the extension at the emulator, merged into the profile's own. */
function writeSettings(userDataDir, emulatorUrl, extra) {
  const file = join(userDataDir, 'User', 'settings.json');
  mkdirSync(dirname(file), { recursive: true });
  let current = {};
  try {
    current = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // first run, or a file with comments we do not try to keep
  }
  const settings = {
    'security.workspace.trust.enabled': false,
    'workbench.startupEditor': 'none',
    'git.openRepositoryInParentFolders': 'never',
    ...current,
    ...extra,
    'docsAssistant.baseUrl': emulatorUrl,
    'docsAssistant.projectId': DEMO.projectId,
    'docsAssistant.domain': DEMO.domain,
  };
  writeFileSync(file, JSON.stringify(settings, null, 2));
}

async function startEmulator() {
  const port = await pickPort(4010);
  const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
  if (!existsSync(tsx)) fail('node_modules is missing: run `npm ci` first.');
  cpSync(SAMPLE_WORKSPACE, WORKSPACE, { recursive: true, force: false });
  const emu = start(tsx, ['test/emulator/cli.ts', '--port', String(port), '--job-duration-ms', '8000', '--clone-into', DOCS_CLONE]);
  const url = `http://127.0.0.1:${port}`;
  await new Promise((resolve, reject) => {
    let out = '';
    const onData = (d) => {
      out += d.toString();
      if (!out.includes('Ctrl+C to stop.')) return;
      emu.stdout.off('data', onData);
      const field = (name) => new RegExp(`^\\s*${name}\\s+(\\S+)`, 'm').exec(out)?.[1] ?? '';
      Object.assign(DEMO, { projectId: field('project id'), domain: field('domain'), adminKey: field('admin key'), assistantKey: field('assistant key') });
      // Not fatal: without the clone only Review Changes has no repository to work in.
      const clone = /^\s*docs workspace\s+(.*)$/m.exec(out)?.[1] ?? 'not cloned';
      if (clone.startsWith('not cloned')) say(`the docs repository was ${clone}`);
      if (Object.values(DEMO).some((v) => !v)) reject(new Error(`could not read the project id, domain and demo keys from the emulator's banner:\n${out}`));
      else resolve();
    };
    emu.stdout.on('data', onData);
    emu.stderr.on('data', (d) => (out += d.toString()));
    emu.once('exit', (code) => reject(new Error(`the emulator exited (${code}):\n${out}`)));
  }).catch((e) => fail(e.message));
  // Its request log lines, for watching what the extension sends.
  emu.stdout.on('data', (d) => process.stdout.write(`\x1b[2m${d.toString().replace(/\n(?=.)/g, '\n')}\x1b[0m`));
  say(`service emulator on ${url} (project ${DEMO.projectId}, domain ${DEMO.domain})`);
  return url;
}

function buildAndPackage() {
  say('building and packaging the extension…');
  const r = spawnSync('npm', ['run', '--silent', 'package'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) fail(`npm run package failed:\n${r.stdout}\n${r.stderr}`);
  return join(ROOT, 'docs-assistant.vsix');
}

/** `npm start -- --web`: the browser's extension host (code-server's web worker) instead of Node's. */
const WEB = process.argv.includes('--web');
const WEB_SETTINGS = { 'remote.extensionKind': { 'docs-assistant.docs-assistant': ['ui'] } };
const demoEnv = () => ({ ...process.env, DOCS_ASSISTANT_DEMO_ADMIN_KEY: DEMO.adminKey, DOCS_ASSISTANT_DEMO_ASSISTANT_KEY: DEMO.assistantKey });

async function withDesktopCode(code, emulatorUrl) {
  const userDataDir = join(CACHE, 'start-desktop-user');
  writeSettings(userDataDir, emulatorUrl, {});
  say('opening your desktop VS Code (its own profile in .vscode-test/) with the extension under development…');
  const vs = start(
    code,
    [
      '--new-window',
      '--wait',
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      join(CACHE, 'start-desktop-extensions'),
      `--extensionDevelopmentPath=${ROOT}`,
      WORKSPACE,
    ],
    { env: demoEnv() },
  );
  vs.once('exit', () => {
    say('VS Code closed.');
    stopAll(0);
  });
}

async function withCodeServer(vsix, emulatorUrl) {
  const { ensureCodeServerTarget, selectedCodeServerVersion, CODE_SERVER_VERSION } = await import('./vscode/install-code-server.mjs');
  say('no desktop `code` on the PATH: using code-server, a real VS Code in your browser.');
  // DOCS_ASSISTANT_CODE_SERVER=4.139.1 npm start uses today's VS Code (default 4.100.3).
  let bin, CODE_SERVER_CONFIG, printed, version;
  try {
    ({ bin, config: CODE_SERVER_CONFIG, printed, version } = ensureCodeServerTarget(selectedCodeServerVersion()));
  } catch (e) {
    fail(e instanceof Error ? e.message : String(e));
  }
  // Each VS Code keeps its own profile: 1.100 must not open state that 1.139 wrote.
  const suffix = `${version === CODE_SERVER_VERSION ? '' : `-${version}`}${WEB ? '-web' : ''}`;
  const extensionsDir = join(CACHE, `start-extensions${suffix}`);
  const userDataDir = join(CACHE, `start-user${suffix}`);
  const install = spawnSync(bin, ['--config', CODE_SERVER_CONFIG, '--extensions-dir', extensionsDir, '--install-extension', vsix, '--force'], {
    encoding: 'utf8',
  });
  if (install.status !== 0) fail(`code-server could not install the extension:\n${install.stdout}\n${install.stderr}`);
  writeSettings(userDataDir, emulatorUrl, { 'workbench.colorTheme': 'Default Dark Modern', ...(WEB ? WEB_SETTINGS : {}) });
  const port = await pickPort(8080);
  const cs = start(
    bin,
    [
      '--config',
      CODE_SERVER_CONFIG,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--extensions-dir',
      extensionsDir,
      '--user-data-dir',
      userDataDir,
      WORKSPACE,
    ],
    { env: demoEnv() },
  );
  let out = '';
  cs.stdout.on('data', (d) => (out += d.toString()));
  cs.stderr.on('data', (d) => (out += d.toString()));
  cs.once('exit', (code) => {
    if (!stopping) fail(`code-server stopped (${code}):\n${out.slice(-2000)}`);
  });
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(WORKSPACE)}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) fail(`code-server did not start within 60 s:\n${out.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  console.log(`
  \x1b[1mDocs Assistant is running in VS Code (code-server ${String(printed).split(' ')[0]}).\x1b[0m
  Open:  \x1b[4m${url}\x1b[0m

  The "Docs Assistant" icon in the activity bar holds Ask Docs and Agent Jobs. ${
    WEB
      ? `It runs in the browser's
  extension host (a web worker), as in github.dev: paste the demo keys into "Docs Assistant: Set
  Assistant API Key…" and "Set Admin API Key…":
    assistant key  ${DEMO.assistantKey}
    admin key      ${DEMO.adminKey}
 `
      : `Both demo keys are
  already in VS Code's secret storage.`
  } Try: select lines in docs/configuration.md, then
  "Docs Assistant: Ask Docs About Selection" (Ctrl+Alt+D) or "Fix Docs with Agent…".
  acme-docs/ is a clone of the emulator's docs repository: its agent commits on a branch there.
  Ctrl+C stops VS Code and the emulator.
`);
}

async function main() {
  const vsix = buildAndPackage();
  const emulatorUrl = await startEmulator();
  // The browser's extension host is code-server's web worker: a desktop VS Code has none.
  const code = process.env.DOCS_ASSISTANT_USE_CODE_SERVER || WEB ? '' : which('code');
  // code-server also installs a `code`-like CLI in some setups; only a desktop VS Code will do.
  const desktop = code && !/code-server/.test(spawnSync(code, ['--version'], { encoding: 'utf8' }).stdout ?? '') ? code : '';
  if (desktop) await withDesktopCode(desktop, emulatorUrl);
  else await withCodeServer(vsix, emulatorUrl);
}

main().catch((e) => fail(e instanceof Error ? (e.stack ?? e.message) : String(e)));
