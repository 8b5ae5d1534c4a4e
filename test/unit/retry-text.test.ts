import * as assert from 'node:assert/strict';
import { retryIsDue, retryText } from '../../src/webview/retryText';

// The chat's countdown once a 429 said when to come back (issue 16: it showed "Infinity s").

describe('retry countdown text', () => {
  const now = Date.parse('2026-11-23T14:00:00Z');

  it('counts seconds while the wait is short, then names a time of day', () => {
    assert.equal(retryText(now + 7_000, now), 'Try again in 7 s');
    assert.equal(retryText(now + 90_000, now), 'Try again in 90 s');
    const later = retryText(now + 45 * 60_000, now);
    assert.match(later, /^Try again after \d{1,2}[:.]\d{2}/);
    assert.ok(later.includes(new Date(now + 45 * 60_000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })));
  });

  it('never shows Infinity or NaN, and says when the wait is over', () => {
    for (const at of [Infinity, NaN, now + 1e15]) assert.doesNotMatch(retryText(at, now), /Infinity|NaN/);
    assert.equal(retryText(now - 1, now), 'You can try again now');
    assert.equal(retryIsDue(now - 1, now), true, 'and the countdown stops');
    assert.equal(retryIsDue(now + 1_000, now), false);
  });
});
