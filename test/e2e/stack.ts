import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename, join } from 'node:path';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../emulator';

// What the e2e suite runs against: the local service emulator and code-server (a real VS Code:
// its server, a Node extension host and the web workbench) with the packaged .vsix installed,
// started the way `npm start` starts them. Each stack gets its own user-data folder, so one
// test's keys and state never leak into the next.

export const ROOT = join(__dirname, '..', '..');
export const CACHE = join(ROOT, '.vscode-test');
export const VSIX = join(ROOT, 'docs-assistant.vsix');
export const SAMPLE_WORKSPACE = join(ROOT, 'sample-workspace');

export interface StackOptions {
  /** Seed both demo keys through the first-run path (default) or start with none. */
  demoKeys?: boolean;
  emulator?: EmulatorOptions;
  /** Extra user settings (a function, for settings that name the emulator's address). */
  settings?: Record<string, unknown> | ((emulator: RunningEmulator) => Record<string, unknown>);
  /** Reuse this user-data folder (to restart code-server on the same state). */
  userDataDir?: string;
  /** Written to the workspace copy's .vscode/settings.json: what a cloned repository could carry. */
  workspaceSettings?: Record<string, unknown>;
  /** More packaged extensions (.vsix) to install next to docs-assistant's: test-only ones (test/e2e/chatView.ts). */
  extraExtensions?: string[];
  /** More code-server arguments, before the folder (`--enable-proposed-api <id>`). */
  codeServerArgs?: string[];
}

export interface Stack {
  emulator: RunningEmulator;
  url: string;
  workspace: string;
  userDataDir: string;
  /** code-server's own output, for failure messages. */
  output(): string;
  stopCodeServer(): Promise<void>;
  close(): Promise<void>;
}

// Each run keeps its user-data and extensions folders under its own e2e-run-<pid>, so two runs
// at once (a developer's and npm test's) never delete each other's. Folders of finished runs are
// kept for debugging until the next run starts.
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
if (existsSync(CACHE)) {
  for (const d of readdirSync(CACHE)) {
    const run = /^e2e-run-(\d+)$/.exec(d);
    if (run && !alive(Number(run[1]))) rmSync(join(CACHE, d), { recursive: true, force: true });
  }
}
export const RUN_DIR = join(CACHE, `e2e-run-${process.pid}`);

/** Every stack this run closed: what its VS Code and emulator kept, for the secrets scan. */
export const closedStacks: { userDataDir: string; requestLog: string }[] = [];

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Which code-server the run drives: DOCS_ASSISTANT_CODE_SERVER (4.100.3, the default, or 4.139.1). */
export const CODE_SERVER_TARGET = process.env.DOCS_ASSISTANT_CODE_SERVER?.trim() || '4.100.3';

async function codeServer(): Promise<{ bin: string; config: string }> {
  const mod = await import('../../scripts/vscode/install-code-server.mjs');
  const target = mod.ensureCodeServerTarget(mod.selectedCodeServerVersion());
  return { bin: target.bin, config: target.config };
}

const packedTestExtensions = new Map<string, string>();

/**
 * Packs a test-only extension's folder (test/lm-provider, test/command-caller) into
 * RUN_DIR/<name>.vsix, once per run (vsce, offline; about 1 s), for StackOptions.extraExtensions.
 */
