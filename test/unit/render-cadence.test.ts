import * as assert from 'node:assert/strict';
import { RENDER_INTERVAL_MS, renderDue } from '../../src/webview/cadence';
import { seededRandom as seeded } from '../fixtures/streams';

// How often the growing answer is rendered: ten times a second whatever the pace (issue 21: at
// a fast pace it used to render every 400 ms, the text arriving several lines at a time), on a
// 60 Hz frame clock every sixth frame, never a seventh; the first render at once.

const FRAME = 1000 / 60;

/** The intervals between renders of a stream whose frame `i` brings `deltaAt(i)` characters, driven as the renderer drives them. */
function renderIntervals(frames: number, deltaAt: (i: number) => number): number[] {
  let length = 0;
  let shown = 0;
  let last = -Infinity;
  const intervals: number[] = [];
  for (let i = 1; i <= frames; i++) {
    const time = i * FRAME;
    length += deltaAt(i);
    if (length > shown && renderDue(time - last)) {
      if (last > 0) intervals.push(Math.round(time - last));
      last = time;
      shown = length;
    }
  }
  return intervals;
}

describe('render cadence of a streaming answer', () => {
  it('renders ten times a second at every pace, from 5 to 5,000 characters a second', () => {
    for (const perSecond of [5, 50, 300, 1200, 5000]) {
      const intervals = renderIntervals(600, () => (perSecond / 1000) * FRAME);
      // At 5 characters a second a frame brings a twelfth of one; every frame has something at the others.
      const expected = perSecond < 60 ? Math.max(100, Math.ceil(1000 / perSecond / FRAME) * FRAME) : 100;
      for (const ms of intervals) assert.ok(ms <= Math.round(expected) + 1, `${perSecond} characters a second: ${ms} ms between renders`);
      if (perSecond >= 60) assert.deepEqual(new Set(intervals), new Set([100]), `${perSecond} characters a second`);
    }
  });

  it('keeps ten renders a second when deltas come in uneven sizes and gaps', () => {
    const rnd = seeded(11);
    const intervals = renderIntervals(60 * 30, () => (rnd() < 0.3 ? 0 : Math.floor(rnd() * 41)));
    assert.ok(Math.max(...intervals) <= 150, `longest gap ${Math.max(...intervals)} ms`);
    assert.ok(intervals.filter((ms) => ms === 100).length > intervals.length * 0.9);
  });

  it('renders the first text at once, and never sooner than a frame short of the interval after a render', () => {
    assert.equal(renderDue(Infinity), true);
    assert.equal(renderDue(RENDER_INTERVAL_MS - FRAME), false);
    assert.equal(renderDue(6 * FRAME - 0.5), true);
    assert.equal(RENDER_INTERVAL_MS, 100);
  });
});
