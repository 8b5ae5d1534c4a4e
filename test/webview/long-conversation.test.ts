import * as assert from 'node:assert/strict';
import type { TurnView } from '../../src/common/protocol';
import { snapshotWith, withWebview } from './fixture';

// A long conversation stays light (issue 33): opening one draws the answers on screen, not all
// of them; an answer scrolled to, or reached by Ctrl+↑, is drawn then, with nothing lost.

const TURNS = 300;

function longTurn(i: number): TurnView {
  const text = [
    `## Answer ${i}`,
    `Set \`timeout${i}\` in **acme.config.ts**. The relay reads it at start-up.`,
    ...Array.from({ length: 6 }, (_, k) => `- item ${k} of answer ${i}, with [a link](https://docs.acme.test/p${k})`),
    '```ts',
    ...Array.from({ length: 8 }, (_, k) => `const value${k} = ${i * k};`),
    '```',
    `The end of answer ${i}.`,
  ].join('\n');
  return {
    id: `t${i}`,
    question: `Question ${i}?`,
    context: [],
    answer: { parts: [{ kind: 'text', text }], sources: [], status: 'done', notices: [], jobs: [] },
  };
}

describe('a long conversation in the chat webview (Chromium)', function () {
  this.timeout(60_000);
  const h = withWebview();

  const drawn = () => h.page.locator('.turn .markdown h2').count();

  it('opens with the newest answers drawn and the rest waiting, every question listed', async () => {
    await h.open(snapshotWith({ turns: Array.from({ length: TURNS }, (_, i) => longTurn(i)) }));
    await h.rendered();
    assert.equal(await h.page.locator('article.turn').count(), TURNS, 'every turn is in the transcript, named by its question');
    const n = await drawn();
    assert.ok(n > 0 && n < 30, `only the answers near the view are drawn at first: ${n} of ${TURNS}`);
    assert.match((await h.page.locator('article.turn').last().textContent())!, /The end of answer 299\./);
  });

  it('draws an answer when it is scrolled to, and one reached by Ctrl+↑ from the input box', async () => {
    await h.open(snapshotWith({ turns: Array.from({ length: TURNS }, (_, i) => longTurn(i)) }));
    await h.rendered();
    await h.page.evaluate(() => {
      document.querySelector('.transcript')!.scrollTop = 0;
    });
    await h.page.waitForFunction(() => /The end of answer 0\./.test(document.querySelector('article.turn')!.textContent ?? ''), undefined, { timeout: 5000 });
    // Text drawn late is the same text: its code block and links are there.
    const first = h.page.locator('article.turn').first();
    assert.equal(await first.locator('pre code').count(), 1);
    assert.equal(await first.locator('a[href="https://docs.acme.test/p5"]').count(), 1);

    await h.page.locator('textarea').focus();
    for (let i = 0; i < 3; i++) await h.page.keyboard.press('Control+ArrowUp');
    const focused = await h.page.evaluate(() => (document.activeElement as HTMLElement).dataset.turn);
    assert.equal(focused, 't297');
    await h.page.waitForFunction(() => /The end of answer 297\./.test(document.querySelector('article[data-turn="t297"]')!.textContent ?? ''));
  });

  it('an older turn out of view skips layout; the newest three never do, so the newest answer reads whole wherever the view is', async () => {
    // A chat view squeezed to a few lines by the views around it, as in the e2e.
    await h.open(snapshotWith({ turns: Array.from({ length: 20 }, (_, i) => longTurn(i)) }), { height: 160 });
    await h.rendered();
    await h.page.evaluate(() => {
      document.querySelector('.transcript')!.scrollTop = 0;
    });
    // Two frames: content-visibility decides what is skipped at the next layout.
    await h.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const visibility = await h.page.locator('article.turn').evaluateAll((turns) => turns.map((t) => getComputedStyle(t).contentVisibility));
    assert.deepEqual(visibility.slice(-3), ['visible', 'visible', 'visible'], 'the newest three turns are always laid out');
    assert.ok(
      visibility.slice(0, -3).every((v) => v === 'auto'),
      `the older turns skip layout out of view: ${JSON.stringify(visibility)}`,
    );
    assert.match(
      await h.page.locator('article.turn').last().innerText(),
      /The end of answer 19\./,
      'the newest answer reads whole from the top of the conversation',
    );
  });
});
