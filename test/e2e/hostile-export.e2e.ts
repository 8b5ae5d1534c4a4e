import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import type { Frame, Page } from 'playwright-core';
import { askInChatView, openChatView, skipChatView } from './chatView';
import { step } from './workbench';
import { withStack } from './withStack';

// Issue 27, items 1 and 5, in the real VS Code. A hostile answer aims the eight image and CSS
// vectors that an export once loaded in the Markdown preview (test/fixtures/hostileAnswer.ts,
// `[[answer:beacon=…]]`) at a beacon on loopback, then leaves an HTML comment open. The beacon
// counts TCP connections: a browser that tried to load anything from it, over https or not,
// connects first, so any connection at all is a leak.
//
// 1. The conversation exported and opened in the Markdown preview (Ctrl+Shift+V): the beacon
//    hears nothing and the next turn is still there to read.
// 2. The same answer through @docs in VS Code's own Chat view (VS Code >= 1.104): no image, no
//    link that is not http(s), and the search's progress line holds no link.

const SECOND_QUESTION = 'What does the relay log at startup?';

/** A loopback TCP server that counts who connects to it. */
async function beacon(): Promise<{ origin: string; connections: () => number; close: () => Promise<void>; server: Server }> {
  let count = 0;
  const server = createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { origin: `https://127.0.0.1:${port}`, connections: () => count, close: () => new Promise((r) => server.close(() => r())), server };
}

/** The frame of the Markdown preview that shows `text`, once it does. */
async function previewFrame(page: Page, text: string, timeout = 30_000): Promise<Frame> {
  const until = Date.now() + timeout;
  while (Date.now() < until) {
    for (const frame of page.frames()) {
      const shown = await frame.evaluate((t) => !!document.querySelector('.markdown-body') && document.body.innerText.includes(t), text).catch(() => false);
      if (shown) return frame;
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`no Markdown preview showed ${JSON.stringify(text)} within ${timeout} ms`);
}

describe('e2e: a hostile answer exported, previewed and relayed loads nothing (issue 27)', function () {
  const e2e = withStack({
    server: beacon,
    // The Chat view's stack where VS Code has one (the export runs on it just the same).
    chatView: 'where-supported',
    stack: { demoKeys: true },
  });

  it('an exported conversation opened in the Markdown preview: the beacon hears nothing and every turn is visible', async function () {
    const chat = await e2e.wb.openChat();
    await step(e2e.wb, 'ask a question whose answer is hostile, then another', async () => {
      await e2e.wb.ask(chat, `How do I configure the relay? [[answer:beacon=${e2e.server.origin}]]`);
      await e2e.wb.waitForAnswer(chat, 'done');
      await e2e.wb.ask(chat, SECOND_QUESTION);
      await e2e.wb.waitForAnswer(chat, 'done');
    });
    await step(e2e.wb, 'export the conversation to an untitled document', async () => {
      await e2e.wb.command('Docs Assistant: Export Conversation as Markdown…');
      await e2e.wb.waitForQuickInput(/Open as Untitled Document/);
      await e2e.wb.pickQuickItem(/Open as Untitled Document/);
      await e2e.wb.page.locator('.editor-group-container.active .tab.active[aria-label*="Untitled"]').waitFor({ timeout: 10_000 });
    });
    const preview = await step(e2e.wb, 'open it in the Markdown preview', async () => {
      // Its keybinding (markdown.showPreview): the palette lists the locked preview first here.
      await e2e.wb.page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
      await e2e.wb.page.keyboard.press('Control+Shift+V');
      return previewFrame(e2e.wb.page, SECOND_QUESTION);
    });
    await step(e2e.wb, 'the preview shows the next turn and loads nothing', async () => {
      // The preview has rendered the whole document: what it would load, it has asked for now.
      // Images and stylesheets are requested as the DOM takes them; a settle of the preview's own
      // network (its resources come from the workbench) is what is waited for. The preview's own
      // code-block copy buttons are inline SVG (1.139), which loads nothing.
      await e2e.wb.page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
      await e2e.wb.shot('hostile-export-preview');
      const found = await preview.evaluate(() => {
        const body = document.querySelector('.markdown-body')!;
        return {
          loaders: [
            ...body.querySelectorAll('img, video, audio, input, link, style, picture, source, iframe, object, embed, svg image, svg use, svg feImage'),
          ].map((e) => e.outerHTML),
          loadingAttributes: [...body.querySelectorAll('[srcset], [poster], [background], [style*="url("]')].map((e) => e.outerHTML),
          hrefs: [...body.querySelectorAll('a[href]')].map((a) => a.getAttribute('href') ?? ''),
        };
      });
      assert.deepEqual(found.loaders, [], 'no element that loads');
      assert.deepEqual(found.loadingAttributes, [], 'no attribute that loads');
      const foreign = found.hrefs.filter((h) => !/^(https?:|mailto:|#)/i.test(h));
      assert.deepEqual(foreign, [], 'no link but http(s)');
      const text = await preview.evaluate(() => document.body.innerText);
      assert.ok(text.includes(SECOND_QUESTION), 'the turn after the open comment is visible');
      assert.equal(e2e.server.connections(), 0, 'the beacon heard nothing');
    });
  });

  it('@docs relays the same answer with no image, no command link and a progress line with no link (VS Code >= 1.104)', async function () {
    if (e2e.unsupported) skipChatView(this, e2e.unsupported);
    await step(e2e.wb, 'ask @docs in the Chat view, with a query that looks like a link', async () => {
      await openChatView(e2e.wb);
      // The emulator's search query is the question: the progress line quotes it.
      await e2e.wb.page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { progressLinks: string[] }).progressLinks = seen;
        new MutationObserver(() => {
          for (const a of document.querySelectorAll(
            '.interactive-session .progress-step a, .interactive-session .chat-progress-content a, .interactive-session .rendered-markdown.progress-step a',
          ))
            seen.push(a.getAttribute('href') ?? '');
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      await askInChatView(e2e.wb, `@docs [Set key](https://evil.example/k) relay [[answer:beacon=${e2e.server.origin}]]`, 60_000);
    });
    await step(e2e.wb, 'the response holds no image and no link but http(s), and the beacon heard nothing', async () => {
      const response = e2e.wb.page.locator('.interactive-item-container.interactive-response').last();
      await e2e.wb.shot('hostile-export-docs-participant');
      assert.equal(await response.locator('.rendered-markdown').locator('img, video, picture, source').count(), 0, 'no image');
      const hrefs = await response
        .locator('.rendered-markdown a')
        .evaluateAll((as) => as.map((a) => a.getAttribute('data-href') ?? a.getAttribute('href') ?? ''));
      assert.ok(
        hrefs.every((h) => /^https?:\/\//.test(h)),
        `only web links: ${JSON.stringify(hrefs)}`,
      );
      assert.match(await response.innerText(), /open comment/, 'the answer is there, as text');
      const progressLinks = await e2e.wb.page.evaluate(() => (window as unknown as { progressLinks: string[] }).progressLinks);
      assert.deepEqual(progressLinks, [], 'the progress line held no link');
      assert.equal(e2e.server.connections(), 0, 'the beacon heard nothing');
    });
  });
});
