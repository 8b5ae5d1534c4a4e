import assert from 'node:assert/strict';
import { AFTER_UNCLOSED, EVIL_HOST, FAKE_BANNER, HIDDEN_COMMAND, LAST_BLOCK } from '../fixtures/hostileAnswer';
import { step } from './workbench';
import { withStack } from './withStack';

// The hostile answer of test/webview/hostile-answer.test.ts, in a real VS Code webview: here
// VS Code's own host frames, its link handler and its openExternal trust prompt are part of the
// page. The emulator sends test/fixtures/hostileAnswer.ts for `[[answer:hostile]]`, with sources
// whose links must never reach the DOM (`[[fault:hostile-sources]]`).

describe('e2e: a hostile answer in a real VS Code webview', function () {
  const e2e = withStack({
    // The docs site is the emulator: its images may load by themselves, nobody else's.
    stack: { demoKeys: true, settings: (emulator) => ({ 'docsAssistant.docsSiteUrl': emulator.url }) },
    openChat: true,
  });
  const evilRequests: string[] = [];

  before(async function () {
    e2e.wb.page.on('request', (r) => {
      if (r.url().includes(EVIL_HOST)) evilRequests.push(r.url());
    });
    await e2e.wb.page.route(new RegExp(EVIL_HOST.replace('.', '\\.')), (route) => route.abort());
    await step(e2e.wb, 'ask a question whose answer is hostile', async () => {
      await e2e.wb.ask(e2e.chat, 'How do I configure the relay? [[answer:hostile]] [[fault:hostile-sources]]');
      await e2e.wb.waitForAnswer(e2e.chat, 'done');
    });
  });

  const markdown = () => e2e.chat.locator('.turn').last().locator('.answer .markdown');

  it('loads nothing from a host the user did not allow, and names it on a placeholder', async function () {
    await step(e2e.wb, 'the docs site’s image is an image, the other one a placeholder', async () => {
      assert.equal(await markdown().locator('img[src*="/logo.png"]').count(), 1, 'the docs site’s image is shown');
      const placeholder = markdown().locator('.image-placeholder');
      assert.equal(await placeholder.count(), 1);
      assert.match(await placeholder.innerText(), new RegExp(EVIL_HOST.replace('.', '\\.')));
      await markdown()
        .first()
        .evaluate((e) => e.scrollIntoView({ block: 'start' }));
      await e2e.wb.shot('hostile-answer-1-rendered');
    });
    assert.deepEqual(evilRequests, [], 'no request left for the evil host');
  });

  it('shows raw HTML as text, hides no block and draws no fake UI', async function () {
    const shown = await markdown().innerText();
    for (const text of [AFTER_UNCLOSED, LAST_BLOCK, FAKE_BANNER, HIDDEN_COMMAND]) assert.ok(shown.includes(text), `${JSON.stringify(text)} is visible`);
    assert.equal(
      await markdown()
        .locator('[class*="setup-banner"], [role], [hidden], map, area, math, style, button:not(.code-header button):not(.image-placeholder)')
        .count(),
      0,
    );
    assert.equal(await markdown().locator('.code-block').count(), 1, 'only the fenced block has Copy and Insert');
  });

  it('lists hostile sources as text, never as links', async function () {
    const hrefs = await e2e.chat
      .locator('.turn')
      .last()
      .locator('.sources a')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    assert.ok(
      hrefs.every((h) => /^https?:\/\//.test(h) && !h.includes('@')),
      `only web links: ${JSON.stringify(hrefs)}`,
    );
    assert.match(await e2e.chat.locator('.turn').last().locator('.sources').innerText(), /Run me/, 'the javascript: source is still listed, as text');
    assert.equal(await e2e.chat.locator('a[href^="javascript:" i], a[href^="data:" i], a[href^="command:" i]').count(), 0);
  });

  it('opens a link once, through the host and VS Code’s trust prompt, never a second time by itself', async function () {
    const link = markdown().locator('a[href="https://docs.acme.test/configuration"]');
    for (const button of ['left', 'middle'] as const) {
      const before = e2e.wb.opened.length;
      await step(e2e.wb, `${button}-click the link`, async () => {
        await link.click({ button });
        const dialog = e2e.wb.page.locator('.monaco-dialog-box');
        await dialog.waitFor({ state: 'visible', timeout: 10_000 });
        assert.match(await dialog.innerText(), /docs\.acme\.test/, 'VS Code asks before opening the untrusted site');
        // Time for a second, unchecked open (VS Code's own link handler) to show up, if it were to.
        await e2e.wb.page.waitForTimeout(1500);
        assert.equal(await dialog.count(), 1, 'one prompt');
        await e2e.wb.shot(`hostile-answer-2-${button}-click-prompt`);
        await dialog
          .locator('.monaco-button', { hasText: /^Cancel$/ })
          .first()
          .click();
        await dialog.waitFor({ state: 'hidden', timeout: 5000 });
      });
      assert.deepEqual(e2e.wb.opened.slice(before), [], `no tab opened without the prompt (${button} click)`);
    }
  });
});
