import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { openChatView, readChatResponse, sendInChatView, skipChatView, waitForChatResponse } from './chatView';
import { CANCEL, clickReviewAction, waitForReview } from './review';
import { step, type Workbench } from './workbench';
import { withStack } from './withStack';

// Delegating from any chat (issue 30 §4), in a real VS Code against the emulator: agent mode (the
// test-only stand-in agent, test/lm-provider, which runs the tool loop the built-in one does)
// calls #fixDocs; VS Code shows the tool's confirmation with the exact prompt, nothing leaves
// before Allow, and the job the emulator receives carries that prompt and appears in Agent Jobs.
// @docs /fix goes through the same tool and the same confirmation. Tool runs are confirmed here
// as a user's are: this suite turns the Chat view stacks' auto-approval off. On VS Code 1.100
// (no Chat view model) only the last test runs: the extension activates with the chat
// contributions in its manifest, and the palette's way to start a job is unchanged.

interface JobBody {
  prompt: string;
}

const TITLE = 'Send this prompt to the docs agent?';

/** Text as the Chat view lays it out: runs of whitespace as one space. */
const flat = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** #fixDocs's confirmation, once it shows (VS Code 1.139 shows it above the chat's input box). */
async function confirmation(wb: Workbench, timeout = 30_000): Promise<Locator> {
  const widget = wb.page
    .locator('.chat-confirmation-widget-container, .chat-confirmation-widget, .chat-confirmation-widget2')
    .filter({ hasText: TITLE })
    .last();
  try {
    await widget.waitFor({ state: 'visible', timeout });
  } catch {
    const shown = (
      await wb.page
        .locator('.interactive-session')
        .last()
        .innerText()
        .catch(() => '')
    ).slice(0, 500);
    throw new Error(`No "${TITLE}" confirmation appeared; the chat shows ${JSON.stringify(shown)}`);
  }
  return widget;
}

/** Skip: the confirmation's secondary button. */
async function skip(widget: Locator): Promise<void> {
  const button = widget
    .locator('.monaco-button')
    .filter({ hasText: /^\s*Skip\s*$/ })
    .first();
  try {
    await button.click({ timeout: 5000 });
  } catch {
    throw new Error(`No Skip button in the confirmation; it has ${JSON.stringify(await widget.locator('.monaco-button').allInnerTexts())}`);
  }
}

/**
 * Allow Once, from the primary button's menu: the button itself allows the tool for the whole chat
 * session, and each call here must ask.
 */
async function allowOnce(wb: Workbench, widget: Locator): Promise<void> {
  await widget.locator('.monaco-button-dropdown .monaco-dropdown-button').first().click({ timeout: 5000 });
  const item = wb.page
    .locator('.monaco-menu-container .action-label, .action-widget .action-list-item, [role="menuitem"], [role="option"]')
    .filter({ hasText: /^\s*Allow Once\s*$/ })
    .first();
  try {
    await item.waitFor({ state: 'visible', timeout: 5000 });
    await wb.page.waitForTimeout(300); // the menu settles (a click while it lays out was lost once)
    await item.click({ timeout: 5000 });
    await item.waitFor({ state: 'hidden', timeout: 2000 }).catch(() => wb.page.keyboard.press('Enter')); // it is the focused first item
  } catch {
    const menus = await wb.page.locator('.monaco-menu-container, .action-widget, [role="menu"], [role="listbox"]').allInnerTexts();
    throw new Error(`No "Allow Once" in the Allow button's menu; menus on screen: ${JSON.stringify(menus)}`);
  }
}

