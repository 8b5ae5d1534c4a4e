import assert from 'node:assert/strict';
import { fixDocsThroughReview } from './review';
import { step } from './workbench';
import { withStack } from './withStack';

// Issue 29, Agent Jobs by keyboard: from the palette to a finished job's pull request and its
// actions with keys only, counting them. The issue measured 17 Tabs and 2 arrows to reach the PR
// row, which a screen reader then read as "Open https://…". Here: the view's focus command, then
// arrows; Enter opens; Shift+F10 (the context-menu key) shows the row's actions.

describe('e2e: the Agent Jobs tree by keyboard only', function () {
  const e2e = withStack({ stack: { emulator: { jobDurationMs: 2000 } } });
  const instruction = 'Say that the connect timeout default is 30 s';
  /** Keys pressed since the view was focused, in order. */
  const keys: string[] = [];
  let prNumber = '';

  const pane = () => e2e.wb.page.locator('.pane:has(.pane-header[aria-label*="Agent Jobs"])');
  const press = async (key: string) => {
    keys.push(key);
    await e2e.wb.page.keyboard.press(key);
  };
  /** The row the keyboard is on: the tree has the focus and marks that row `focused`. */
  const focusedRow = async (): Promise<string> => {
    const inTree = await pane().evaluate((p) => !!document.activeElement?.closest('.monaco-list') && p.contains(document.activeElement));
    if (!inTree) {
      const where = await e2e.wb.page.evaluate(() => `${document.activeElement?.tagName}.${document.activeElement?.className}`);
      throw new Error(`The focus is not in the Agent Jobs tree but on ${where}.`);
    }
    return (await pane().locator('.monaco-list-row.focused').getAttribute('aria-label', { timeout: 2000 })) ?? '';
  };
  const waitForFocusedRow = async (name: RegExp, what: string): Promise<string> => {
    const deadline = Date.now() + 5000;
    let label = '';
    while (Date.now() < deadline) {
      label = await focusedRow().catch((e: Error) => e.message);
      if (name.test(label)) return label;
      await e2e.wb.page.waitForTimeout(100);
    }
    assert.match(label, name, `the keyboard should be on ${what}; it is on ${JSON.stringify(label)}`);
    return label;
  };

  before(async function () {
    await step(e2e.wb, 'start a job and let it finish with a pull request', async () => {
      // The extension activates on a docs file and its view: the first command then finds it ready.
      await e2e.wb.openFile('docs/configuration.md');
      await e2e.wb.showDocsAssistant();
      await fixDocsThroughReview(e2e.wb, instruction);
      await e2e.wb.showDocsAssistant();
      await e2e.wb.waitForRowIcon(await e2e.wb.jobRow(/connect timeout default/), 'git-pull-request', 30_000);
      await e2e.wb.dismissNotifications();
      const jobs = e2e.stack.emulator.requests.filter((r) => r.method === 'GET' && /\/job\/[^/]+$/.test(r.path));
      assert.ok(jobs.length > 0, 'the job was polled');
    });
  });

  it('reaches the pull request row with the view focus command, Home, Enter and one arrow; it is named for what it is', async function () {
    await step(e2e.wb, 'focus Agent Jobs from the palette, then Home', async () => {
      // Focus starts in an editor, as a user's would.
      await e2e.wb.openFile('docs/configuration.md');
      await e2e.wb.command('Docs Assistant: Focus on Agent Jobs View');
      await press('Home');
      const job = await waitForFocusedRow(/connect timeout default/i, 'the job');
      assert.match(job, /^Say that the connect timeout default is 30 s, Pull request ready, /, 'the job row says its label, then its status');
    });
    await step(e2e.wb, 'Enter on the job shows it, expanded', async () => {
      // A job that got its pull request while listed keeps the state it had (collapsed, with no
      // children then); Enter runs Show Job, which expands it. → would too, but moves into an
      // already expanded job instead: Enter is the same key either way.
      await press('Enter');
      const deadline = Date.now() + 5000;
      const row = pane().locator('.monaco-list-row.focused');
      while (Date.now() < deadline && (await row.getAttribute('aria-expanded').catch(() => null)) !== 'true') await e2e.wb.page.waitForTimeout(100);
      assert.equal(await row.getAttribute('aria-expanded'), 'true', 'the job is expanded');
      await waitForFocusedRow(/connect timeout default/i, 'the job, after Enter');
    });
    await step(e2e.wb, 'Down: the pull request row, named "Pull request #n: owner/repo"', async () => {
      await press('ArrowDown');
      const name = await waitForFocusedRow(/^Pull request/, 'the pull request row');
      // VS Code adds ", has actions" for a row with inline actions.
      assert.match(name, /^Pull request #\d+: acme\/acme-docs(, has actions)?$/, `the PR row is named ${JSON.stringify(name)}`);
      assert.ok(!/https?:/.test(name), 'the PR row is not named by its address');
      const visible = (await pane().locator('.monaco-list-row.focused .label-name').innerText()).trim();
      assert.ok(name.includes(visible), `the name ${JSON.stringify(name)} contains what is seen, ${JSON.stringify(visible)}`);
      prNumber = /#(\d+)/.exec(name)![1]!;
      await e2e.wb.shot('agent-keyboard-1-pr-row-focused');
    });
  });

  it('Enter on the pull request row opens it, and the keyboard stays on the row', async function () {
    const before = e2e.wb.opened.length;
    await step(e2e.wb, 'Enter', async () => {
      await press('Enter');
      await e2e.wb.waitForPullRequestTab(before);
    });
    await step(e2e.wb, 'the focus is still on the pull request row', async () => {
      await e2e.wb.page.bringToFront();
      await waitForFocusedRow(/^Pull request #\d+/, 'the pull request row, after it opened');
    });
  });

  it('Shift+F10 on the pull request row shows its actions; Copy Pull Request Link copies it', async function () {
    const menu = e2e.wb.page.locator('.context-view.monaco-menu-container');
    const focusedItem = () => menu.locator('.action-item.focused .action-label').innerText({ timeout: 2000 });
    await step(e2e.wb, 'Shift+F10 opens the context menu', async () => {
      await e2e.wb.page.evaluate((s) => navigator.clipboard.writeText(s), '(nothing copied)');
      await press('Shift+F10');
      await menu.waitFor({ state: 'visible', timeout: 5000 });
      const items = (await menu.locator('.action-item:not(.disabled) .action-label').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
      assert.deepEqual(items, ['Open Pull Request', 'Copy Pull Request Link']);
      await e2e.wb.shot('agent-keyboard-2-pr-context-menu');
    });
    await step(e2e.wb, 'arrows to Copy Pull Request Link, Enter', async () => {
      for (let i = 0; i < 3 && (await focusedItem().catch(() => '')) !== 'Copy Pull Request Link'; i++) await press('ArrowDown');
      assert.equal(await focusedItem(), 'Copy Pull Request Link');
      await press('Enter');
      await menu.waitFor({ state: 'hidden', timeout: 5000 });
    });
    await step(e2e.wb, 'the link is on the clipboard and the keyboard is back on the row', async () => {
      const deadline = Date.now() + 5000;
      let copied = '';
      // The emulator's link: its own address, then /pr/<owner>/<repo>/pull/<n>.
      const link = new RegExp(`^http://[^/]+/pr/acme/acme-docs/pull/${prNumber}$`);
      while (Date.now() < deadline && !link.test(copied)) {
        copied = await e2e.wb.page.evaluate(() => navigator.clipboard.readText());
        await e2e.wb.page.waitForTimeout(100);
      }
      assert.match(copied, link);
      await waitForFocusedRow(/^Pull request #\d+/, 'the pull request row, after its menu closed');
    });
  });

  it("Shift+F10 on the job row shows the job's actions, none of them only on hover; Escape goes back", async function () {
    const menu = e2e.wb.page.locator('.context-view.monaco-menu-container');
    await step(e2e.wb, 'Up, Shift+F10', async () => {
      await press('ArrowUp');
      await waitForFocusedRow(/connect timeout default/i, 'the job');
      await press('Shift+F10');
      await menu.waitFor({ state: 'visible', timeout: 5000 });
      const items = (await menu.locator('.action-item:not(.disabled) .action-label').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
      // The inline (hover) actions of the row, Send Follow-up… and Open Pull Request, are here too.
      assert.deepEqual(items, ['Send Follow-up…', 'Open Pull Request', 'Copy Pull Request Link', 'Copy Job ID', 'Remove from List']);
      await press('Escape');
      await menu.waitFor({ state: 'hidden', timeout: 5000 });
      await waitForFocusedRow(/connect timeout default/i, 'the job, after its menu closed');
    });
  });

  after(function () {
    // The count, against the 17 Tabs and 2 arrows to the PR row alone.
    console.log(`      keys after "Focus on Agent Jobs View": ${keys.length} (${keys.join(', ')})`);
  });
});
