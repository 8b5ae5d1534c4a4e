import * as assert from 'node:assert/strict';
import type { WebviewRequestName } from '../../src/common/protocol';
import { IMAGE_FETCH_MS, REQUEST_TIMEOUT_MS } from '../../src/common/requestBounds';
import { NoReply, PendingRequests } from '../../src/webview/pendingRequests';
import { FakeClock, flush } from './fakeClock';

// Issue 28: a request the host never answers must not leave the page waiting for ever. Each
// request waits for its reply at most its bound in the protocol's one table, then fails with a
// message the page shows; the entry is gone, and a reply that comes later changes nothing.
// Requests that wait on the user (a dialog, an input box) have no bound.

const GAVE_UP = 'The Docs Assistant extension did not answer in time. Try again.';

function setup() {
  const clock = new FakeClock();
  const pending = new PendingRequests(clock, () => GAVE_UP);
  return { clock, pending };
}

/** What a promise has come to so far. */
function watch<T>(p: Promise<T>): { state: () => 'waiting' | 'resolved' | 'rejected'; value: () => unknown } {
  let state: 'waiting' | 'resolved' | 'rejected' = 'waiting';
  let value: unknown;
  p.then(
    (v) => ((state = 'resolved'), (value = v)),
    (e: unknown) => ((state = 'rejected'), (value = e)),
  );
  return { state: () => state, value: () => value };
}

describe('webview requests: a reply that never comes', () => {
  it('a request with no reply rejects once its bound has passed, not before, and leaves no entry', async () => {
    const { clock, pending } = setup();
    const bound = REQUEST_TIMEOUT_MS.send!;
    const { reply } = pending.start(bound);
    const r = watch(reply);
    await clock.advance(bound - 1);
    assert.equal(r.state(), 'waiting');
    assert.equal(pending.size, 1);
    await clock.advance(1);
    assert.equal(r.state(), 'rejected');
    assert.equal((r.value() as Error).message, GAVE_UP);
    assert.ok(r.value() instanceof NoReply, 'the page asks again only after no reply, never after a refusal');
    assert.equal(pending.size, 0);
    assert.equal(clock.pending, 0, 'no timer is left behind');
  });

  it('a reply after the bound is ignored: nothing throws, nothing resolves, nothing is kept', async () => {
    const { clock, pending } = setup();
    const { id, reply } = pending.start(REQUEST_TIMEOUT_MS.ready!);
    const r = watch(reply);
    await clock.advance(REQUEST_TIMEOUT_MS.ready!);
    pending.settle(id, { ok: true, payload: { late: true } });
    pending.settle(id, { ok: false, error: 'late too' });
    await flush();
    assert.equal(r.state(), 'rejected');
    assert.equal((r.value() as Error).message, GAVE_UP);
    assert.equal(pending.size, 0);
  });

  it('a reply in time settles the request and stops its timer', async () => {
    const { clock, pending } = setup();
    const a = pending.start(REQUEST_TIMEOUT_MS.copyAnswer);
    const b = pending.start(REQUEST_TIMEOUT_MS.removeChip);
    const ra = watch(a.reply);
    const rb = watch(b.reply);
    pending.settle(a.id, { ok: true, payload: { copied: true } });
    pending.settle(b.id, { ok: false, error: 'No such chip.' });
    await flush();
    assert.deepEqual([ra.state(), ra.value()], ['resolved', { copied: true }]);
    assert.deepEqual([rb.state(), (rb.value() as Error).message], ['rejected', 'No such chip.']);
    assert.ok(!(rb.value() instanceof NoReply));
    assert.equal(pending.size, 0);
    assert.equal(clock.pending, 0);
    await clock.advance(60_000);
    assert.equal(ra.state(), 'resolved');
  });

  it('a request that waits on the user has no bound: a dialog left open a day is still answered', async () => {
    const { clock, pending } = setup();
    const { id, reply } = pending.start(REQUEST_TIMEOUT_MS.fixInDocs);
    const r = watch(reply);
    await clock.advance(24 * 60 * 60 * 1000);
    assert.equal(r.state(), 'waiting');
    assert.equal(clock.pending, 0, 'no timer was set');
    pending.settle(id, { ok: true, payload: undefined });
    await flush();
    assert.equal(r.state(), 'resolved');
    assert.equal(pending.size, 0);
  });
});

describe('webview requests: the one table of bounds (src/common/protocol.ts)', () => {
  /** The requests whose host handler waits for the user (or for a whole answer): see the table's comments. */
  const WAITS_ON_USER: WebviewRequestName[] = ['openLink', 'runAction', 'fixInDocs', 'jobAction'];

  it('every other request has a finite bound of at least a few seconds', () => {
    for (const [name, ms] of Object.entries(REQUEST_TIMEOUT_MS) as [WebviewRequestName, number | null][]) {
      if (WAITS_ON_USER.includes(name)) assert.equal(ms, null, `${name} waits on the user: no bound`);
      else assert.ok(ms !== null && Number.isFinite(ms) && ms >= 5_000, `${name}: ${ms}`);
    }
  });

  it("loading an image waits longer than the host's own limit on fetching it", () => {
    assert.ok(REQUEST_TIMEOUT_MS.loadImage! > IMAGE_FETCH_MS);
  });
});
