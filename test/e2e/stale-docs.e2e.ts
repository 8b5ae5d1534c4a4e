import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { applyStaleDocsChange, commitSampleWorkspace, expectedNotStale, expectedStaleLines, expectedStalePages } from '../fixtures/staleDocsChange';
import { clickReviewAction, editorText, SEND, waitForReview } from './review';
import { RUN_DIR, SAMPLE_WORKSPACE } from './stack';
import { step, type Workbench } from './workbench';
import { withStack } from './withStack';

// Check Docs for My Changes in a real VS Code (issue 32, "Show it"): the sample workspace as a Git
// repository (its relay CLI beside its docs, committed), the scripted change made to it (a flag
// renamed, a default changed, an option removed), the check run from the Source Control view's
// title, the stale pages listed in Docs to Update with their lines and the page that only says
// the new form left out, Fix with Agent… on the view's title showing all of it in the review, the
// job in Agent Jobs. Then the same with a service that has no search endpoint (404): the
// assistant's sources are used, and the view says so.

const SIDEBAR = '[id="workbench.view.extension.docsAssistant"]';
const STALE_PANE = `${SIDEBAR} .pane:has(.pane-header[aria-label*="Docs to Update"])`;
const STALE_ROWS = `${STALE_PANE} .monaco-list-row`;
const CHECK = 'Check Docs for My Changes';

interface Workspace {
  userDataDir: string;
  close(): Promise<void>;
}

async function staleRows(wb: Workbench, matching: RegExp, timeout = 30_000): Promise<string[]> {
  const deadline = Date.now() + timeout;
  let rows: string[] = [];
  while (Date.now() < deadline) {
    rows = await wb.page
      .locator(STALE_ROWS)
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? (e as HTMLElement).innerText))
      .catch(() => []);
    if (rows.some((r) => matching.test(r))) return rows;
    await wb.page.waitForTimeout(200);
  }
  throw new Error(`No Docs to Update row matching ${matching}. Rows: ${JSON.stringify(rows)}`);
}

/**
 * The Source Control view's title-bar action, as a user clicks it. With several views in the
 * container (VS Code 1.139 shows Graph too), the view's actions are in its pane header, shown on hover.
 */
async function scmTitleAction(wb: Workbench, title: string): Promise<Locator> {
  await wb.command('Source Control: Focus on Changes View');
  const action = wb.page.locator(`.part.sidebar .action-label[aria-label^="${title}"]`).first();
  const deadline = Date.now() + 30_000;
  while (!(await action.isVisible().catch(() => false))) {
    if (Date.now() > deadline) {
      const labels = await wb.page.locator('.part.sidebar .action-label').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
      throw new Error(`The Source Control view has no "${title}" action: ${JSON.stringify(labels)}`);
    }
    for (const header of await wb.page.locator('.part.sidebar .pane-header').all()) {
      await header.hover({ timeout: 1000 }).catch(() => undefined);
      if (await action.isVisible().catch(() => false)) break;
    }
    await wb.page.waitForTimeout(250);
  }
  return action;
}

