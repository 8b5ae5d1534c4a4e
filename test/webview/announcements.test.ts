import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { ChatSnapshot, TurnView } from '../../src/common/protocol';
import { snapshotWith, withWebview } from './fixture';

// Issue 29, "one announcement per answer": a screen reader hears what the page's live regions
// (aria-live, role=status, alert or log) gain. The page used to be one live log that gained text on
// every render of a streaming answer, and an error re-added the whole conversation to it. Here an
// observer records every batch of mutations that adds text to a live region, as a screen reader
// would be told of it, while an answer streams, ends, or fails.

const ANSWER = [
  'Set **connectTimeout** on the relay.\n\n',
  'It defaults to 30 s; a longer one suits slow networks.\n\n',
  '```ts\nconst relay = new Relay({ connectTimeout: 60_000 });\nrelay.start();\n```\n\n',
  'Restart the relay after the change.\n',
].join('');

const question = 'How do I set the timeout?';

function turn(id: string, status: TurnView['answer']['status'], extra: Partial<TurnView['answer']> = {}): TurnView {
  return { id, question, context: [], answer: { parts: [], sources: [], status, notices: [], jobs: [], ...extra } };
}

/** Starts recording, in the page, each batch of mutations that adds text to a live region. */
async function recordAnnouncements(page: Page): Promise<void> {
  await page.evaluate(() => {
    const LIVE = '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]';
    const w = window as unknown as { __announced: string[] };
    w.__announced = [];
    const liveOf = (n: Node): Element | null => (n instanceof Element ? n : n.parentElement)?.closest(LIVE) ?? null;
    new MutationObserver((records) => {
      let added = '';
      for (const r of records) {
        if (r.type === 'characterData') {
          if (liveOf(r.target)) added += (r.target as CharacterData).data;
          continue;
        }
        for (const n of r.addedNodes) {
          // Text added inside a live region, or a live region added with its text.
          if (liveOf(r.target)) added += n.textContent ?? '';
          else if (n instanceof Element) for (const region of [...(n.matches(LIVE) ? [n] : []), ...n.querySelectorAll(LIVE)]) added += region.textContent ?? '';
        }
      }
      if (added.trim()) w.__announced.push(added.trim());
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

const announced = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { __announced: string[] }).__announced);

describe('chat webview: what a screen reader hears', function () {
  this.timeout(60_000);
  const h = withWebview();

  const earlier = turn('t0', 'done', { parts: [{ kind: 'text', text: 'An earlier answer about rate limits, long enough to be noticed if read again.' }] });

  async function ask(page: Page): Promise<void> {
    await recordAnnouncements(page);
    // What the host sends when the question is taken: the new turn, waiting, and the chat busy.
    await h.notify('snapshot', snapshotWith({ turns: [earlier, turn('t1', 'waiting')], busy: true }) satisfies ChatSnapshot);
    await h.rendered();
  }

  it('a streamed answer: busy while it streams, at most 3 announcements, the last one the answer once with its code summarised', async () => {
    const page = await h.open(snapshotWith({ turns: [earlier] }));
    await ask(page);
    await h.patch('t1', [{ op: 'setStatus', status: 'streaming' }]);
    await h.patch('t1', [{ op: 'setPart', part: 0, value: { kind: 'tool', toolName: 'searchDocs', query: 'timeout', state: 'running' } }]);
    await h.patch('t1', [{ op: 'setPart', part: 0, value: { kind: 'tool', toolName: 'searchDocs', query: 'timeout', state: 'done', resultCount: 2 } }]);
    await h.patch('t1', [{ op: 'setPart', part: 1, value: { kind: 'text', text: '' } }]);
    for (let i = 0; i < ANSWER.length; i += 6) {
      await h.patch('t1', [{ op: 'appendText', part: 1, text: ANSWER.slice(i, i + 6) }]);
      if (i % 60 === 0) await h.rendered();
    }
    await h.rendered();
    assert.equal(await page.getAttribute('.turn[data-turn="t1"] .answer', 'aria-busy'), 'true', 'the streaming answer is aria-busy');
    await h.patch('t1', [{ op: 'setSources', sources: [{ url: 'https://docs.acme.test/relay', title: 'Relay' }] }]);
    await h.patch('t1', [{ op: 'setStatus', status: 'done' }]);
    const final = turn('t1', 'done', { parts: [{ kind: 'text', text: ANSWER }], sources: [{ url: 'https://docs.acme.test/relay', title: 'Relay' }] });
    await h.notify('snapshot', snapshotWith({ turns: [earlier, final] }));
    await h.rendered();
    await page.waitForTimeout(300);

    assert.equal(await page.getAttribute('.turn[data-turn="t1"] .answer', 'aria-busy'), 'false', 'not busy once it has ended');
    const heard = await announced(page);
    assert.ok(heard.length >= 1 && heard.length <= 3, `1 to 3 announcements, not ${heard.length}: ${JSON.stringify(heard)}`);
    const last = heard.at(-1)!;
    assert.match(last, /Set connectTimeout on the relay\./);
    assert.match(last, /Restart the relay after the change\./);
    // Code is summarised, not read as prose.
    assert.doesNotMatch(last, /relay\.start\(\)/);
    assert.match(last, /code block/i);
    // The answer is read once, and nothing of the earlier turn is read again.
    assert.equal(heard.filter((x) => x.includes('Restart the relay')).length, 1);
    assert.ok(!heard.some((x) => x.includes('rate limits')), JSON.stringify(heard));
  });

  it('an error: one announcement, its message and its action, not the conversation', async () => {
    const page = await h.open(snapshotWith({ turns: [earlier] }));
    await ask(page);
    await h.patch('t1', [{ op: 'setStatus', status: 'streaming' }]);
    const error = { message: 'The docs service is busy.', kind: 'rate_limited', actions: ['retry' as const], retryAt: Date.now() + 5_000 };
    await h.patch('t1', [{ op: 'setStatus', status: 'error', error }]);
    await h.notify('snapshot', snapshotWith({ turns: [earlier, turn('t1', 'error', { error })] }));
    await h.rendered();
    // The retry countdown ticks each second: it must not be read each second.
    await page.waitForTimeout(2_200);

    const heard = await announced(page);
    const errors = heard.filter((x) => x.includes('The docs service is busy.'));
    assert.equal(errors.length, 1, JSON.stringify(heard));
    assert.match(errors[0]!, /Retry/);
    assert.ok(errors[0]!.length < 200, `the error alone, not the conversation: ${errors[0]}`);
    assert.ok(!heard.some((x) => x.includes('rate limits') || x.includes(question)), JSON.stringify(heard));
    assert.ok(heard.length <= 2, JSON.stringify(heard));
  });

  it('a job card that changes state is announced once', async () => {
    const job = (status: 'active' | 'completed') => ({
      jobId: 'j1',
      status,
      label: 'Fix the timeout docs',
      prLink: status === 'completed' ? 'https://git.acme.test/pr/12' : null,
    });
    const done = turn('t1', 'done', { parts: [{ kind: 'text', text: 'Answer.' }], jobs: [job('active')] });
    const page = await h.open(snapshotWith({ turns: [done] }));
    await recordAnnouncements(page);
    await h.patch('t1', [{ op: 'setJobs', jobs: [job('completed')] }]);
    await h.patch('t1', [{ op: 'setJobs', jobs: [job('completed')] }]);
    await h.rendered();
    const heard = await announced(page);
    // The change alone: the card's label and its new state, not the card read again with its buttons.
    assert.deepEqual(heard, ['Fix the timeout docs: completed']);
  });

  it('a preview that becomes ready on a finished job is announced once (issue 30 §2)', async () => {
    const card = { jobId: 'j1', status: 'completed' as const, label: 'Fix the timeout docs', prLink: 'https://git.acme.test/pr/12' };
    const done = turn('t1', 'done', { parts: [{ kind: 'text', text: 'Answer.' }], jobs: [card] });
    const page = await h.open(snapshotWith({ turns: [done] }));
    await recordAnnouncements(page);
    const ready = { ...card, previewUrl: 'https://preview.example.com/fix/' };
    await h.patch('t1', [{ op: 'setJobs', jobs: [ready] }]);
    await h.patch('t1', [{ op: 'setJobs', jobs: [ready] }]);
    await h.rendered();
    assert.deepEqual(await announced(page), ['Fix the timeout docs: completed, preview ready']);
  });

  it('a finished answer offers its Accessible View, which asks the host for that answer by its turn only', async () => {
    const done = turn('t1', 'done', { parts: [{ kind: 'text', text: 'Answer.' }] });
    const page = await h.open(snapshotWith({ turns: [earlier, done, turn('t2', 'streaming')], busy: true }));
    const buttons = page.locator('[data-action="accessibleView"]');
    // Each finished answer with text has one; the one still streaming has none yet.
    assert.equal(await buttons.count(), 2);
    const button = page.locator('.turn[data-turn="t1"] [data-action="accessibleView"]');
    assert.equal((await button.innerText()).trim(), 'Accessible View');
    // Named by its visible text (dom.ts iconButton); the tooltip says what it does.
    assert.equal(await button.getAttribute('title'), 'Open the answer in the Accessible View');
    await button.click();
    await page.waitForTimeout(100);
    assert.deepEqual(
      (await h.posted('openAccessibleView')).map((m) => m.payload),
      [{ turnId: 't1' }],
    );
  });
});