export function packTestOnlyExtension(source: string, name: string): string {
  const known = packedTestExtensions.get(name);
  if (known && existsSync(known)) return known;
  mkdirSync(RUN_DIR, { recursive: true });
  // vsce packs from a copy, so it never walks or writes inside the repository.
  const dir = mkdtempSync(join(RUN_DIR, `${name}-src-`));
  cpSync(source, dir, { recursive: true });
  const out = join(RUN_DIR, `${name}.vsix`);
  const vsce = join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  const r = spawnSync(
    process.execPath,
    [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--allow-star-activation', '-o', out],
    { cwd: dir, encoding: 'utf8' },
  );
  rmSync(dir, { recursive: true, force: true });
  if (r.status !== 0 || !existsSync(out)) throw new Error(`vsce could not pack ${source}:\n${r.stdout}\n${r.stderr}`);
  packedTestExtensions.set(name, out);
  return out;
}

/** Extensions folders installed this run, by the extra .vsix files they hold besides ours ('' for none). */
const installedExtensionsDirs = new Map<string, string>();

/**
 * Installs the packaged extension once per run into a fresh extensions folder; with extra .vsix
 * files, into a folder of its own (`extensions+<names>`), so stacks without them never see them.
 */
async function extensionsDir(bin: string, config: string, extra: string[] = []): Promise<string> {
  const key = extra.join('\n');
  const known = installedExtensionsDirs.get(key);
  if (known) return known;
  if (!existsSync(VSIX)) throw new Error(`${VSIX} is missing: run \`npm run package\` first (npm run test:e2e does).`);
  const dir = join(RUN_DIR, ['extensions', ...extra.map((x) => basename(x, '.vsix'))].join('+'));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const installs = [VSIX, ...extra].flatMap((x) => ['--install-extension', x]);
  const r = spawnSync(bin, ['--config', config, '--extensions-dir', dir, ...installs], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`code-server could not install the .vsix:\n${r.stdout}\n${r.stderr}`);
  if (!readdirSync(dir).some((d) => d.includes('docs-assistant'))) throw new Error(`The .vsix did not land in ${dir}:\n${r.stdout}`);
  installedExtensionsDirs.set(key, dir);
  return dir;
}

export function userSettings(emulator: RunningEmulator, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'security.workspace.trust.enabled': false,
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'update.mode': 'none',
    'window.commandCenter': false,
    // VS Code 1.139 opens its Chat in a secondary side bar by default: the editor would be
    // narrower than on 1.100, wrapping lines the tests select by keyboard.
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'git.enabled': false,
    'git.openRepositoryInParentFolders': 'never',
    'docsAssistant.baseUrl': emulator.url,
    'docsAssistant.projectId': emulator.projectId,
    'docsAssistant.domain': emulator.domain,
    ...extra,
  };
}

export async function startCodeServer(opts: {
  emulator: RunningEmulator;
  userDataDir: string;
  workspace: string;
  demoKeys: boolean;
  settings?: Record<string, unknown>;
  extraExtensions?: string[];
  args?: string[];
}): Promise<{ url: string; proc: ChildProcess; output: () => string }> {
  const { bin, config } = await codeServer();
  const exts = await extensionsDir(bin, config, opts.extraExtensions);
  mkdirSync(join(opts.userDataDir, 'User'), { recursive: true });
  writeFileSync(join(opts.userDataDir, 'User', 'settings.json'), JSON.stringify(userSettings(opts.emulator, opts.settings), null, 2));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DOCS_ASSISTANT_DEMO_ADMIN_KEY;
  delete env.DOCS_ASSISTANT_DEMO_ASSISTANT_KEY;
  if (opts.demoKeys) {
    env.DOCS_ASSISTANT_DEMO_ADMIN_KEY = opts.emulator.adminKey;
    env.DOCS_ASSISTANT_DEMO_ASSISTANT_KEY = opts.emulator.assistantKey;
  }
  const proc = spawn(
    bin,
    [
      '--config',
      config,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--extensions-dir',
      exts,
      '--user-data-dir',
      opts.userDataDir,
      ...(opts.args ?? []),
      opts.workspace,
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`code-server exited (${proc.exitCode}) before it listened:\n${out.slice(-2000)}`);
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`code-server did not listen on ${url} within 60 s:\n${out.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, proc, output: () => out };
}

export async function killGroup(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.pid === undefined) return;
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  try {
    process.kill(-proc.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-proc.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 5000);
  await exited;
  clearTimeout(timer);
}

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const emulator = await startEmulator({ port: 0, jobDurationMs: 3000, ...opts.emulator });
  mkdirSync(RUN_DIR, { recursive: true });
  const userDataDir = opts.userDataDir ?? mkdtempSync(join(RUN_DIR, 'user-'));
  // A copy of the sample workspace, so what a test edits never reaches the repository.
  const workspace = join(userDataDir, 'workspace');
  if (!existsSync(workspace)) cpSync(SAMPLE_WORKSPACE, workspace, { recursive: true });
  if (opts.workspaceSettings) {
    mkdirSync(join(workspace, '.vscode'), { recursive: true });
    writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify(opts.workspaceSettings, null, 2));
  }
  let cs: Awaited<ReturnType<typeof startCodeServer>>;
  try {
    cs = await startCodeServer({
      emulator,
      userDataDir,
      workspace,
      demoKeys: opts.demoKeys ?? true,
      settings: typeof opts.settings === 'function' ? opts.settings(emulator) : opts.settings,
      extraExtensions: opts.extraExtensions,
      args: opts.codeServerArgs,
    });
  } catch (e) {
    await emulator.close();
    throw e;
  }
  return {
    emulator,
    url: `${cs.url}/?folder=${encodeURIComponent(workspace)}`,
    workspace,
    userDataDir,
    output: cs.output,
    stopCodeServer: () => killGroup(cs.proc),
    async close() {
      await killGroup(cs.proc);
      closedStacks.push({ userDataDir, requestLog: JSON.stringify(emulator.requests) });
      await emulator.close();
    },
  };
}
