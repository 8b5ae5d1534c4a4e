import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import type { RunningEmulator } from '../emulator';
import { packTestOnlyExtension, ROOT, startStack, type Stack, type StackOptions } from './stack';
import type { Workbench } from './workbench';

// VS Code's own Chat view (chat participants, tools, agent mode) in code-server, with no sign-in.
// The bundled Copilot Chat wants a GitHub account for its models and its agent; a test-only
// extension (test/lm-provider, never shipped) stands in for both: a deterministic language model
// made the default, an `@fakeecho` participant, and `@fakeagent`, the default participant of the
// ask/edit/agent modes, standing in for the built-in agent. It needs VS Code >= 1.104
// (lm.registerLanguageModelChatProvider); on older ones `chatViewUnsupported()` says why.
//
//   const e2e = withStack({ chatView: 'required' });   // withStack.ts; in each test: if (e2e.unsupported) skipChatView(this, e2e.unsupported)
//   await openChatView(e2e.wb);
//   await sendInChatView(e2e.wb, '@fakeecho hi');
//   await waitForChatResponse(e2e.wb);
//   const { markdown, buttons, references } = await readChatResponse(e2e.wb);

const LM_PROVIDER = join(ROOT, 'test', 'lm-provider');
export const FAKE_LM_EXTENSION_ID = 'docs-assistant-test.fake-lm';
/** The fake model's id (also its `chat.defaultModel`); keep in step with test/lm-provider/extension.js. */
export const FAKE_MODEL_ID = 'docs-assistant-test-fake-model';
/** The first VS Code whose API lets an extension register a language model. */
export const CHAT_VIEW_MIN_VSCODE: [number, number] = [1, 104];

/** Why the selected code-server cannot run Chat view tests, or undefined when it can. */
export async function chatViewUnsupported(): Promise<string | undefined> {
  const mod = await import('../../scripts/vscode/install-code-server.mjs');
  const target = mod.ensureCodeServerTarget(mod.selectedCodeServerVersion());
  const m = /with Code (\d+)\.(\d+)/.exec(target.printed ?? '');
  if (!m) return `code-server ${target.version} did not say which VS Code it carries (${JSON.stringify(target.printed)}).`;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  const [wantMajor, wantMinor] = CHAT_VIEW_MIN_VSCODE;
  if (major > wantMajor || (major === wantMajor && minor >= wantMinor)) return undefined;
  return (
    `code-server ${target.version} carries VS Code ${m[1]}.${m[2]}: its Chat view needs VS Code >= ${wantMajor}.${wantMinor} ` +
    `for the test-only model (lm.registerLanguageModelChatProvider). Run with DOCS_ASSISTANT_CODE_SERVER=4.139.1.`
  );
}

/** Skips the running test, saying why in the output (a skipped test, not a silent pass). */
export function skipChatView(ctx: Mocha.Context, reason: string): never {
  console.log(`      (skipped: ${reason})`);
  ctx.skip();
}

/** Packs test/lm-provider into a .vsix once per run (vsce, offline; about 1 s). */
export function packTestExtension(): string {
  return packTestOnlyExtension(LM_PROVIDER, 'fake-lm');
}

/** User settings that make the fake model the Chat view's and approve tool runs without a dialog. */
export const CHAT_VIEW_SETTINGS: Record<string, unknown> = {
  'chat.defaultModel': FAKE_MODEL_ID,
  'chat.permissions.default': 'autoApprove',
};

/** The stack options of a Chat view stack: the test extension, its settings and its proposed APIs. */
export function chatViewStackOptions(opts: StackOptions = {}): StackOptions {
  const given = opts.settings;
  return {
    ...opts,
    extraExtensions: [...(opts.extraExtensions ?? []), packTestExtension()],
    codeServerArgs: [...(opts.codeServerArgs ?? []), '--enable-proposed-api', FAKE_LM_EXTENSION_ID],
    settings: (emulator: RunningEmulator) => ({ ...CHAT_VIEW_SETTINGS, ...(typeof given === 'function' ? given(emulator) : given) }),
  };
}

