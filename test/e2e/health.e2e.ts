import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { cloneDocsWorkspace } from '../emulator';
import { clickReviewAction, editorText, SEND, waitForReview } from './review';
import { step, type Workbench } from './workbench';
import { withStack } from './withStack';

// Docs Health in a real VS Code against the emulator's reader analytics (issue 31), walked as a
// writer: the docs repository cloned into the workspace, the getting-started page's hint with the
// emulator's counts, the page in Docs Health, its top comment sent to the agent through the
// review (the readers' own words in it), and the job in Agent Jobs. Then hostile reader text,
// inert and bounded wherever it shows, and a plan without analytics: one note, no hint, no error.

const SIDEBAR = '[id="workbench.view.extension.docsAssistant"]';
const HEALTH_ROWS = `${SIDEBAR} .pane:has(.pane-header[aria-label*="Docs Health"]) .monaco-list-row`;
// eslint-disable-next-line no-control-regex -- what must never reach the screen: controls and bidi overrides.
const HIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u202a-\u202e\u2066-\u2069\u200e\u200f]/;

async function healthRow(wb: Workbench, matching: RegExp, timeout = 20_000): Promise<Locator> {
  const row = wb.page.locator(HEALTH_ROWS).filter({ hasText: matching }).first();
  try {
    await row.waitFor({ state: 'visible', timeout });
  } catch {
    throw new Error(`No Docs Health row matching ${matching}. Rows: ${JSON.stringify(await wb.page.locator(HEALTH_ROWS).allInnerTexts())}`);
  }
  return row;
}

/** The CodeLens texts of the active editor, once one matches. */
async function lensTexts(wb: Workbench, matching: RegExp, timeout = 20_000): Promise<string[]> {
  const lenses = wb.page.locator('.editor-instance .monaco-editor .codelens-decoration');
  const deadline = Date.now() + timeout;
  let texts: string[] = [];
  while (Date.now() < deadline) {
    texts = await lenses.allInnerTexts();
    if (texts.some((t) => matching.test(t))) return texts;
    await wb.page.waitForTimeout(200);
  }
  throw new Error(`No CodeLens matching ${matching}; shown: ${JSON.stringify(texts)}`);
}

