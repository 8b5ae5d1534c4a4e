import * as assert from 'node:assert/strict';
import { MAX_RENDER_INTERVAL_MS, MIN_RENDER_INTERVAL_MS, renderDue } from '../../src/webview/incremental';

// How often the growing answer is rendered, as a function of how fast its text arrives: ten
// times a second up to 300 characters a second, then less often as the pace rises, down to
// MAX_RENDER_INTERVAL_MS at four times that pace and above.

/** The interval at which a stream of `perSecond` characters gets rendered (first frame at which renderDue says yes). */
function intervalAt(perSecond: number): number {
  for (let t = 0; t <= 2000; t += 1000 / 60) if (renderDue(t, (perSecond / 1000) * t)) return Math.round(t);
  return Infinity;
}

describe('render cadence of a streaming answer', () => {
  it('renders ten times a second while the text arrives at reading pace or slower', () => {
    for (const pace of [5, 50, 150, 300]) assert.equal(intervalAt(pace), 100, `${pace} characters a second`);
  });

  it('renders less often as the pace rises above it, never less than every 400 ms', () => {
    assert.equal(intervalAt(600), 200);
    assert.equal(intervalAt(1200), 400);
    assert.equal(intervalAt(5000), 400);
    assert.equal(MAX_RENDER_INTERVAL_MS, 400);
  });

  it('never renders sooner than 100 ms after the last render, and always after 400 ms', () => {
    assert.equal(renderDue(MIN_RENDER_INTERVAL_MS - 1, 1), false);
    assert.equal(renderDue(MIN_RENDER_INTERVAL_MS - 1, 100_000), false);
    assert.equal(renderDue(MAX_RENDER_INTERVAL_MS, 1_000_000), true);
  });
});