/** startStack with the Chat view ready to send (throws on a VS Code without it: check chatViewUnsupported first). */
export async function startChatViewStack(opts: StackOptions = {}): Promise<Stack> {
  const reason = await chatViewUnsupported();
  if (reason) throw new Error(reason);
  return startStack(chatViewStackOptions(opts));
}

// ---- driving the Chat view ---------------------------------------------------------------------

const INPUT_EDITOR = '.interactive-input-part .interactive-input-editor .monaco-editor';
const RESPONSES = '.interactive-item-container.interactive-response';
const MOST_RECENT = `${RESPONSES}.chat-most-recent-response`;

function chatInput(wb: Workbench): Locator {
  return wb.page.locator(INPUT_EDITOR).first();
}

/** Opens VS Code's Chat view (Chat: Open Chat) and waits until its input shows the fake model. */
export async function openChatView(wb: Workbench, timeout = 30_000): Promise<void> {
  const input = chatInput(wb);
  if (!(await input.isVisible().catch(() => false))) {
    // No click into the workbench first: it would drop an editor selection that a test made to send as context.
    await wb.command('Chat: Open Chat');
    await input.waitFor({ state: 'visible', timeout });
  }
  // The model picker names the fake model once the workbench has resolved its vendor.
  const picker = wb.page.locator('.interactive-input-part .chat-model-label, .interactive-input-part [class*="model-picker"]');
  const deadline = Date.now() + timeout;
  for (;;) {
    const labels = (await picker.allTextContents().catch(() => [])).join(' ');
    if (/Fake LM/.test(labels)) return;
    if (Date.now() > deadline)
      throw new Error(
        `The Chat view's model picker never showed the fake model (it shows ${JSON.stringify(labels)}); sending would fail with "Language model unavailable".`,
      );
    await wb.page.waitForTimeout(200);
  }
}

/** How many request rows on screen show `tail` (the end of a message: its pills aside, the text is plain). */
async function requestsShowing(wb: Workbench, tail: string): Promise<number> {
  return wb.page
    .locator('.interactive-item-container.interactive-request')
    .evaluateAll((rows, t) => rows.filter((r) => (r.textContent ?? '').replace(/\s+/g, ' ').includes(t)).length, tail);
}

/** Types a message into the Chat view's input and sends it; returns once its response has appeared. */
export async function sendInChatView(wb: Workbench, text: string, timeout = 20_000): Promise<void> {
  // The Chat view keeps only the rows on screen in the DOM, and reuses their elements, so neither
  // counting response elements nor marking one tells a new response apart after a few answers.
  // The new request row shows the message: the tests and the bench never send the same one twice.
  const tail = text.replace(/\s+/g, ' ').trim().slice(-16);
  const before = await requestsShowing(wb, tail);
  const input = chatInput(wb);
  await input.click();
  await wb.page.keyboard.press('Control+A');
  await wb.page.keyboard.press('Backspace');
  // Inserted in one go, not typed: typed key by key, the completion list that opens after `@` or
  // `#` can take a later space as "accept" while its first row (`agent`) is still selected,
  // turning `@docs question` into `@agent ` (seen on 1.139 under load).
  await wb.page.keyboard.insertText(text);
  await wb.page.waitForTimeout(200);
  // A completion list (after `@name` or `#tool`) would take Enter for itself.
  const suggest = wb.page.locator('.interactive-input-part .suggest-widget.visible, .monaco-workbench > .suggest-widget.visible');
  if (await suggest.isVisible().catch(() => false)) await wb.page.keyboard.press('Escape');
  await wb.page.keyboard.press('Enter');
  const deadline = Date.now() + timeout;
  while ((await requestsShowing(wb, tail)) <= before || (await wb.page.locator(MOST_RECENT).count()) === 0) {
    if (Date.now() > deadline) {
      const left = await input.textContent().catch(() => '');
      throw new Error(
        `The Chat view did not send ${JSON.stringify(text)}: no new response appeared in ${timeout} ms (the input holds ${JSON.stringify(left)}).`,
      );
    }
    await wb.page.waitForTimeout(100);
  }
}

