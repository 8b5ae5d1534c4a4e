import * as assert from 'node:assert/strict';
import type { AnswerView, ChatSnapshot, ContextChip, TurnView } from '../../src/common/protocol';
import { snapshotWith, withWebview } from './fixture';

// Focus in the chat page, driven by the keyboard only: after each action, focus is on something
// meaningful (the input box, the next chip, the control it was on), never the page's <body>.
// VS Code's part (giving the webview focus back after a link opened, Focus on Ask Docs View) is
// played here by what it does to the page: the page's focus goes, then its window gets `focus`.

function answer(extra: Partial<AnswerView> = {}): AnswerView {
  return { parts: [{ kind: 'text', text: 'Set `timeout` in acme.config.ts.' }], sources: [], status: 'done', notices: [], jobs: [], ...extra };
}

function turn(id: string, question: string, extra: Partial<AnswerView> = {}): TurnView {
  return { id, question, context: [], answer: answer(extra) };
}

const SOURCES = [
  { url: 'https://docs.acme.test/configuration', title: 'Configuration reference' },
  { url: 'https://docs.acme.test/faq', title: 'FAQ' },
];

function chip(id: string, startLine: number): ContextChip {
  return { id, type: 'code', value: 'const x = 1;', path: 'src/relay.ts', startLine, endLine: startLine + 2 };
}

