import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DocsAssistantTestHooks } from '../../../src/extension';
import { DEMO, startEmulator, type RunningEmulator } from '../../emulator';

// What every integration test shares, inside the extension host: the extension under test with
// the hooks its activate() returns in a test host, and one local service emulator, started here
// in the same process and torn down by index.ts after the last test.

export const EXTENSION_ID = 'docs-assistant.docs-assistant';

export { DEMO };

export interface Extension {
  ext: vscode.Extension<DocsAssistantTestHooks | undefined>;
  hooks: DocsAssistantTestHooks;
}

export function extension(): vscode.Extension<DocsAssistantTestHooks | undefined> {
  const ext = vscode.extensions.getExtension<DocsAssistantTestHooks | undefined>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not loaded in this extension host: is it the extensionDevelopmentPath?`);
  return ext;
}

export async function activated(): Promise<Extension> {
  const ext = extension();
  const hooks = await ext.activate();
  if (!hooks) throw new Error('activate() returned no test hooks: the extension host was not started in test mode (extensionTestsPath).');
  return { ext, hooks };
}

/**
 * The extension with both demo keys stored and the emulator configured, once the agent has loaded
 * the emulator project's jobs: what a test that runs the commands against the service starts from.
 */
export async function activatedWithEmulator(): Promise<Extension & { emu: RunningEmulator }> {
  const { ext, hooks } = await activated();
  if ((await hooks.keys.get('admin')) !== DEMO.adminKey) await hooks.keys.store('admin', DEMO.adminKey);
  if ((await hooks.keys.get('assistant')) !== DEMO.assistantKey) await hooks.keys.store('assistant', DEMO.assistantKey);
  const emu = await configureForEmulator();
  await waitFor('the jobs of the emulator project to load', () => hooks.agent.current);
  return { ext, hooks, emu };
}

/** Recorded by index.ts before any test could activate the extension. */
export const beforeSuite = { extensionWasActive: undefined as boolean | undefined };

let running: Promise<RunningEmulator> | undefined;

export function emulator(): Promise<RunningEmulator> {
  // Bundled, the emulator's own default for its docs folder points into out/; the extension's
  // folder is the repository.
  running ??= startEmulator({ port: 0, jobDurationMs: 2500, docsDir: path.join(extension().extensionPath, 'test', 'fixtures', 'docs-site') });
  return running;
}

export async function closeEmulator(): Promise<void> {
  const emu = running;
  running = undefined;
  if (emu) await (await emu).close();
}

const SETTINGS = ['baseUrl', 'projectId', 'domain', 'agent.pollIntervalSeconds'] as const;

/** Points the extension at the emulator through its user settings, as a user would. */
export async function configureForEmulator(overrides: Partial<Record<(typeof SETTINGS)[number], unknown>> = {}): Promise<RunningEmulator> {
  const emu = await emulator();
  const values: Record<string, unknown> = { baseUrl: emu.url, projectId: emu.projectId, domain: emu.domain, 'agent.pollIntervalSeconds': 1, ...overrides };
  const cfg = vscode.workspace.getConfiguration('docsAssistant');
  for (const key of SETTINGS) {
    if (cfg.inspect(key)?.globalValue !== values[key]) await cfg.update(key, values[key], vscode.ConfigurationTarget.Global);
  }
  return emu;
}

export async function resetSettings(): Promise<void> {
  const cfg = vscode.workspace.getConfiguration('docsAssistant');
  for (const key of SETTINGS) await cfg.update(key, undefined, vscode.ConfigurationTarget.Global);
}

/** Polls until `probe` returns something truthy; fails naming what it waited for. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > deadline) {
      const why = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${why}`);
    }
    await sleep(100);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Whether a promise is still unsettled after `ms`. */
export async function stillPending(p: Promise<unknown>, ms: number): Promise<boolean> {
  const pending = Symbol('pending');
  const first = await Promise.race([
    p.then(
      () => 'settled' as const,
      () => 'settled' as const,
    ),
    sleep(ms).then(() => pending),
  ]);
  return first === pending;
}

/**
 * Runs a command that opens one of the extension's input boxes and presses Enter in it, the way
 * a user confirms a prefilled value. The extension host cannot type, but it can accept.
 */
export async function runAcceptingInput<T>(command: string, ...args: unknown[]): Promise<T> {
  let settled = false;
  const result = Promise.resolve(vscode.commands.executeCommand<T>(command, ...args)).finally(() => (settled = true));
  const deadline = Date.now() + 15_000;
  while (!settled && Date.now() < deadline) {
    await sleep(250);
    if (!settled) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  }
  if (!settled) throw new Error(`${command} did not finish within 15 s after its input box was accepted.`);
  return result;
}
