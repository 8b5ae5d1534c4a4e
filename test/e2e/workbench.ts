import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Frame, Locator, Page } from 'playwright-core';
import { launchChromium } from '../chromium.mjs';
import type { RecordedRequest } from '../emulator';
import { CODE_SERVER_TARGET, ROOT, type Stack } from './stack';

// Drives code-server's workbench the way a user does: the command palette, input boxes,
// notifications, the Agent Jobs tree and the chat webview. Every helper fails with a message
// that says what it was waiting for.

// A run on another code-server than the default keeps its screenshots apart.
export const SHOTS = join(ROOT, 'test-results', CODE_SERVER_TARGET === '4.100.3' ? 'e2e' : `e2e-code-server-${CODE_SERVER_TARGET}`);
const SIDEBAR = '[id="workbench.view.extension.docsAssistant"]';
/**
 * The element of a code editor that takes the keyboard: VS Code 1.100's `textarea.inputarea`, or
 * in 1.139 (EditContext) the `.native-edit-context` div. 1.139 also has a `textarea.ime-text-area`,
 * which takes focus but not the editor's copy or select-all.
 */
export const EDITOR_INPUT = '.native-edit-context, textarea.inputarea';

let browser: Browser | undefined;

/** What each closed workbench kept in the browser, for the secrets scan. */
export const browserStorageDumps: string[] = [];

export async function sharedBrowser(): Promise<Browser> {
  browser ??= await launchChromium();
  return browser;
}

export async function closeBrowser(): Promise<void> {
  await browser?.close();
  browser = undefined;
}

/** What an e2e's after() closes: its page, the shared browser, then its stack. */
export async function closeAll(wb: Workbench | undefined, stack: Stack | undefined): Promise<void> {
  await wb?.close();
  await closeBrowser();
  await stack?.close();
}

export class Workbench {
  /** Pages the workbench opened through openExternal (window.open). */
  readonly opened: string[] = [];

  private constructor(
    readonly page: Page,
    private readonly context: BrowserContext,
    private readonly stack: Stack,
  ) {}

  /**
   * Waits (10 s at most) until a page opened since `since` (an index into `opened`) shows one of
   * the emulator's pull requests, confirming VS Code's "open this external link?" dialog if it asks
   * (it trusts loopback links; for any other host it asks first, and our code never bypasses it).
   * code-server hands loopback links to its own port proxy (/proxy/<port>/), keeping the port and
   * dropping the path, so the tab shows either the PR itself or the proxy of the emulator's port.
   */
  async waitForPullRequestTab(since: number): Promise<void> {
    await this.waitForEmulatorTab(since, '/pull/', 'the PR');
  }

