import assert from 'node:assert/strict';
import { editorText, SEND, titleAction, waitForReview } from './review';
import { step } from './workbench';
import { withStack } from './withStack';

// The tour the README shows, in a real VS Code, and the screenshots it shows (npm run screenshots
// copies readme-*.png into media/screenshots/): a question about a selected passage answered with
// its sources, "Fix This in the Docs" under that answer opening the prompt for review, and the job it
// starts followed to its pull request, in Agent Jobs and on the answer's job card.
// It is also the only end-to-end path from the chat to the agent (ChatJobCards →
// AgentJobsService → the review document → the service).

const SIDEBAR = '[id="workbench.view.extension.docsAssistant"]';
const QUESTION = 'How do I change the visibility timeout?';

describe('e2e: the README tour (chat → Fix This in the Docs → pull request)', function () {
  const e2e = withStack({
    // Three search results per answer keep the quoted answer short enough to read in one screen.
    stack: { demoKeys: true, emulator: { jobDurationMs: 4000 }, settings: { 'docsAssistant.retrievalPageSize': 3 } },
  });

  /** The side bar is narrow by default; the screenshots want the answer readable, as a user would drag it. */
  async function widenSideBar(width: number): Promise<void> {
    const bar = await e2e.wb.page.locator('[id="workbench.parts.sidebar"]').boundingBox();
    if (!bar) throw new Error('The side bar is not showing.');
    const y = bar.y + bar.height / 2;
    // The sash on the side bar's right edge (newer VS Code draws a gap between the parts).
    const edge = bar.x + bar.width;
    const sashes = await e2e.wb.page
      .locator('.monaco-sash.vertical')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ x: r.x + r.width / 2, top: r.top, bottom: r.bottom, width: r.width })));
    const sash = sashes.filter((r) => r.width > 0 && r.top <= y && r.bottom >= y).sort((a, b) => Math.abs(a.x - edge) - Math.abs(b.x - edge))[0];
    if (!sash || Math.abs(sash.x - edge) > 20) throw new Error(`No sash on the side bar's edge at x=${edge}: ${JSON.stringify(sashes)}`);
    await e2e.wb.page.mouse.move(sash.x, y);
    await e2e.wb.page.mouse.down();
    await e2e.wb.page.mouse.move(sash.x + width - bar.width, y, { steps: 8 });
    await e2e.wb.page.mouse.up();
    // Off the edge, so it is not drawn highlighted in the screenshots.
    await e2e.wb.page.mouse.move(bar.x + width + 300, y);
    const now = (await e2e.wb.page.locator('[id="workbench.parts.sidebar"]').boundingBox())!.width;
    if (now < width - 40) throw new Error(`Dragging the side bar's edge left it ${now} px wide, not ${width}.`);
  }

  /**
   * Send to Agent in the review's title bar, then waits for the review's tab to close. (review.ts's
   * clickReviewAction puts the tab's name into a CSS selector, which a name with quotes breaks:
   * this review's first line quotes the question.)
   */
  async function sendReview(): Promise<void> {
    const tabs = e2e.wb.page.locator('.tab');
    const names = () => tabs.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    const name = (await e2e.wb.page.locator('.editor-group-container.active .tab.active').first().getAttribute('aria-label')) ?? '';
    await titleAction(e2e.wb, SEND).click();
    const deadline = Date.now() + 10_000;
    while ((await names()).includes(name)) {
      if (Date.now() > deadline) throw new Error(`The review (${name}) was still open 10 s after Send to Agent.`);
      await e2e.wb.page.waitForTimeout(100);
    }
  }

  /** Collapses or expands a pane of the Docs Assistant side bar by its header. */
  async function setPane(name: string, expanded: boolean): Promise<void> {
    const header = e2e.wb.page.locator(`${SIDEBAR} .pane-header[aria-label*="${name}"]`).first();
    if ((await header.getAttribute('aria-expanded')) !== String(expanded)) await header.click();
  }

  it('asks about a selected passage of a doc and shows the answer with its sources', async function () {
    await step(e2e.wb, 'select the Timeouts section of docs/configuration.md and run Ask Docs About Selection', async () => {
      await e2e.wb.selectLinesIn('docs/configuration.md', 5, 8);
      await e2e.wb.command('Docs Assistant: Ask Docs About Selection');
      e2e.chat = await e2e.wb.chatWithChip('docs/configuration.md:5-8');
      // The README's size: 1200 px wide, taken as is (a scaled screenshot is blurred and twice the
      // bytes). Only now: the selection helper moves by screen lines, which a narrower editor wraps.
      await e2e.wb.page.setViewportSize({ width: 1200, height: 860 });
    });
    await step(e2e.wb, 'ask, and the answer comes with its sources', async () => {
      await e2e.wb.ask(e2e.chat, QUESTION);
      const turn = await e2e.wb.waitForAnswer(e2e.chat, 'done');
      assert.ok((await turn.locator('.sources a').count()) >= 1, 'sources are listed under the answer');
      assert.match(await turn.locator('.question .chips').innerText(), /docs\/configuration\.md:5-8/, 'the question shows the passage it was asked about');
    });
    await step(e2e.wb, 'screenshot: the answer in a wide side bar', async () => {
      await setPane('Agent Jobs', false);
      await widenSideBar(560);
      await e2e.wb.dismissNotifications();
      await e2e.chat
        .locator('.turn')
        .last()
        .evaluate((e) => e.scrollIntoView({ block: 'start' }));
      await e2e.wb.page.waitForTimeout(300);
      await e2e.wb.shot('readme-1-chat-answer');
    });
  });

  it('"Fix This in the Docs" under the answer opens the prompt for review, with the question, the passage and the answer', async function () {
    const review = await step(e2e.wb, 'click Fix This in the Docs', async () => {
      await e2e.chat.locator('.turn').last().locator('button[data-action="fixInDocs"]').click();
      await waitForReview(e2e.wb);
      const text = await editorText(e2e.wb);
      assert.ok(
        text.startsWith(`A reader asked the documentation: "${QUESTION}"`),
        `the review starts with the question: ${JSON.stringify(text.slice(0, 120))}`,
      );
      assert.match(text, /They had selected text from docs\/configuration\.md:5-8/);
      assert.match(text, /The assistant answered:/);
      assert.match(text, /\nInstruction: .+$/);
      await e2e.wb.page.keyboard.press('Control+Home');
      await e2e.wb.shot('readme-2-review');
      return text;
    });
    await step(e2e.wb, 'Send to Agent sends exactly the reviewed text', async () => {
      await sendReview();
      const created = e2e.wb.requests(`/v2/agent/${e2e.stack.emulator.projectId}/job`).filter((r) => r.method === 'POST' && r.path.endsWith('/job'));
      const deadline = Date.now() + 10_000;
      while (!created.length && Date.now() < deadline) {
        await e2e.wb.page.waitForTimeout(100);
        created.push(...e2e.wb.requests(`/v2/agent/${e2e.stack.emulator.projectId}/job`).filter((r) => r.method === 'POST' && r.path.endsWith('/job')));
      }
      assert.equal(created.length, 1, 'exactly one job was created');
      assert.equal((created[0]!.body as { prompt: string }).prompt, review);
      // The "review the prompt" toast has done its job; the screenshot is about the pull request.
      await e2e.wb.dismissNotifications();
    });
  });

  it('follows the job to its pull request, in Agent Jobs and on the answer’s job card', async function () {
    await step(e2e.wb, 'the job card under the answer shows the pull request', async () => {
      const card = e2e.chat.locator('.turn').last().locator('.job-card');
      await card.waitFor({ timeout: 10_000 });
      await e2e.chat.locator('.turn').last().locator('.job-card.job-completed').waitFor({ timeout: 30_000 });
      assert.match(await card.innerText(), new RegExp(QUESTION.replace(/[?]/g, '\\?')));
      assert.equal(await card.locator('button', { hasText: 'Open PR' }).count(), 1);
    });
    await step(e2e.wb, 'Agent Jobs lists the job with its pull request link', async () => {
      await e2e.wb.showDocsAssistant();
      await setPane('Agent Jobs', true);
      const row = await e2e.wb.jobRow(/visibility timeout/);
      await e2e.wb.waitForRowIcon(row, 'git-pull-request', 30_000);
      if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
      await e2e.wb.jobRow(/Pull request #\d+: /);
      await e2e.wb.notification(/pull request ready/i);
      // Down to the newest line, as a reader scrolls: the job card under the answer shows.
      await e2e.chat.locator('.transcript').evaluate((t) => t.scrollTo({ top: t.scrollHeight }));
      await e2e.chat.locator('.jump-to-latest').waitFor({ state: 'hidden', timeout: 5000 });
      await e2e.wb.shot('readme-3-job-pull-request');
    });
  });
});
