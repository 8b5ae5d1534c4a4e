import * as assert from 'node:assert/strict';
import type { TurnView } from '../../src/common/protocol';
import { COPIED_MS } from '../../src/webview/copied';
import { snapshotWith, withWebview } from './fixture';

// Issue 19, item 3: Copy on a finished answer asks the host for the whole answer as Markdown
// (text and sources, built on the host from the conversation it keeps), names only the turn,
// and says "Copied" for a moment once the host has written it. The button is named by the word
// it shows (issue 29); what it does in full is its tooltip and description (title).

function turn(id: string, status: TurnView['answer']['status'], text: string): TurnView {
  return {
    id,
    question: `Question ${id}`,
    context: [],
    answer: { parts: [{ kind: 'text', text }], sources: [{ url: 'https://docs.acme.test/relay', title: 'Relay' }], status, notices: [], jobs: [] },
  };
}

describe('chat webview: Copy an answer as Markdown', function () {
  this.timeout(60_000);
  const h = withWebview();

  it('each finished answer has a labelled Copy button that posts copyAnswer with its turn, then says Copied', async () => {
    const page = await h.open(snapshotWith({ turns: [turn('t1', 'done', 'First **answer**.'), turn('t2', 'done', 'Second.')] }));
    const buttons = page.locator('.answer-footer [data-action="copyAnswer"]');
    assert.equal(await buttons.count(), 2);
    const second = buttons.nth(1);
    assert.equal(await second.getAttribute('title'), 'Copy the answer as Markdown');
    assert.equal(await second.locator('.codicon-copy').count(), 1);
    assert.equal((await second.innerText()).trim(), 'Copy');
    await second.click();
    await page.waitForSelector('.turn[data-turn="t2"] [data-action="copyAnswer"][data-copied="true"]');
    const posted = await h.posted('copyAnswer');
    assert.deepEqual(
      posted.map((m) => m.payload),
      [{ turnId: 't2' }],
    );
    // Nothing else went out: the text itself is never sent back to the host.
    assert.equal((await h.posted('copyCode')).length, 0);
    assert.equal((await second.innerText()).trim(), 'Copied');
    assert.equal(await second.getAttribute('title'), 'Copied');
    assert.equal(await second.locator('.codicon-check').count(), 1);
    assert.equal(await page.textContent('[role="status"]'), 'Copied');
    // It goes back to Copy after a moment.
    await page.waitForTimeout(COPIED_MS + 300);
    assert.equal((await second.innerText()).trim(), 'Copy');
    assert.equal(await second.getAttribute('title'), 'Copy the answer as Markdown');
    assert.equal(await second.locator('.codicon-copy').count(), 1);
  });

  it('an answer still streaming, or one without text, has no Copy', async () => {
    const page = await h.open(snapshotWith({ turns: [turn('t1', 'streaming', 'So far'), turn('t2', 'error', '  ')], busy: true }));
    assert.equal(await page.locator('[data-action="copyAnswer"]').count(), 0);
  });
});
