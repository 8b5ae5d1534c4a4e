import * as assert from 'node:assert/strict';
import { REQUEST_TIMEOUT_MS } from '../../src/common/requestBounds';
import { withWebview, snapshotWith } from './fixture';
import type { Posted } from './harness';

// Issue 28: a request the host never answers must not leave the chat page hanging, and a
// request the host refuses must not fail in silence. Past its bound (REQUEST_TIMEOUT_MS) a
// request fails and the line under the input box says so; a reply that comes later changes
// nothing. The page's clock is Playwright's, moved by the test: the bounds are the real ones.

const GAVE_UP = 'The Docs Assistant extension did not answer in time. Try again.';

describe('chat webview: a request the host does not answer, or refuses', function () {
  this.timeout(60_000);
  const h = withWebview();

  const hint = () => h.page.textContent('.composer-hint');
  /** Lets the page handle what is in flight (a reply, a timer that fell due). */
  const settle = () => h.page.evaluate(() => new Promise<void>((r) => setTimeout(r, 50)));
  /** Plays the host answering request `m` now. */
  const reply = (m: Posted, payload: unknown) =>
    h.page.evaluate(([id, p]) => window.postMessage({ kind: 'response', id, ok: true, payload: p }, '*'), [m.id, payload] as const);

  it('Send without a reply: after its bound the page says so and keeps the question; a late reply changes nothing', async () => {
    const page = await h.open(snapshotWith(), { silent: ['send'], clock: true });
    await page.fill('textarea.input', 'How do I rotate keys?');
    await page.press('textarea.input', 'Enter');
    const [sent] = await h.posted('send');
    assert.ok(sent);
    await page.clock.fastForward(REQUEST_TIMEOUT_MS.send! - 1_000);
    await settle();
    assert.equal(await hint(), '', 'not before the bound');
    await page.clock.fastForward(1_000);
    await settle();
    assert.equal(await hint(), GAVE_UP);
    assert.equal(await page.inputValue('textarea.input'), 'How do I rotate keys?');
    // The host's reply, too late: the request is gone, so the box is not cleared behind the user's back.
    await reply(sent, { accepted: true });
    await settle();
    assert.equal(await page.inputValue('textarea.input'), 'How do I rotate keys?');
    assert.equal(await hint(), GAVE_UP);
  });

  it('ready without a reply: the page says so and asks again, and renders when the host answers', async () => {
    const page = await h.open(snapshotWith(), { silent: ['ready'], clock: true });
    await page.waitForFunction(() => (window as unknown as { __posted: Posted[] }).__posted.some((m) => m.name === 'ready'));
    await page.clock.fastForward(REQUEST_TIMEOUT_MS.ready!);
    await settle();
    assert.equal(await hint(), GAVE_UP);
    const asked = await h.posted('ready');
    assert.equal(asked.length, 2, 'it asked again');
    assert.equal(await page.getAttribute('#app', 'aria-busy'), 'true', 'still nothing rendered');
    await reply(asked[1]!, snapshotWith({ title: 'Answered' }));
    await page.waitForSelector('#app[aria-busy="false"]');
    assert.equal(await hint(), '');
    // The first `ready`, answered now, is ignored: nothing is rendered twice, nothing throws.
    await reply(asked[0]!, snapshotWith({ turns: [] }));
    await settle();
    assert.equal((await h.posted('ready')).length, 2);
  });

  it('a refused request the page does not wait on is told, not dropped as an unhandled rejection', async () => {
    const chip = { id: 'c1', type: 'code' as const, path: 'src/a.ts', startLine: 1, endLine: 2, languageId: 'ts', value: 'x' };
    const page = await h.open(snapshotWith({ pendingContext: [chip] }), { refuse: { removeChip: 'That selection is gone.' } });
    await page.evaluate(() => {
      const w = window as unknown as { __rejections: string[] };
      w.__rejections = [];
      window.addEventListener('unhandledrejection', (e) => w.__rejections.push(String(e.reason)));
    });
    await page.click('.composer-chips [data-action="removeChip"]');
    await page.waitForFunction(() => document.querySelector('.composer-hint')?.textContent !== '');
    assert.equal(await hint(), 'That selection is gone.');
    assert.deepEqual(await page.evaluate(() => (window as unknown as { __rejections: string[] }).__rejections), []);
  });
});