  /** As waitForPullRequestTab, for a page of the emulator whose address holds `pathPart`. */
  async waitForEmulatorTab(since: number, pathPart: string, what: string): Promise<void> {
    const emulatorPort = new URL(this.stack.emulator.url).port;
    const isTab = (u: string) => u.includes(pathPart) || u.includes(`/proxy/${emulatorPort}/`);
    const dialog = this.page.locator('.monaco-dialog-box');
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !this.opened.slice(since).some(isTab)) {
      if (await dialog.isVisible().catch(() => false))
        await dialog
          .locator('.monaco-button', { hasText: /^Open$/ })
          .first()
          .click();
      await this.page.waitForTimeout(100);
    }
    assert.ok(this.opened.slice(since).some(isTab), `a browser tab should open ${what}; opened: ${JSON.stringify(this.opened.slice(since))}`);
  }

  static async open(stack: Stack): Promise<Workbench> {
    const b = await sharedBrowser();
    const context = await b.newContext({ viewport: { width: 1400, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(stack.url).origin });
    // tsx compiles this file with esbuild's keepNames, which wraps functions in __name(); the
    // functions handed to page.evaluate need that helper in the page too.
    await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    const page = await context.newPage();
    const wb = new Workbench(page, context, stack);
    context.on('page', (p) => {
      wb.opened.push(p.url());
      p.on('framenavigated', (f) => {
        if (f === p.mainFrame()) wb.opened.push(f.url());
      });
    });
    await page.goto(stack.url, { waitUntil: 'commit' });
    await wb.waitForWorkbench();
    return wb;
  }

  /**
   * Navigations wait only for the server's answer ('commit'): the workbench's own signals below
   * bound its start, where the page's `load` within playwright's 30 s would be a guess at the
   * machine's speed.
   */
  async waitForWorkbench(): Promise<void> {
    await this.page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    // The extension host and our extension have started once its views are contributed.
    await this.page.waitForSelector('.activitybar [aria-label^="Docs Assistant"]', { timeout: 60_000 });
  }

  async reload(): Promise<void> {
    await this.page.reload({ waitUntil: 'commit' });
    await this.waitForWorkbench();
  }

  async close(): Promise<void> {
    browserStorageDumps.push(await this.dumpBrowserStorage().catch((e) => `(could not read browser storage: ${String(e)})`));
    await this.context.close();
  }

  /** Everything the workbench keeps in the browser: localStorage and every IndexedDB record. */
  private dumpBrowserStorage(): Promise<string> {
    return this.page.evaluate(async () => {
      const out: string[] = [];
      const text = (v: unknown): string =>
        v instanceof Uint8Array || v instanceof ArrayBuffer ? new TextDecoder().decode(v) : typeof v === 'string' ? v : JSON.stringify(v);
      for (let i = 0; i < localStorage.length; i++) {
        const k = localStorage.key(i)!;
        out.push(`localStorage ${k} = ${localStorage.getItem(k)}`);
      }
      for (const info of await indexedDB.databases()) {
        const db = await new Promise<IDBDatabase>((res, rej) => {
          const r = indexedDB.open(info.name!);
          r.onsuccess = () => res(r.result);
          r.onerror = () => rej(r.error);
        });
        for (const store of Array.from(db.objectStoreNames)) {
          const [keys, values] = await Promise.all(
            ['getAllKeys', 'getAll'].map(
              (m) =>
                new Promise<unknown[]>((res, rej) => {
                  const r = (db.transaction(store).objectStore(store) as unknown as Record<string, () => IDBRequest<unknown[]>>)[m]!();
                  r.onsuccess = () => res(r.result);
                  r.onerror = () => rej(r.error);
                }),
            ),
          );
          keys!.forEach((k, i) => out.push(`indexedDB ${info.name}/${store} ${text(k)} = ${text(values![i])}`));
        }
        db.close();
      }
      return out.join('\n');
    });
  }

  async shot(name: string): Promise<string> {
    mkdirSync(SHOTS, { recursive: true });
    const path = join(SHOTS, `${name}.png`);
    await this.page.screenshot({ path });
    return path;
  }

  /**
   * Escape only when a quick input is open and has the focus: in an editor, Escape would drop the
   * selection. VS Code 1.139 keeps a quick input on screen for a moment after Enter, with the focus
   * already back in the editor; wait for it to go.
   */
  private async closeQuickInput(): Promise<void> {
    if (!(await this.quickInput.isVisible().catch(() => false))) return;
    const focused = await this.page.evaluate(() => !!document.activeElement?.closest('.quick-input-widget')).catch(() => false);
    if (focused) await this.page.keyboard.press('Escape');
    if (
      await this.quickInput.waitFor({ state: 'hidden', timeout: 2000 }).then(
        () => true,
        () => false,
      )
    )
      return;
    // Still open without the focus (an input box that stays open on focus out): close it from inside.
    await this.quickInput
      .locator('input')
      .press('Escape', { timeout: 1000 })
      .catch(() => undefined);
  }

  private get quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  /** Runs a palette command by its exact title ("Docs Assistant: Fix Docs with Agent…"). */
  async command(title: string): Promise<void> {
    await this.closeQuickInput();
    const input = this.quickInput.locator('input');
    const rows = this.quickInput.locator('.monaco-list-row');
    // The palette runs its focused row, the first one, unless the arrow keys move it: find this
    // command's row before pressing Enter (a recently used command can stand above it). A row's
    // aria-label is the title, or "title, keybinding"; a bare prefix match would take "Ask Docs
    // About Selection" for "Ask Docs".
    const isThisCommand = (label: string) => label === title || label.startsWith(`${title}, `);
    const deadline = Date.now() + 30_000;
    let labels: string[] = [];
    for (;;) {
      // A view the extension reveals (a started job shows Agent Jobs) can take the focus and
      // close the palette at any moment; then open it again rather than type into nothing.
      if (!(await input.isVisible().catch(() => false))) await this.openPalette();
      const typed = await input.fill(`>${title}`, { timeout: 2000 }).then(
        () => true,
        () => false,
      );
      const retypeAt = Date.now() + 3000;
      let index = -1;
      while (typed && Date.now() < retypeAt) {
        labels = await rows.evaluateAll((els) => els.map((e) => (e.getAttribute('aria-label') ?? '').trim())).catch(() => []);
        index = labels.findIndex(isThisCommand);
        if (index >= 0) break;
        await this.page.waitForTimeout(100);
      }
      let ready = index >= 0;
      for (let i = 0; ready && i < index; i++)
        ready = await input.press('ArrowDown', { timeout: 1000 }).then(
          () => true,
          () => false,
        );
      const focused = ready
        ? (
            (await this.quickInput
              .locator('.monaco-list-row.focused')
              .first()
              .getAttribute('aria-label', { timeout: 500 })
              .catch(() => null)) ?? ''
          ).trim()
        : '';
      if (
        isThisCommand(focused) &&
        (await input.press('Enter', { timeout: 1000 }).then(
          () => true,
          () => false,
        ))
      )
        return;
      if (Date.now() > deadline)
        throw new Error(
          `The command palette has no row "${title}" (its rows: ${JSON.stringify(labels.slice(0, 5))}); the command is missing or its title changed.`,
        );
      // Right after a (re)load the extension's commands arrive late: a reopened palette lists them.
      await this.closeQuickInput();
    }
  }

  /** A key press that lands while focus moves (an input box closing, a view revealed) is lost: press again. */
  private async openPalette(): Promise<void> {
    const input = this.quickInput.locator('input');
    for (let tries = 1; ; tries++) {
      await this.page.keyboard.press('Control+Shift+P');
      if (
        await input.waitFor({ state: 'visible', timeout: 2000 }).then(
          () => true,
          () => false,
        )
      )
        return;
      if (tries === 5) throw new Error('The command palette did not open on Ctrl+Shift+P (5 tries, 10 s).');
    }
  }

  /** Waits for an input box or quick pick whose prompt/title matches, and returns its text. */
  async waitForQuickInput(matching: RegExp, timeout = 15_000): Promise<string> {
    const deadline = Date.now() + timeout;
    for (;;) {
      const visible = await this.quickInput.isVisible().catch(() => false);
      const text = visible ? await this.quickInput.innerText().catch(() => '') : '';
      if (matching.test(text)) return text;
      if (Date.now() > deadline) throw new Error(`No input box matching ${matching} appeared. Quick input shows: ${JSON.stringify(text.slice(0, 300))}`);
      await this.page.waitForTimeout(100);
    }
  }

  async typeIntoQuickInput(text: string, opts: { enter?: boolean } = {}): Promise<void> {
    const input = this.quickInput.locator('input');
    await input.fill(text);
    if (opts.enter ?? true) await input.press('Enter');
  }

  async quickInputMessage(): Promise<string> {
    return (
      await this.quickInput
        .locator('.quick-input-message')
        .innerText()
        .catch(() => '')
    ).trim();
  }

  async pickQuickItem(label: RegExp): Promise<void> {
    const row = this.quickInput.locator('.monaco-list-row', { hasText: label }).first();
    await row.waitFor({ state: 'visible', timeout: 10_000 });
    await row.click();
  }

  /** The toast whose text matches; it stays found even after later toasts arrive. */
  async notification(matching: RegExp, timeout = 20_000): Promise<Locator> {
    const toast = this.page.locator('.notification-toast-container .notification-list-item', { hasText: matching }).first();
    try {
      await toast.waitFor({ state: 'visible', timeout });
    } catch {
      const all = await this.page.locator('.notification-list-item').allInnerTexts();
      throw new Error(`No notification matching ${matching} within ${timeout} ms. Shown: ${JSON.stringify(all)}`);
    }
    return toast;
  }

  async clickNotificationButton(toast: Locator, label: string): Promise<void> {
    await toast.hover();
    await toast.locator('.monaco-button', { hasText: label }).first().click();
  }

  async dismissNotifications(): Promise<void> {
    await this.page.evaluate(() =>
      document
        .querySelectorAll<HTMLElement>('.notification-toast-container .codicon-notifications-clear, .notification-toast-container .codicon-close')
        .forEach((b) => b.click()),
    );
  }

  /** Opens a workspace file with Quick Open. */
  async openFile(relativePath: string): Promise<void> {
    await this.closeQuickInput();
    await this.page.keyboard.press('Control+P');
    const input = this.quickInput.locator('input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(relativePath);
    const base = relativePath.split('/').pop()!;
    await this.quickInput.locator('.monaco-list-row', { hasText: base }).first().waitFor({ timeout: 10_000 });
    await input.press('Enter');
    await this.page.locator(`.tabs-container .tab[aria-label^="${base}"]`).first().waitFor({ timeout: 10_000 });
    await this.page.locator('.editor-instance .monaco-editor .view-lines').first().waitFor();
  }

  /** Selects whole lines [from, to] (1-based, inclusive) in the active editor. */
  async selectLines(from: number, to: number): Promise<void> {
    const editor = this.page.locator(`.editor-instance .monaco-editor :is(${EDITOR_INPUT})`).first();
    await editor.focus();
    await this.page.keyboard.press('Control+G');
    await this.quickInput.locator('input').fill(`:${from}`);
    await this.page.keyboard.press('Enter');
    await this.page.keyboard.press('Home');
    await this.page.keyboard.press('Home');
    for (let i = from; i < to; i++) await this.page.keyboard.press('Shift+ArrowDown');
    await this.page.keyboard.press('Shift+End');
  }

  /** Opens a workspace file and selects its lines [from, to] (1-based, inclusive). */
  async selectLinesIn(relativePath: string, from: number, to: number): Promise<void> {
    await this.openFile(relativePath);
    await this.selectLines(from, to);
  }

  /** Shows the Docs Assistant side bar (a command, not the activity bar icon, which toggles). */
  async showDocsAssistant(): Promise<void> {
    const sidebar = this.page.locator(SIDEBAR);
    if (await sidebar.isVisible().catch(() => false)) return;
    await this.command('Docs Assistant: Focus on Agent Jobs View');
    await sidebar.waitFor({ state: 'visible', timeout: 10_000 });
  }

  /** Kills the extension host process, as a crash would, and waits for VS Code to start a new one. */
  async killExtensionHost(): Promise<void> {
    const pids = [...this.stack.output().matchAll(/<(\d+)> Launched Extension Host Process/g)].map((m) => Number(m[1]));
    const pid = pids.at(-1);
    if (!pid) throw new Error('code-server has not said which process is the extension host.');
    process.kill(pid, 'SIGKILL');
    const deadline = Date.now() + 30_000;
    const launches = () => [...this.stack.output().matchAll(/<(\d+)> Launched Extension Host Process/g)].length;
    while (launches() <= pids.length) {
      if (Date.now() > deadline) throw new Error(`VS Code did not start a new extension host within 30 s after process ${pid} was killed.`);
      await this.page.waitForTimeout(100);
    }
  }

  /** Rows of the Agent Jobs tree (`aria-label` holds the full label, even when the row is cut). */
  jobRows(): Locator {
    return this.page.locator(`${SIDEBAR} .pane:has(.pane-header[aria-label*="Agent Jobs"]) .monaco-list-row`);
  }

  async jobRow(matching: RegExp, timeout = 20_000): Promise<Locator> {
    const row = this.jobRows().filter({ hasText: matching }).first();
    try {
      await row.waitFor({ state: 'visible', timeout });
    } catch {
      throw new Error(`No Agent Jobs row matching ${matching}. Rows: ${JSON.stringify(await this.jobRows().allInnerTexts())}`);
    }
    return row;
  }

  /** Waits until the row shows `codicon-<icon>` (its status). */
  async waitForRowIcon(row: Locator, icon: string, timeout = 30_000): Promise<void> {
    try {
      // The item's own icon, not an inline action's (Open PR shows a git-pull-request icon too).
      await row.locator(`.custom-view-tree-node-item-icon.codicon-${icon}`).first().waitFor({ state: 'attached', timeout });
    } catch {
      const cls = await row
        .locator('.custom-view-tree-node-item-icon')
        .first()
        .getAttribute('class')
        .catch(() => '?');
      throw new Error(`The job row never showed the ${icon} icon; it shows "${cls}" (${await row.innerText()}).`);
    }
  }

  async contextMenu(row: Locator, item: string): Promise<void> {
    const menu = this.page.locator('.context-view.monaco-menu-container');
    if (await menu.isVisible().catch(() => false)) await this.page.keyboard.press('Escape');
    await row.click({ button: 'right' });
    const entry = menu.locator('.action-item:not(.disabled) .action-label', { hasText: item }).first();
    try {
      await entry.waitFor({ state: 'visible', timeout: 5000 });
    } catch {
      const items = await menu.locator('.action-item').allInnerTexts();
      throw new Error(`The context menu has no "${item}": ${JSON.stringify(items)}`);
    }
    // Monaco's menu ignores a click that lands right after it opened; hover + Enter is what a
    // keyboard user does and is reliable.
    await entry.hover();
    await this.page.keyboard.press('Enter');
    await menu.waitFor({ state: 'hidden', timeout: 5000 });
  }

  /** The frame that holds the chat webview's content (VS Code nests it in host iframes). */
  async chatFrame(timeout = 20_000): Promise<Frame> {
    const deadline = Date.now() + timeout;
    for (;;) {
      for (const f of this.page.frames()) {
        if (f === this.page.mainFrame()) continue;
        if (
          await f
            .locator('#app.app')
            .count()
            .catch(() => 0)
        )
          return f;
      }
      if (Date.now() > deadline) throw new Error('The chat webview did not load (no frame holds #app).');
      await this.page.waitForTimeout(200);
    }
  }

  /** The chat, once its composer shows the one chip naming `chip` (what Ask Docs About Selection attached). */
  async chatWithChip(chip: string, timeout = 10_000): Promise<Frame> {
    const frame = await this.chatFrame();
    await frame.locator('.composer .chip', { hasText: chip }).waitFor({ timeout });
    return frame;
  }

  async openChat(): Promise<Frame> {
    await this.command('Docs Assistant: Ask Docs');
    const frame = await this.chatFrame();
    await frame.waitForSelector('#app[aria-busy="false"]', { timeout: 20_000 });
    return frame;
  }

  /** Sends a question and waits for its turn to appear, so later waits look at the new answer. */
  async ask(frame: Frame, question: string): Promise<void> {
    // While an answer streams, Enter does not send; a slow machine may still be finishing one.
    await frame
      .locator('button.send[aria-label="Send"]')
      .waitFor({ state: 'attached', timeout: 20_000 })
      .catch(() => {
        throw new Error('The composer stayed busy with an earlier answer for 20 s.');
      });
    const turns = await frame.locator('.turn').count();
    const box = frame.locator('textarea').first();
    await box.fill(question);
    await box.press('Enter');
    try {
      await frame.locator('.turn').nth(turns).waitFor({ state: 'attached', timeout: 10_000 });
    } catch {
      throw new Error(
        `The question was not sent: no new turn appeared (composer says ${JSON.stringify(
          await frame
            .locator('.composer')
            .innerText()
            .catch(() => ''),
        )}).`,
      );
    }
  }

  /** The last turn, once its answer has this status (`done`, `stopped`, `error`). */
  async waitForAnswer(frame: Frame, status: string, timeout = 30_000): Promise<Locator> {
    const turn = frame.locator('.turn').last();
    const deadline = Date.now() + timeout;
    for (;;) {
      const now = await turn.getAttribute('data-status').catch(() => null);
      if (now === status) return turn;
      if (Date.now() > deadline)
        throw new Error(
          `The last answer never reached "${status}" (it is "${now}"). It shows: ${JSON.stringify((await turn.innerText().catch(() => '')).slice(0, 400))}`,
        );
      await frame.page().waitForTimeout(100);
    }
  }

  /** Requests the emulator received on a path, newest last. */
  requests(pathPart: string): RecordedRequest[] {
    return this.stack.emulator.requests.filter((r) => r.path.includes(pathPart));
  }
}

/** Runs one named step; a failure says which step it was and keeps a screenshot of it. */
export async function step<T>(wb: Workbench | undefined, name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const shot = wb ? await wb.shot(`FAILED-${name.replace(/[^\w-]+/g, '-')}`).catch(() => '') : '';
    const err = new Error(`Step "${name}" failed: ${e instanceof Error ? e.message : String(e)}${shot ? `\n(screenshot: ${shot})` : ''}`);
    (err as Error & { cause?: unknown }).cause = e;
    throw err;
  }
}