describe('e2e: Check Docs for My Changes, from Source Control to the agent', function () {
  const e2e = withStack<Workspace>({
    server: async () => {
      mkdirSync(RUN_DIR, { recursive: true });
      const userDataDir = mkdtempSync(join(RUN_DIR, 'user-'));
      // The stack uses this workspace as it is: the sample, committed, then changed by the script.
      const workspace = join(userDataDir, 'workspace');
      cpSync(SAMPLE_WORKSPACE, workspace, { recursive: true });
      commitSampleWorkspace(workspace);
      applyStaleDocsChange(workspace);
      return { userDataDir, close: async () => rmSync(userDataDir, { recursive: true, force: true }) };
    },
    // The docs site's address as a user sets it: the emulator serves its pages under /docs/, which
    // the assistant's sources name (`${url}/docs/cli`), so the fallback maps them to the site's pages.
    stack: (server) => ({
      userDataDir: server.userDataDir,
      settings: (emulator) => ({ 'git.enabled': true, 'docsAssistant.docsSiteUrl': `${emulator.url}/docs` }),
    }),
  });

  it('lists the stale pages with their lines, not the page that says the new form, and sends the fix through the review', async function () {
    const searchesBefore = e2e.wb.requests('/discovery/v1/search/').length;
    await step(e2e.wb, 'Check Docs for My Changes from the Source Control view’s title; staged and unstaged (the default)', async () => {
      await (await scmTitleAction(e2e.wb, CHECK)).click();
      await e2e.wb.waitForQuickInput(/Staged and unstaged changes/);
      await e2e.wb.pickQuickItem(/Staged and unstaged changes/);
    });
    const rows = await step(e2e.wb, 'Docs to Update lists the stale pages, each with its lines', async () => {
      const first = expectedStalePages[0]!;
      const rows = await staleRows(e2e.wb, new RegExp(first.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')));
      await e2e.wb.shot('stale-1-docs-to-update');
      return rows;
    });
    for (const page of expectedStalePages)
      assert.ok(
        rows.some((r) => r.startsWith(page)),
        `${page} is listed: ${JSON.stringify(rows)}`,
      );
    for (const page of expectedNotStale) assert.ok(!rows.some((r) => r.startsWith(`${page} `) || r === page), `${page} is not listed: ${JSON.stringify(rows)}`);
    for (const [page, lines] of Object.entries(expectedStaleLines) as [string, readonly string[]][])
      for (const line of lines)
        assert.ok(
          rows.some((r) => r.includes(line)),
          `${page}'s line "${line}" is listed: ${JSON.stringify(rows)}`,
        );
    const message = await e2e.wb.page
      .locator(`${STALE_PANE} .message`)
      .first()
      .innerText()
      .catch(() => '');
    assert.match(message, /pages? to update for \d+ code changes?/);
    assert.doesNotMatch(message, /assistant/);
    const searches = e2e.wb.requests('/discovery/v1/search/').slice(searchesBefore);
    assert.ok(searches.length >= 1 && searches.length <= 50, `${searches.length} searches`);

    await step(e2e.wb, 'Fix with Agent… on the view’s title: the review holds the changes, every page and its lines', async () => {
      await e2e.wb.page.locator(`${STALE_PANE} .pane-header`).hover();
      await e2e.wb.page.locator(`${STALE_PANE} .pane-header .action-label[aria-label^="Fix with Agent"]`).first().click();
      await waitForReview(e2e.wb);
      const text = await editorText(e2e.wb);
      for (const page of expectedStalePages) assert.ok(text.includes(page), `${page} in the draft`);
      assert.match(text, /--dlq/);
      assert.match(text, /--dead-letter-queue/);
      await e2e.wb.shot('stale-2-review');
      await clickReviewAction(e2e.wb, SEND);
    });
    await step(e2e.wb, 'the job lands in Agent Jobs, named by the change', async () => {
      await e2e.wb.showDocsAssistant();
      await e2e.wb.jobRow(/Docs for \d+ code changes?/, 30_000);
    });
  });

  it('without the search endpoint (404): the assistant’s sources are used, and the view says so', async function () {
    e2e.stack.emulator.search.offer(false);
    await e2e.wb.dismissNotifications();
    await step(e2e.wb, 'Check Docs for My Changes again', async () => {
      await (await scmTitleAction(e2e.wb, CHECK)).click();
      await e2e.wb.pickQuickItem(/Staged and unstaged changes/);
    });
    await step(e2e.wb, 'the view says the assistant’s sources were used', async () => {
      const note = e2e.wb.page.locator(`${STALE_PANE} .message`, { hasText: /Search is not offered by this service: the assistant.s sources were used/ });
      await note.waitFor({ state: 'visible', timeout: 60_000 });
      await e2e.wb.shot('stale-3-assistant-fallback');
    });
    // The sources are URLs under the site's /docs/: listed as the site's own page (`/cli`), with its lines.
    const rows = await staleRows(e2e.wb, /^\/cli\b/);
    assert.ok(
      rows.some((r) => /^\/cli\b/.test(r)),
      `/cli is listed: ${JSON.stringify(rows)}`,
    );
    // Here the docs are not in the workspace and the page endpoint is gone with search, so a page's
    // lines are what its sources quoted: some of /cli's lines, each saying an old form.
    const lines = rows.filter((r) => !r.startsWith('/'));
    assert.ok(lines.length > 0, `/cli lists lines: ${JSON.stringify(rows)}`);
    for (const line of lines) assert.match(line, /--dlq|--delay|visibility_timeout/, `each listed line says an old form: ${JSON.stringify(rows)}`);
    assert.ok(!rows.some((r) => r.startsWith('/docs/')), `no page named under /docs/: ${JSON.stringify(rows)}`);
    assert.ok(e2e.wb.requests('/discovery/v1/search/').length >= 1, 'the search endpoint was tried');
  });
});
