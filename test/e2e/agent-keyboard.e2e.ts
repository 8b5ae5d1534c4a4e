import assert from 'node:assert/strict';
import { clickReviewAction, fixDocsThroughReview, SEND, waitForReview } from './review';
import { step } from './workbench';
import { withStack } from './withStack';

// Issue 29, Agent Jobs by keyboard: from the palette to a finished job's pull request and its
// actions with keys only, counting them. The issue measured 17 Tabs and 2 arrows to reach the PR
// row, which a screen reader then read as "Open https://…". Here: the view's focus command, then
// arrows; Enter opens; Shift+F10 (the context-menu key) shows the row's actions. Issue 30: the
// job's children are its timeline, oldest first (the prompt, the completion, the pull request),
// each row named for what it shows and when, and Follow Up… is on its newest entry.

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

  it('reaches the pull request row with the view focus command, Home, Enter and three arrows down the timeline; each row is named for what it is', async function () {
    await step(e2e.wb, 'focus Agent Jobs from the palette, then Home', async () => {
      // Focus starts in an editor, as a user's would.
      await e2e.wb.openFile('docs/configuration.md');
      await e2e.wb.command('Docs Assistant: Focus on Agent Jobs View');
      await press('Home');
      const job = await waitForFocusedRow(/connect timeout default/i, 'the job');
      assert.match(job, /^Say that the connect timeout default is 30 s, Pull request ready, /, 'the job row says its label, then its status');
    });
    await step(e2e.wb, 'Enter on the job shows it, expanded', async () => {
      // A job that got its pull request while listed keeps the state it had (collapsed, with only
      // its prompt then); Enter runs Show Job, which expands it. → would too, but moves into an
      // already expanded job instead: Enter is the same key either way.
      await press('Enter');
      const deadline = Date.now() + 5000;
      const row = pane().locator('.monaco-list-row.focused');
      while (Date.now() < deadline && (await row.getAttribute('aria-expanded').catch(() => null)) !== 'true') await e2e.wb.page.waitForTimeout(100);
      assert.equal(await row.getAttribute('aria-expanded'), 'true', 'the job is expanded');
      await waitForFocusedRow(/connect timeout default/i, 'the job, after Enter');
    });
    await step(e2e.wb, 'Down: the prompt, named by its text, then "prompt" and when, its time shown', async () => {
      await press('ArrowDown');
      const name = await waitForFocusedRow(/, prompt, /, 'the prompt entry');
      assert.match(name, /^Say that the connect timeout default is 30 s, prompt, sent (just now|\d+m ago)$/);
      const when = (await pane().locator('.monaco-list-row.focused .label-description').innerText()).trim();
      assert.match(when, /^(just now|\d+m ago)$/, 'the time is on the row');
      assert.ok(name.endsWith(when), `the name ${JSON.stringify(name)} says the time shown, ${JSON.stringify(when)}`);
    });
    await step(e2e.wb, 'Down: the completion the poll saw', async () => {
      await press('ArrowDown');
      assert.match(await waitForFocusedRow(/^Completed, /, 'the status entry'), /^Completed, status, (just now|\d+m ago)$/);
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

  it('Shift+F10 on the pull request row, the newest entry, shows its actions and Follow Up…; Copy Pull Request Link copies it', async function () {
    const menu = e2e.wb.page.locator('.context-view.monaco-menu-container');
    const focusedItem = () => menu.locator('.action-item.focused .action-label').innerText({ timeout: 2000 });
    await step(e2e.wb, 'Shift+F10 opens the context menu', async () => {
      await e2e.wb.page.evaluate((s) => navigator.clipboard.writeText(s), '(nothing copied)');
      await press('Shift+F10');
      await menu.waitFor({ state: 'visible', timeout: 5000 });
      const items = (await menu.locator('.action-item:not(.disabled) .action-label').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
      assert.deepEqual(items, ['Send Follow-up…', 'Open Pull Request', 'Copy Pull Request Link']);
      await e2e.wb.shot('agent-keyboard-2-pr-context-menu');
    });
    await step(e2e.wb, 'arrows to Copy Pull Request Link, Enter', async () => {
      for (let i = 0; i < 4 && (await focusedItem().catch(() => '')) !== 'Copy Pull Request Link'; i++) await press('ArrowDown');
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
    await step(e2e.wb, 'Home, Shift+F10', async () => {
      await press('Home');
      await waitForFocusedRow(/connect timeout default/i, 'the job');
      await press('Shift+F10');
      await menu.waitFor({ state: 'visible', timeout: 5000 });
      const items = (await menu.locator('.action-item:not(.disabled) .action-label').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
      // The inline (hover) actions of the row, Send Follow-up… and Open Pull Request, are here too;
      // a finished job with a branch also offers its preview, the review of its changes and its checkout (issue 30).
      assert.deepEqual(items, [
        'Send Follow-up…',
        'Open Pull Request',
        'Open Preview',
        'Review Changes',
        'Check Out Agent Branch',
        'Copy Pull Request Link',
        'Copy Job ID',
        'Remove from List',
      ]);
      await press('Escape');
      await menu.waitFor({ state: 'hidden', timeout: 5000 });
      await waitForFocusedRow(/connect timeout default/i, 'the job, after its menu closed');
    });
  });

  it('Follow Up… from the newest entry by keyboard: the follow-up, then what it brought, join the timeline in order', async function () {
    const menu = e2e.wb.page.locator('.context-view.monaco-menu-container');
    const followUp = 'Also say it in the FAQ';
    /** The names of the job's rows below it, as a screen reader gets them. */
    const timeline = async () => {
      const names = await pane()
        .locator('.monaco-list-row')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? ''));
      return names.slice(1).map((n) => n.replace(/, has actions$/, ''));
    };
    await step(e2e.wb, 'End: the newest entry, the pull request; Shift+F10, Send Follow-up…', async () => {
      await press('End');
      await waitForFocusedRow(/^Pull request #\d+/, 'the newest entry');
      await press('Shift+F10');
      await menu.waitFor({ state: 'visible', timeout: 5000 });
      for (
        let i = 0;
        i < 4 &&
        (await menu
          .locator('.action-item.focused .action-label')
          .innerText({ timeout: 2000 })
          .catch(() => '')) !== 'Send Follow-up…';
        i++
      )
        await press('ArrowDown');
      await press('Enter');
      await e2e.wb.waitForQuickInput(/follow-up/i);
      await e2e.wb.typeIntoQuickInput(followUp);
      await waitForReview(e2e.wb);
      await clickReviewAction(e2e.wb, SEND, 'keyboard');
      // The review closes, then the follow-up goes out (with its progress notification).
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && e2e.wb.requests('/message').length === 0) await e2e.wb.page.waitForTimeout(100);
      const sent = e2e.wb.requests('/message');
      assert.equal(sent.length, 1);
      assert.equal((sent[0]!.body as { prompt: string }).prompt, followUp);
    });
    await step(e2e.wb, 'the timeline has the follow-up and Working, then the completion, in order', async () => {
      await e2e.wb.showDocsAssistant();
      const when = '(just now|\\d+m ago)';
      const expected = [
        `^Say that the connect timeout default is 30 s, prompt, sent ${when}$`,
        `^Completed, status, ${when}$`,
        '^Pull request #\\d+: acme/acme-docs$',
        `^${followUp}, follow-up, sent ${when}$`,
        `^Working, status, ${when}$`,
        `^Completed, status, ${when}$`,
      ].map((re) => new RegExp(re));
      const deadline = Date.now() + 30_000;
      let names = await timeline();
      while (Date.now() < deadline && !(names.length === expected.length && names.every((n, i) => expected[i]!.test(n)))) {
        await e2e.wb.page.waitForTimeout(250);
        names = await timeline();
      }
      assert.equal(names.length, expected.length, `the timeline reads ${JSON.stringify(names)}`);
      names.forEach((n, i) => assert.match(n, expected[i]!, `entry ${i + 1} of ${JSON.stringify(names)}`));
      await e2e.wb.shot('agent-keyboard-3-timeline-after-follow-up');
    });
  });

  after(function () {
    // The count, against the 17 Tabs and 2 arrows to the PR row alone.
    console.log(`      keys after "Focus on Agent Jobs View": ${keys.length} (${keys.join(', ')})`);
  });
});
