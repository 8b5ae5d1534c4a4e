import assert from 'node:assert/strict';
import { clickReviewAction, fixDocsThroughReview, SEND, waitForReview } from './review';
import { step } from './workbench';
import { withStack } from './withStack';

// Open Preview in a real VS Code against the emulator's preview endpoints (issue 30 §2): from
// the finished job's notification to the preview's URL on its row and the page it serves; a
// follow-up rebuilds it, and this build fails, with its logs in the "Docs Assistant Preview"
// output; then a plan without previews: said once, and the action gone from the menu and palette.

describe('e2e: preview deployments in a real VS Code', function () {
  const e2e = withStack({ stack: { demoKeys: true, emulator: { jobDurationMs: 3000, previewStepMs: 1500 } } });
  const label = /Say that webhooks retry five times/;
  const previewCalls = () => e2e.wb.requests('/v1/project/');

  /** The job row's accessible name: its label, status, description and the preview's words. */
  const rowName = async (): Promise<string> => (await (await e2e.wb.jobRow(label)).getAttribute('aria-label')) ?? '';

  async function waitForRowName(test: RegExp, timeout = 30_000): Promise<string> {
    const deadline = Date.now() + timeout;
    let name = await rowName();
    while (!test.test(name) && Date.now() < deadline) {
      await e2e.wb.page.waitForTimeout(200);
      name = await rowName();
    }
    assert.match(name, test);
    return name;
  }

  it("Open Preview from the finished job's notification: the URL on the row, a notification, and the page", async function () {
    await step(e2e.wb, 'launch a job and wait for its pull request', async () => {
      // The extension activates on a docs file and its view: the first command then finds it ready.
      await e2e.wb.openFile('docs/configuration.md');
      await e2e.wb.showDocsAssistant();
      await fixDocsThroughReview(e2e.wb, 'Say that webhooks retry five times');
      await e2e.wb.showDocsAssistant();
      await e2e.wb.waitForRowIcon(await e2e.wb.jobRow(label), 'git-pull-request', 30_000);
    });
    await step(e2e.wb, "the job's notification offers Open Preview", async () => {
      const toast = await e2e.wb.notification(/pull request ready/i);
      await e2e.wb.clickNotificationButton(toast, 'Open Preview');
    });
    const url = await step(e2e.wb, 'the preview builds and its URL shows on the row', async () => {
      const name = await waitForRowName(/Preview: http:\/\/127\.0\.0\.1:\d+\/preview\/[a-z0-9-]+\//);
      await e2e.wb.shot('preview-1-url-on-row');
      return /Preview: (\S+)/.exec(name)![1]!;
    });
    const calls = previewCalls();
    assert.equal(calls[0]!.method, 'POST');
    const branch = (calls[0]!.body as { branch: string }).branch;
    assert.match(branch, /^docs-agent\//, "the job's own branch is previewed");
    assert.ok(
      calls.every((c) => c.auth === 'admin'),
      'preview calls carry the admin key',
    );
    assert.ok(calls.length <= 5, `within 5 requests a minute: ${calls.length}`);
    await step(e2e.wb, 'the page is served at that URL', async () => {
      const page = await fetch(new URL('getting-started', url));
      assert.equal(page.status, 200);
      assert.match(await page.text(), new RegExp(`Preview</span> of <code>${branch}</code>`));
    });
    await step(e2e.wb, "the ready notification's Open Preview opens it in the browser", async () => {
      const toast = await e2e.wb.notification(new RegExp(`preview of .* is ready: ${url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`, 'i'));
      await e2e.wb.shot('preview-2-ready-notification');
      const before = e2e.wb.opened.length;
      await e2e.wb.clickNotificationButton(toast, 'Open Preview');
      await e2e.wb.waitForEmulatorTab(before, '/preview/', 'the preview');
    });
  });

  it('a follow-up rebuilds the preview; this build fails, and its logs are in the output', async function () {
    e2e.stack.emulator.previews.failNext();
    const before = previewCalls().filter((c) => c.method === 'POST').length;
    await e2e.wb.dismissNotifications();
    await step(e2e.wb, 'send a follow-up', async () => {
      await e2e.wb.contextMenu(await e2e.wb.jobRow(label), 'Send Follow-up…');
      await e2e.wb.waitForQuickInput(/follow-up|instruction/i);
      await e2e.wb.typeIntoQuickInput('Also say that the delay doubles each time');
      await waitForReview(e2e.wb);
      await clickReviewAction(e2e.wb, SEND);
    });
    await step(e2e.wb, 'once the job is done again, the preview is rebuilt and fails', async () => {
      // The first build's requests count against the 5 a minute too: this one may wait for the window.
      const toast = await e2e.wb.notification(/preview of .* failed/i, 90_000);
      assert.equal(previewCalls().filter((c) => c.method === 'POST').length, before + 1, 'one rebuild');
      await waitForRowName(/Preview failed/);
      await e2e.wb.clickNotificationButton(toast, 'Show Logs');
    });
    await step(e2e.wb, "the output shows the build's logs", async () => {
      const output = e2e.wb.page.locator('.part.panel .monaco-editor .view-lines').first();
      await output.waitFor({ state: 'visible', timeout: 10_000 });
      const deadline = Date.now() + 10_000;
      let text = await output.innerText();
      while (!text.includes('Build failed') && Date.now() < deadline) {
        await e2e.wb.page.waitForTimeout(200);
        text = await output.innerText();
      }
      // Monaco renders spaces as no-break spaces.
      text = text.replace(/\u00a0/g, ' ');
      assert.match(text, /navigation names "guides\/missing-page"/);
      assert.match(text, /Build failed/);
      assert.ok(!text.includes(e2e.stack.emulator.adminKey), 'no key in the output');
      await e2e.wb.shot('preview-3-failure-logs');
    });
  });

  it('a plan without previews: said once, then Open Preview is gone from the menu and the palette', async function () {
    e2e.stack.emulator.previews.offer(false);
    await e2e.wb.dismissNotifications();
    const before = previewCalls().length;
    await step(e2e.wb, 'Open Preview from the job menu', async () => {
      await e2e.wb.contextMenu(await e2e.wb.jobRow(label), 'Open Preview');
      await e2e.wb.notification(/not offered by this service or plan \(HTTP 403\).*hidden/i);
      await e2e.wb.shot('preview-4-not-offered');
    });
    await step(e2e.wb, 'the menu no longer has it', async () => {
      await e2e.wb.page.waitForTimeout(500);
      await assert.rejects(e2e.wb.contextMenu(await e2e.wb.jobRow(label), 'Open Preview'), /has no "Open Preview"/);
      await e2e.wb.page.keyboard.press('Escape');
    });
    await step(e2e.wb, 'nor the palette', async () => {
      await e2e.wb.page.keyboard.press('F1');
      await e2e.wb.waitForQuickInput(/./);
      await e2e.wb.typeIntoQuickInput('>Docs Assistant: Open Preview', { enter: false });
      await e2e.wb.page.waitForTimeout(800);
      const rows = await e2e.wb.page.locator('.quick-input-widget .monaco-list-row').allInnerTexts();
      assert.ok(!rows.some((r) => /Open Preview/.test(r)), JSON.stringify(rows));
      await e2e.wb.page.keyboard.press('Escape');
    });
    assert.equal(previewCalls().length - before, 1, 'one request found it out; nothing was sent after');
    await step(e2e.wb, 'the notification center holds the note once', async () => {
      await e2e.wb.command('Notifications: Show Notifications');
      const center = e2e.wb.page.locator('.notifications-center');
      await center.waitFor({ state: 'visible', timeout: 10_000 });
      assert.equal(await center.locator('.notification-list-item', { hasText: /not offered by this service or plan/ }).count(), 1, 'said once');
      await e2e.wb.shot('preview-5-said-once');
    });
  });
});