describe('e2e: delegate a doc fix from VS Code’s Chat (#fixDocs, @docs /fix)', function () {
  const e2e = withStack({ chatView: 'where-supported', stack: { settings: { 'chat.permissions.default': 'default' } } });
  const created = () => e2e.wb.requests('/job').filter((r) => r.method === 'POST' && !r.path.includes('/message'));

  it('agent mode: the confirmation shows the exact prompt, nothing is sent before Allow, then the job is in Agent Jobs (VS Code >= 1.104)', async function () {
    if (e2e.unsupported) skipChatView(this, e2e.unsupported);
    const before = created().length;
    const widget = await step(e2e.wb, 'agent mode calls #fixDocs', async () => {
      await openChatView(e2e.wb);
      await sendInChatView(e2e.wb, 'use #fixDocs to say that the connect timeout default is 30 seconds');
      return confirmation(e2e.wb);
    });
    const shown = flat(await widget.innerText());
    await e2e.wb.shot('delegate-1-confirmation');
    assert.match(shown, /The docs agent gets exactly this prompt/);
    assert.match(shown, /connect timeout default is 30 seconds/);
    await e2e.wb.page.waitForTimeout(1000);
    assert.equal(created().length, before, 'nothing is sent while the confirmation waits');

    await step(e2e.wb, 'Allow', async () => {
      await allowOnce(e2e.wb, widget);
      await waitForChatResponse(e2e.wb);
    });
    const jobs = created().slice(before);
    assert.equal(jobs.length, 1, 'one job was created');
    const sent = (jobs[0]!.body as JobBody).prompt;
    assert.ok(shown.includes(flat(sent)), `the job's prompt ${JSON.stringify(sent)} is the one the confirmation showed: ${JSON.stringify(shown)}`);
    const r = await readChatResponse(e2e.wb);
    assert.match(r.markdown, /Fake model read the result of docs-assistant_fixDocs: "Started docs agent job \S+ with the prompt the user confirmed\./);

    await step(e2e.wb, 'the job is listed in Agent Jobs', async () => {
      await e2e.wb.showDocsAssistant();
      const row = await e2e.wb.jobRow(/connect timeout default is 30 seconds/);
      await e2e.wb.shot('delegate-2-job-in-tree');
      // Followed like any other job, to its pull request (and its notification, out of the next test's way).
      await e2e.wb.waitForRowIcon(row, 'git-pull-request', 60_000);
      await e2e.wb.notification(/Pull request ready/);
      await e2e.wb.dismissNotifications();
    });
  });

  it('@docs /fix asks with the same confirmation: Skip sends nothing, Allow starts the job (VS Code >= 1.104)', async function () {
    if (e2e.unsupported) skipChatView(this, e2e.unsupported);
    await step(e2e.wb, 'ask @docs a question', async () => {
      // The first test's job finishes meanwhile: its notification would cover the chat's input box.
      await e2e.wb.dismissNotifications();
      await openChatView(e2e.wb);
      await sendInChatView(e2e.wb, '@docs How do I rotate an API key?', 60_000);
      await waitForChatResponse(e2e.wb);
    });
    const before = created().length;
    const skipped = await step(e2e.wb, '/fix, then Skip', async () => {
      await e2e.wb.dismissNotifications();
      await sendInChatView(e2e.wb, '@docs /fix');
      const widget = await confirmation(e2e.wb);
      const shown = flat(await widget.innerText());
      await skip(widget);
      await waitForChatResponse(e2e.wb);
      return shown;
    });
    assert.match(skipped, /A reader asked the documentation: "How do I rotate an API key\?"/);
    assert.equal(created().length, before, 'a skipped confirmation sends nothing');
    assert.match((await readChatResponse(e2e.wb)).markdown, /Nothing was sent to the agent\./);

    const shown = await step(e2e.wb, '/fix with a note, then Allow', async () => {
      await e2e.wb.dismissNotifications();
      await sendInChatView(e2e.wb, '@docs /fix mention the 90-day rotation');
      const widget = await confirmation(e2e.wb);
      const text = flat(await widget.innerText());
      await allowOnce(e2e.wb, widget);
      await waitForChatResponse(e2e.wb);
      return text;
    });
    const jobs = created().slice(before);
    assert.equal(jobs.length, 1, 'one job was created');
    const sent = (jobs[0]!.body as JobBody).prompt;
    assert.match(sent, /^A reader asked the documentation: "How do I rotate an API key\?"/);
    assert.match(sent, /The reader adds: mention the 90-day rotation$/);
    assert.ok(shown.includes(flat(sent)), `the job's prompt is the one the confirmation showed: ${JSON.stringify(shown.slice(0, 300))}`);
    const r = await readChatResponse(e2e.wb);
    assert.match(r.markdown, /Started agent job \S+\. It is listed under Agent Jobs/);
    assert.ok(
      r.buttons.some((b) => /Show Job/.test(b)),
      `Show Job is offered: ${JSON.stringify(r.buttons)}`,
    );
    assert.ok(
      r.buttons.some((b) => /Review Changes/.test(b)),
      `Review Changes is offered as a @docs button (issue 30 §1): ${JSON.stringify(r.buttons)}`,
    );
  });

  it('on every VS Code: the extension activates with the chat contributions, and Fix Docs with Agent still reviews first', async function () {
    const before = created().length;
    await step(e2e.wb, 'Agent Jobs is ready: the demo admin key is stored (a job, or the welcome that offers one)', async () => {
      await e2e.wb.showDocsAssistant();
      await e2e.wb.page
        .locator('[id="workbench.view.extension.docsAssistant"]')
        .getByText(/No agent jobs yet|connect timeout default/)
        .first()
        .waitFor({ state: 'visible', timeout: 30_000 });
    });
    await step(e2e.wb, 'Fix Docs with Agent… from the palette', async () => {
      await e2e.wb.command('Docs Assistant: Fix Docs with Agent…');
      await e2e.wb.waitForQuickInput(/Describe the fix/i);
      await e2e.wb.typeIntoQuickInput('Say that retries default to 3', { enter: false });
      // Enter counts once VS Code has validated the text (the empty box's message is gone).
      for (let i = 0; i < 150 && /Write an instruction/.test(await e2e.wb.quickInputMessage()); i++) await e2e.wb.page.waitForTimeout(100);
      await e2e.wb.page.keyboard.press('Enter');
      await waitForReview(e2e.wb);
    });
    await step(e2e.wb, 'Cancel the review', async () => {
      await clickReviewAction(e2e.wb, CANCEL);
    });
    assert.equal(created().length, before, 'a cancelled review sends nothing');
  });
});
