import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TurnView } from '../../src/common/protocol';
import { AFTER_UNCLOSED, CODE_SOURCE, DOCS_IMAGE, EVIL_HOST, FAKE_BANNER, HIDDEN_COMMAND, LAST_BLOCK, PNG_1X1, hostileAnswer } from '../fixtures/hostileAnswer';
import { snapshotWith, withWebview } from './fixture';

// Issue 16: an answer written by a model that read a page anyone may edit. Streamed into the real
// webview bundle, under its real CSP, with a stand-in for VS Code's own link handler on the page.
// test/e2e/hostile-answer.e2e.ts runs the same answer in a real VS Code webview.

const DOCS = 'https://docs.acme.test';

function streamingTurn(): TurnView {
  return { id: 't1', question: 'How do I configure the relay?', context: [], answer: { parts: [], sources: [], status: 'streaming', notices: [], jobs: [] } };
}

describe('a hostile answer in the chat webview (Chromium)', function () {
  this.timeout(60_000);
  const h = withWebview((h) => (h.imageOrigins = [DOCS]));
  let requested: string[];

  /** Opens the chat and streams the hostile answer in pieces that split its tags. */
  async function streamHostile(opts: { sources?: { url?: string; title: string }[] } = {}): Promise<Page> {
    const page = await h.open(snapshotWith({ turns: [streamingTurn()], busy: true }), {
      vscodeLinkHandler: true,
      loadImageReply: { dataUrl: `data:image/png;base64,${PNG_1X1.toString('base64')}` },
    });
    requested = [];
    // Any request that leaves for a real host is recorded; the docs site's image is served.
    await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => {
      requested.push(route.request().url());
      if (route.request().url().startsWith(DOCS)) return route.fulfill({ status: 200, contentType: 'image/png', body: PNG_1X1 });
      return route.abort();
    });
    const text = hostileAnswer(DOCS);
    await h.patch('t1', [{ op: 'setPart', part: 0, value: { kind: 'text', text: '' } }]);
    for (let i = 0; i < text.length; i += 9) {
      await h.patch('t1', [{ op: 'appendText', part: 0, text: text.slice(i, i + 9) }]);
      if (i % 180 === 0) await h.rendered();
    }
    await h.patch('t1', [
      { op: 'setSources', sources: opts.sources ?? [{ url: `${DOCS}/configuration`, title: 'Configuration' }] },
      { op: 'setStatus', status: 'done' },
    ]);
    await h.rendered();
    return page;
  }

  it('loads no image from a host the user did not allow, and shows a placeholder that names it', async () => {
    const page = await streamHostile();
    const csp = (await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content')) ?? '';
    assert.doesNotMatch(csp, /img-src[^;]*https:(\s|;|$)/, 'the CSP no longer lets images come from any https host');
    assert.match(csp, /img-src[^;]*https:\/\/docs\.acme\.test/, 'the docs site is allowed');
    assert.deepEqual(
      requested.filter((u) => u.includes(EVIL_HOST)),
      [],
      'nothing was fetched from the evil host',
    );
    assert.deepEqual(requested, [`${DOCS}/${DOCS_IMAGE}`], 'only the docs site’s image loaded by itself');
    const placeholders = page.locator('.answer .markdown .image-placeholder');
    assert.equal(await placeholders.count(), 1, 'the markdown image from elsewhere is a placeholder');
    assert.match((await placeholders.first().innerText()).replace(/\s+/g, ' '), new RegExp(`Image from ${EVIL_HOST.replace('.', '\\.')}: diagram`));
    assert.equal(await page.locator(`.answer img[src*="${EVIL_HOST}"]`).count(), 0, 'no img element points at it');
    // The user asks for it: the host fetches it, the page shows it as data:, still nothing from the page.
    await placeholders.first().click();
    await page.waitForSelector('.answer .markdown img[src^="data:image/png"]');
    const [load] = await h.posted('loadImage');
    assert.match(String(load!.payload.url), new RegExp(`^https://${EVIL_HOST.replace('.', '\\.')}/leak\\.png`));
    assert.deepEqual(
      requested.filter((u) => u.includes(EVIL_HOST)),
      [],
      'the page itself still fetched nothing from the evil host',
    );
  });

  it('opens a link once, only through the host, for a click, a middle click and a source', async () => {
    const page = await streamHostile();
    await page.click('.answer .markdown a[href="https://docs.acme.test/configuration"]');
    await page.click('.answer .markdown a[href="https://docs.acme.test/configuration"]', { button: 'middle' });
    await page.click('.sources a');
    const opened = (await h.posted('openLink')).map((m) => m.payload.url);
    assert.deepEqual(
      opened,
      ['https://docs.acme.test/configuration', 'https://docs.acme.test/configuration', `${DOCS}/configuration`],
      'one open per click, through the host',
    );
    assert.deepEqual(
      await page.evaluate(() => (window as unknown as { __vscodeOpened: string[] }).__vscodeOpened),
      [],
      'VS Code’s own handler never saw a link click',
    );
  });

  it('never puts a source URL that is not http(s) into an href', async () => {
    const page = await streamHostile({
      sources: [
        { url: 'javascript:alert(1)', title: 'Evil source' },
        { url: `${DOCS}/ok`, title: 'Fine' },
      ],
    });
    assert.equal(await page.locator('a[href^="javascript:" i]').count(), 0);
    assert.deepEqual(await page.locator('.sources a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))), [`${DOCS}/ok`]);
    assert.match(await page.locator('.sources').innerText(), /Evil source/, 'the source is still listed, as text');
  });

  it('shows raw HTML as text: an unclosed tag hides nothing after it', async () => {
    const page = await streamHostile();
    const shown = await page.locator('.answer .markdown').innerText();
    assert.ok(shown.includes(AFTER_UNCLOSED), 'the block after the unclosed tags is visible');
    assert.ok(shown.includes(LAST_BLOCK), 'and so is the last block');
    assert.ok(shown.includes('<math><mtext><table><mglyph><style>'), 'the tags themselves show as text');
    assert.equal(await page.locator('.answer .markdown :is(math, style, table, mglyph)').count(), 0);
  });

  it('lets nothing in an answer pose as the extension’s UI', async () => {
    const page = await streamHostile();
    const md = page.locator('.answer .markdown');
    assert.ok((await md.innerText()).includes(FAKE_BANNER), 'the fake banner’s words show, as plain text');
    // Our own structure (md-*), code block toolbars and chunks, and image placeholders are the only classes.
    const foreign = await md.evaluate((root) =>
      Array.from(root.querySelectorAll('*'))
        .filter((el) => {
          if (el.closest('.code-header') || el.closest('.image-placeholder')) return false;
          const ours = (c: string) =>
            /^(md-(group|tail|block)|code-block|language-[\w+#.-]+)$/.test(c) ||
            (c === 'code-chunk' && el.tagName === 'SPAN' && el.parentElement!.matches('.code-block > pre > code'));
          const cls = Array.from(el.classList).filter((c) => !ours(c));
          return (
            cls.length > 0 ||
            // A code block's <pre> is ours, and focusable so that a keyboard can scroll it (tabindex 0).
            ['id', 'role', 'hidden', 'style', 'tabindex'].some(
              (a) => el.hasAttribute(a) && !(a === 'tabindex' && el.matches('.code-block > pre[tabindex="0"]')),
            ) ||
            Array.from(el.attributes).some((a) => a.name.startsWith('data-') || a.name.startsWith('aria-'))
          );
        })
        .map((el) => el.outerHTML.slice(0, 80)),
    );
    assert.deepEqual(foreign, [], 'no class, id, role, hidden, style, data-* or aria-* from the answer');
    assert.equal(await md.locator('map, area, button:not(.code-header button):not(.image-placeholder), input, form, iframe').count(), 0);
  });

  it('Copy and Insert take a code block’s source text, and raw HTML makes no code block', async () => {
    const page = await streamHostile();
    assert.equal(await page.locator('.answer .code-block').count(), 1, 'only the fenced block is a code block');
    assert.ok((await page.locator('.answer .markdown').innerText()).includes(HIDDEN_COMMAND), 'the hidden command is in plain sight');
    await page.click('.answer .code-block [data-action="copyCode"]');
    await page.click('.answer .code-block [data-action="insertCode"]');
    assert.equal((await h.posted('copyCode'))[0]!.payload.code, `${CODE_SOURCE}\n`);
    assert.equal((await h.posted('insertCode'))[0]!.payload.code, `${CODE_SOURCE}\n`);
  });
});