describe('e2e: Docs Health in a real VS Code', function () {
  const e2e = withStack({ stack: { demoKeys: true } });
  const analyticsCalls = () => e2e.wb.requests('/v1/analytics/');

  before(async function () {
    // The writer's clone of the docs repository, beside the sample workspace's own files: the
    // workspace's watcher finds its docs.json.
    await cloneDocsWorkspace(e2e.stack.emulator.docsRepo, join(e2e.stack.workspace, 'acme-docs'));
  });

  it("a writer sees the page's hint, finds its top comment in Docs Health, and sends a fix for review", async function () {
    await step(e2e.wb, 'open Docs Health: it fetches while visible', async () => {
      await e2e.wb.command('Docs Assistant: Focus on Docs Health View');
      await healthRow(e2e.wb, /getting-started/, 30_000);
    });
    const lens = await step(e2e.wb, "the page's hint shows the emulator's counts", async () => {
      await e2e.wb.openFile('acme-docs/getting-started.md');
      const texts = await lensTexts(e2e.wb, /👎 7 · 👍 12 · 3 comments · 2 unanswered questions \(last 30 days\)/);
      await e2e.wb.shot('health-1-hint');
      return texts.find((t) => t.includes('👎 7'))!;
    });
    await step(e2e.wb, 'one click on the hint shows the page in Docs Health, its comments under it', async () => {
      await e2e.wb.page.locator('.codelens-decoration a', { hasText: lens }).first().click();
      await healthRow(e2e.wb, /RELAY_API_KEY comes from/);
      await e2e.wb.shot('health-2-page-in-tree');
    });
    await step(e2e.wb, 'Fix with Agent… on the top comment: the review quotes the readers', async () => {
      await e2e.wb.contextMenu(await healthRow(e2e.wb, /RELAY_API_KEY comes from/), 'Fix with Agent…');
      await waitForReview(e2e.wb);
      const text = await editorText(e2e.wb);
      assert.match(text, /getting-started\.md/, "the page's file");
      assert.match(text, /The publish example never says where RELAY_API_KEY comes from/, "the reader's own words");
      assert.match(text, /How do I delete a queue\?/, 'the unanswered questions');
      assert.match(text, /^Instruction:/m, 'an instruction to edit');
      await e2e.wb.shot('health-3-review');
      await clickReviewAction(e2e.wb, SEND);
    });
    await step(e2e.wb, 'the job appears in Agent Jobs, named by the page', async () => {
      await e2e.wb.jobRow(/getting-started/, 20_000);
    });
    const calls = analyticsCalls();
    assert.ok(calls.length > 0, 'analytics was read');
    assert.ok(
      calls.every((c) => c.auth === 'admin'),
      'every analytics call carries the admin key',
    );
    assert.ok(
      calls.every((c) => Number(new URL(c.path, 'http://x').searchParams.get('limit') ?? '50') <= 100),
      'at most 100 per request',
    );
  });

  it('hostile reader text is inert and bounded in the tree, the hint and the draft', async function () {
    e2e.stack.emulator.analytics.hostile(true);
    await step(e2e.wb, 'refresh: the hostile entries arrive', async () => {
      await e2e.wb.command('Docs Assistant: Refresh Docs Health');
      // The tree draws only the rows in view, and the sidebar shares its height with four views:
      // the page the last test opened is closed again, so the pages below it come into view.
      await healthRow(e2e.wb, /^\/getting-started/, 30_000);
      const opened = e2e.wb.page
        .locator(HEALTH_ROWS)
        .filter({ hasText: /^\/getting-started/ })
        .first();
      if ((await opened.getAttribute('aria-expanded')) === 'true') await opened.locator('.monaco-tl-twistie').click();
      await healthRow(e2e.wb, /troubleshooting/, 30_000);
    });
    await step(e2e.wb, 'the rows are one bounded line of plain text', async () => {
      await e2e.wb.openFile('acme-docs/troubleshooting.mdx');
      const texts = await lensTexts(e2e.wb, /👎/);
      for (const t of texts) assert.ok(!HIDDEN.test(t) && t.length < 300, JSON.stringify(t.slice(0, 300)));
      await e2e.wb.page.locator('.codelens-decoration a', { hasText: /👎/ }).first().click();
      const row = await healthRow(e2e.wb, /A reader who will not stop typing/);
      const label = (await row.getAttribute('aria-label')) ?? '';
      assert.ok(label.length < 600, `a 100 KB comment is cut: ${label.length} characters`);
      const rows = await e2e.wb.page.locator(HEALTH_ROWS).allInnerTexts();
      for (const r of rows) assert.ok(!HIDDEN.test(r), `no hidden characters: ${JSON.stringify(r)}`);
      assert.equal(
        await e2e.wb.page.locator(`${HEALTH_ROWS} a[href^="command:"], ${HEALTH_ROWS} img, ${HEALTH_ROWS} script`).count(),
        0,
        'no link, image or script',
      );
      await e2e.wb.shot('health-4-hostile-tree');
    });
    await step(e2e.wb, "the draft quotes the markup in a fence it cannot close; its 'Instruction:' stays quoted", async () => {
      await e2e.wb.contextMenu(await healthRow(e2e.wb, /\[Run me\]/), 'Fix with Agent…');
      await waitForReview(e2e.wb);
      const text = await editorText(e2e.wb);
      const instructions = text.split('\n').filter((l) => /^Instruction:/.test(l));
      assert.equal(instructions.length, 1, `one instruction line of the draft's own: ${JSON.stringify(instructions)}`);
      assert.ok(text.length < 60_000, `bounded: ${text.length}`);
      await clickReviewAction(e2e.wb, 'Cancel (Send Nothing)');
    });
    e2e.stack.emulator.analytics.hostile(false);
  });

  it('a plan without analytics: one quiet note, no hint, no error', async function () {
    e2e.stack.emulator.analytics.offer(false);
    await e2e.wb.dismissNotifications();
    await step(e2e.wb, 'refresh: the view says analytics is not offered, once', async () => {
      await e2e.wb.command('Docs Assistant: Refresh Docs Health');
      const note = e2e.wb.page.locator(`${SIDEBAR} .pane:has(.pane-header[aria-label*="Docs Health"]) .welcome-view-content`, { hasText: /not offered/ });
      await note.waitFor({ state: 'visible', timeout: 20_000 });
      await e2e.wb.shot('health-5-not-offered');
    });
    await step(e2e.wb, 'the page has no hint, and nothing went wrong', async () => {
      // A page with signals that no earlier test opened (webhooks.md has thumbs and a snippet), and only one file of its name.
      await e2e.wb.openFile('acme-docs/webhooks.md');
      await e2e.wb.page.locator('.tab.active[aria-label^="webhooks.md"]').first().waitFor({ timeout: 10_000 });
      await e2e.wb.page.waitForTimeout(1000);
      assert.equal(await e2e.wb.page.locator('.editor-instance .monaco-editor .codelens-decoration', { hasText: /👎/ }).count(), 0, 'no hint');
      // The first test's job may still say its pull request is ready; nothing else may speak up.
      const toasts = await e2e.wb.page.locator('.notification-toast-container .notification-list-item').allInnerTexts();
      assert.deepEqual(
        toasts.filter((t) => !/Pull request ready/.test(t)),
        [],
        'no error, no note but the view’s',
      );
    });
  });
});