/** Waits until the most recent response says "Completed" in its footer; fails early on an error. */
export async function waitForChatResponse(wb: Workbench, timeout = 30_000): Promise<Locator> {
  const response = wb.page.locator(MOST_RECENT).last();
  const done = response.locator('.chat-footer-details[aria-label^="Completed"]');
  const deadline = Date.now() + timeout;
  for (;;) {
    if (await done.count().catch(() => 0)) return response;
    const error = (
      await response
        .locator('.chat-error-content, .chat-response-error, .interactive-response-error-details')
        .allTextContents()
        .catch(() => [])
    )
      .join(' ')
      .trim();
    if (error) throw new Error(`The Chat view's response is an error: ${JSON.stringify(error)}`);
    if (Date.now() > deadline) {
      const text = ((await response.textContent().catch(() => '')) ?? '').slice(0, 500);
      throw new Error(`The Chat view's response did not complete within ${timeout} ms. It shows: ${JSON.stringify(text)}`);
    }
    await wb.page.waitForTimeout(100);
  }
}

/** Sends `text` in the Chat view (within `sendTimeout`) and waits for the response to complete. */
export async function askInChatView(wb: Workbench, text: string, sendTimeout?: number): Promise<void> {
  await sendInChatView(wb, text, sendTimeout);
  await waitForChatResponse(wb);
}

export interface ChatResponse {
  /** The rendered markdown's text (textContent: parts folded under "Completed N steps" count too). */
  markdown: string;
  /** The labels of the response's buttons (`stream.button`). */
  buttons: string[];
  /** The labels of its references (expanded from "Used N reference(s)"). */
  references: string[];
}

const wait = (l: Locator, ms: number) => l.page().waitForTimeout(ms);
const texts = async (l: Locator): Promise<string[]> => (await l.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim()).filter(Boolean);

/**
 * Unfolds what VS Code folds in a response: the "Completed N steps" summary (a `<details>`), then
 * each collapsed section in it ("Used N references", "Finished with N steps"), whose lists are
 * rendered only once expanded.
 */
async function unfold(response: Locator): Promise<void> {
  const summary = response.locator('details.completed-response-disclosure:not([open]) > summary');
  if (await summary.count()) {
    // Clicked through the DOM: in a long answer the summary sits above the Chat list's viewport,
    // which Playwright cannot scroll (VS Code's own scrollable element).
    await summary.first().evaluate((e: HTMLElement) => e.click());
    await wait(response, 300); // its content slides open
  }
  const collapsed = response.locator('.chat-used-context-label .monaco-button[aria-expanded="false"]');
  for (let i = 0; i < 10 && (await collapsed.count()); i++) {
    // A section VS Code keeps hidden (a #tool reference's "Used 1 reference" in agent mode) is
    // clicked through the DOM: its list is rendered only once expanded.
    await collapsed.first().evaluate((b: HTMLElement) => b.click());
    await wait(response, 150);
  }
  await wait(response, 500);
}

/**
 * Reads the most recent response: its text, buttons and references (unfolding them). Tool runs
 * are not read: once a response is done, VS Code 1.139 keeps its "Finished with N steps" list
 * empty; what a tool returned shows in what the model answered.
 */
export async function readChatResponse(wb: Workbench): Promise<ChatResponse> {
  const response = wb.page.locator(MOST_RECENT).last();
  // "Completed" can show while the Chat view still renders a long answer in steps (its buttons
  // come last): read once the response has stopped changing for 400 ms (at most 5 s).
  let last = -1;
  for (let i = 0; i < 25; i++) {
    const now = await response.evaluate((r) => r.innerHTML.length).catch(() => -1);
    if (now === last) break;
    last = now;
    await wait(response, 400);
  }
  const markdown = (await response.locator('.chat-markdown-part.rendered-markdown').allTextContents()).join('\n').trim();
  const buttons = await texts(response.locator('.chat-command-button .monaco-button'));
  await unfold(response);
  const section = (label: string) =>
    response.locator('.chat-used-context').filter({ has: wb.page.locator(`.chat-used-context-label .monaco-button[aria-label^="${label}"]`) });
  const references = await texts(section('Used ').locator('.chat-used-context-list .monaco-list-row'));
  return { markdown, buttons, references };
}