describe('focus and keyboard in the chat webview (Chromium)', function () {
  this.timeout(60_000);
  const h = withWebview();

  /** What has focus: a short description that names the element, so a failure says where focus went. */
  function focused(): Promise<string> {
    return h.page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return 'body';
      const d = (el as HTMLElement).dataset;
      const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? '';
      const turn = el.closest<HTMLElement>('[data-turn]')?.dataset.turn ?? '';
      return [el.tagName.toLowerCase(), d.action ?? '', d.chip ?? '', turn, el.getAttribute('href') ?? '', name].filter(Boolean).join(' ');
    });
  }

  const INPUT = 'textarea Ask the docs';

  /** VS Code takes focus away (a link opens, a dialog) and later gives the webview focus back. */
  async function leaveAndComeBack(): Promise<void> {
    await h.page.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
      window.dispatchEvent(new FocusEvent('focus'));
    });
    await h.page.waitForTimeout(50);
  }

  /** The host sends a snapshot, and the page has rendered it (postMessage is delivered later). */
  async function snapshot(s: ChatSnapshot): Promise<void> {
    await h.notify('snapshot', s);
    await h.rendered();
  }

  async function focusOn(selector: string): Promise<void> {
    await h.page.locator(selector).first().focus();
  }

  it('Send by its button leaves focus in the input box', async () => {
    const page = await h.open(snapshotWith());
    await focusOn('textarea');
    await page.keyboard.type('How do I set the timeout?');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'button Send');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (document.querySelector('textarea') as HTMLTextAreaElement).value === '');
    assert.equal(await focused(), INPUT);
  });

  it('Stop leaves focus in the input box, also once the answer has stopped', async () => {
    const busy = snapshotWith({ busy: true, turns: [turn('t1', 'How do I set the timeout?', { status: 'streaming' })] });
    await h.open(busy);
    await focusOn('button.send');
    assert.equal(await focused(), 'button Stop');
    await h.page.keyboard.press('Enter');
    assert.equal((await h.posted('stop')).length, 1);
    await snapshot(snapshotWith({ turns: [turn('t1', 'How do I set the timeout?', { status: 'stopped' })] }));
    assert.equal(await focused(), INPUT);
  });

  it('removing a chip moves focus to the next chip, and from the last one to the input box', async () => {
    await h.open(snapshotWith({ pendingContext: [chip('a', 1), chip('b', 10)] }));
    await focusOn('[data-action="removeChip"][data-chip="a"]');
    await h.page.keyboard.press('Enter');
    assert.deepEqual(
      (await h.posted('removeChip')).map((m) => m.payload),
      [{ chipId: 'a' }],
    );
    await snapshot(snapshotWith({ pendingContext: [chip('b', 10)] }));
    assert.match(await focused(), /^button removeChip b /);
    await h.page.keyboard.press('Enter');
    assert.equal((await h.posted('removeChip')).length, 2);
    await snapshot(snapshotWith());
    assert.equal(await focused(), INPUT);
  });

  it("an error's action leaves focus in the input box while the error goes away", async () => {
    const error = { message: 'The service is busy.', kind: 'rateLimited', actions: ['retry' as const, 'newConversation' as const] };
    await h.open(snapshotWith({ turns: [turn('t1', 'Why?', { status: 'error', error })] }));
    await focusOn('.error [data-action_name="retry"]');
    await h.page.keyboard.press('Enter');
    assert.equal((await h.posted('runAction')).length, 1);
    assert.equal(await focused(), INPUT);
    await snapshot(snapshotWith({ busy: true, turns: [turn('t1', 'Why?', { status: 'waiting', parts: [] })] }));
    assert.equal(await focused(), INPUT);
  });

  it('after a source link opens, focus comes back to that link, even when the answer was rebuilt meanwhile', async () => {
    await h.open(snapshotWith({ turns: [turn('t1', 'How do I set the timeout?', { sources: SOURCES })] }));
    await focusOn('.sources a[href="https://docs.acme.test/faq"]');
    await h.page.keyboard.press('Enter');
    assert.deepEqual(
      (await h.posted('openLink')).map((m) => m.payload),
      [{ url: 'https://docs.acme.test/faq' }],
    );
    await leaveAndComeBack();
    assert.match(await focused(), /^a t1 https:\/\/docs\.acme\.test\/faq/);
    // A snapshot whose answer differs rebuilds the turn: the same link in the new DOM gets focus.
    await snapshot(snapshotWith({ turns: [turn('t1', 'How do I set the timeout?', { sources: SOURCES, notices: ['1 chunk skipped'] })] }));
    assert.match(await focused(), /^a t1 https:\/\/docs\.acme\.test\/faq/);
  });

  it('a webview given focus with nothing focused inside (Focus on Ask Docs View) focuses the input box', async () => {
    await h.open(snapshotWith({ turns: [turn('t1', 'How do I set the timeout?')] }));
    await leaveAndComeBack();
    assert.equal(await focused(), INPUT);
  });

  it('Ctrl+Up/Down move from the input box to the answers, between them, and back', async () => {
    await h.open(snapshotWith({ turns: [turn('t1', 'First question', { sources: SOURCES }), turn('t2', 'Second question')] }));
    await focusOn('textarea');
    await h.page.keyboard.press('Control+ArrowUp');
    assert.equal(await focused(), 'article t2 Question: Second question');
    await h.page.keyboard.press('Control+ArrowUp');
    assert.equal(await focused(), 'article t1 Question: First question');
    // Inside an answer, Tab reaches its sources, then its actions.
    await h.page.keyboard.press('Tab');
    assert.match(await focused(), /^a t1 https:\/\/docs\.acme\.test\/configuration/);
    await h.page.keyboard.press('Control+ArrowDown');
    assert.equal(await focused(), 'article t2 Question: Second question');
    await h.page.keyboard.press('Control+ArrowDown');
    assert.equal(await focused(), INPUT);
  });

  it('Ctrl+Up leaves the input box for the last answer even with earlier questions to recall; a plain Up recalls them', async () => {
    const turns = [turn('t1', 'First question'), turn('t2', 'Second question')];
    await h.open(snapshotWith({ turns, inputHistory: ['First question', 'Second question'] }));
    await focusOn('textarea');
    await h.page.keyboard.press('Control+ArrowUp');
    assert.equal(await focused(), 'article t2 Question: Second question');
    await h.page.keyboard.press('Control+ArrowDown');
    assert.equal(await focused(), INPUT);
    assert.equal(await h.page.inputValue('textarea'), '', 'Ctrl+Up did not recall a question into the box');
    await h.page.keyboard.press('ArrowUp');
    assert.equal(await h.page.inputValue('textarea'), 'Second question');
  });

  it('Tab from the input box goes round the page, not out of it; Shift+Tab back', async () => {
    await h.open(snapshotWith({ turns: [turn('t1', 'First question', { sources: SOURCES })] }));
    await focusOn('textarea');
    // With an empty box, Send is disabled: the input box is the page's last Tab stop.
    await h.page.keyboard.press('Tab');
    assert.notEqual(await focused(), 'body');
    assert.match(await focused(), /^div Conversation/);
    await h.page.keyboard.press('Shift+Tab');
    assert.equal(await focused(), INPUT);
  });

  // The focus keeper runs around every patch of a streaming answer. It once asked the whole page
  // for the focused control's peers each time, even for the input box, which has none: a walk of
  // every element per patch, the most costly step of a streamed answer in the render bench.
  it('a streamed patch does not walk the page for focus, wherever focus is', async () => {
    const long = Array.from({ length: 400 }, (_, i) => `Word **${i}** and [link ${i}](https://docs.acme.test/p${i}).`).join(' ');
    await h.open(
      snapshotWith({
        busy: true,
        turns: [turn('t1', 'How do I set the timeout?', { status: 'streaming', parts: [{ kind: 'text', text: long }], sources: SOURCES })],
      }),
    );
    for (const where of ['textarea', 'article[data-turn="t1"] .answer a[href]']) {
      await focusOn(where);
      await h.page.evaluate(() => {
        const w = window as unknown as { __walks: number };
        w.__walks = 0;
        const own = Document.prototype.querySelectorAll;
        Document.prototype.querySelectorAll = function (this: Document, ...args: [string]) {
          w.__walks++;
          return own.apply(this, args);
        } as typeof own;
      });
      for (let i = 0; i < 20; i++) await h.patch('t1', [{ op: 'appendText', part: 0, text: ` more${i}` }]);
      const walks = await h.page.evaluate(() => (window as unknown as { __walks: number }).__walks);
      assert.equal(walks, 0, `focus on ${where}: ${walks} page-wide queries in 20 patches`);
      assert.notEqual(await focused(), 'body');
    }
  });
});
