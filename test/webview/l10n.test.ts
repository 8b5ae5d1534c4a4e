import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TurnView } from '../../src/common/protocol';
import { snapshotWith, withWebview } from './fixture';

// The page speaks VS Code's display language: the host puts vscode.l10n.bundle in the HTML as a
// JSON data block (src/chat/core/webviewHtml.ts) and the page looks every word up there through
// @vscode/l10n (src/webview/l10nBundle.ts). Without a bundle it is English. The block is data: the
// CSP need not allow it, and nothing in a translation can end it and become script.

/** Part of a German bundle, as vscode.l10n.bundle gives it: English message → translation. */
const GERMAN: Record<string, string> = {
  'Ask the docs': 'Frag die Doku',
  'Ask the docs…': 'Frag die Doku…',
  Send: 'Senden',
  Conversation: 'Unterhaltung',
  Retry: 'Erneut versuchen',
  'Open Settings': 'Einstellungen öffnen',
  'Try again in {0} s': 'Erneut möglich in {0} s',
  'Searched the docs for “{0}”': 'In der Doku gesucht: „{0}“',
  '{0} results': '{0} Treffer',
  'Copy code': 'Code kopieren',
  Sources: 'Quellen',
  'How do I get started?': 'Wie fange ich an?',
};

function failedTurn(): TurnView {
  return {
    id: 't1',
    question: 'Wie setze ich das Timeout?',
    context: [],
    answer: {
      parts: [
        { kind: 'tool', toolName: 'searchDocs', query: 'timeout', state: 'done', resultCount: 3 },
        { kind: 'text', text: 'Vorher:\n\n```ts\nconst a = 1;\n```\n' },
      ],
      sources: [{ url: 'https://docs.acme.test/faq', title: 'FAQ' }],
      status: 'error',
      notices: [],
      jobs: [],
      // The host words the message (errorWords.ts, in its own language); the page words the buttons.
      error: { message: 'Zu viele Anfragen.', kind: 'rateLimited', actions: ['openSettings', 'retry'], retryAt: Date.now() + 30_000 },
    },
  };
}

const pageState = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __executed: string[]; __violations: string[] };
    return { executed: w.__executed, violations: w.__violations };
  });

describe('chat webview in the display language (@vscode/l10n)', function () {
  this.timeout(60_000);
  const h = withWebview();
  afterEach(() => {
    h.l10nBundle = undefined;
    h.lang = undefined;
  });

  it('without a bundle the page is English, and carries no data block', async () => {
    const page = await h.open(snapshotWith());
    assert.equal(await page.locator('#l10n').count(), 0);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.equal(await page.textContent('.empty-state h2'), 'Ask the docs');
    assert.equal(await page.getAttribute('.input', 'placeholder'), 'Ask the docs…');
    assert.equal(await page.getAttribute('.send', 'aria-label'), 'Send');
  });

  it('with the bundle the host sends, every word is looked up in it: labels, placeholders, status and countdown', async () => {
    h.l10nBundle = GERMAN;
    h.lang = 'de';
    let page = await h.open(snapshotWith());
    assert.equal(await page.getAttribute('html', 'lang'), 'de');
    assert.equal(await page.textContent('.empty-state h2'), 'Frag die Doku');
    assert.equal(await page.getAttribute('.input', 'placeholder'), 'Frag die Doku…');
    assert.equal(await page.getAttribute('.input', 'aria-label'), 'Frag die Doku');
    assert.equal(await page.getAttribute('.send', 'aria-label'), 'Senden');
    assert.equal(await page.getAttribute('.transcript', 'aria-label'), 'Unterhaltung');
    assert.equal(await page.textContent('.example'), 'Wie fange ich an?');
    // A message the bundle does not have stays English, as VS Code does.
    assert.equal(await page.locator('.example').nth(1).textContent(), 'What are the rate limits?');

    page = await h.open(snapshotWith({ turns: [failedTurn()] }));
    assert.equal(await page.textContent('.tool'), 'In der Doku gesucht: „timeout“ · 3 Treffer');
    assert.equal(await page.textContent('.sources-title'), 'Quellen');
    // A button with text is named by it; what it does in full is its tooltip (issue 29).
    assert.equal(await page.getAttribute('.code-actions button[data-action="copyCode"]', 'title'), 'Code kopieren');
    assert.deepEqual(await page.locator('.error-actions button').allTextContents(), ['Einstellungen öffnen', 'Erneut versuchen']);
    assert.match((await page.textContent('.retry-countdown'))!, /^Erneut möglich in (29|30) s$/);
    assert.deepEqual(await pageState(page), { executed: [], violations: [] }, 'the data block is not script: no CSP violation');
  });

  it('a translation that holds </script> stays text: it cannot end the data block', async () => {
    const hostile = '</script><script>__canary("l10n")</script><img src=x onerror="__canary(1)"><!--';
    h.l10nBundle = { 'Ask the docs': hostile, Send: 'Senden' };
    const page = await h.open(snapshotWith());
    assert.equal(await page.textContent('.empty-state h2'), hostile);
    assert.equal(await page.getAttribute('.send', 'aria-label'), 'Senden', 'the rest of the bundle is read too');
    assert.equal(await page.locator('script').count(), 2, 'the data block and the page’s bundle, nothing else');
    assert.deepEqual(await pageState(page), { executed: [], violations: [] });
  });
});
