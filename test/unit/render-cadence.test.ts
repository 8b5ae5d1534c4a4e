import * as assert from 'node:assert/strict';
import { MAX_RENDER_INTERVAL_MS, MIN_RENDER_INTERVAL_MS, PaceMeter, renderDue } from '../../src/webview/cadence';
import { seededRandom as seeded } from '../fixtures/streams';

// How often the growing answer is rendered, as a function of how fast its text arrives: ten
// times a second up to 300 characters a second, then less often as the pace rises, down to
// MAX_RENDER_INTERVAL_MS at four times that pace and above. The pace is measured over the last
// second, so uneven deltas do not pull renders forward.

const FRAME = 1000 / 60;

/** The intervals between renders of a stream whose frame `i` brings `deltaAt(i)` characters, driven as the renderer drives them. */
function renderIntervals(frames: number, deltaAt: (i: number) => number): number[] {
  const meter = new PaceMeter();
  let length = 0;
  let last = -Infinity;
  const intervals: number[] = [];
  for (let i = 1; i <= frames; i++) {
    const time = i * FRAME;
    length += deltaAt(i);
    if (renderDue(time - last, meter.sample(time, length))) {
      if (last > 0) intervals.push(Math.round(time - last));
      last = time;
    }
  }
  return intervals;
}

/** The interval at which a steady stream of `perSecond` characters gets rendered, once the meter has a second of history. */
function intervalAt(perSecond: number): number {
  return renderIntervals(300, () => (perSecond / 1000) * FRAME).at(-1)!;
}

describe('render cadence of a streaming answer', () => {
  it('renders ten times a second while the text arrives at 300 characters a second or slower', () => {
    for (const pace of [5, 50, 150, 300]) assert.equal(intervalAt(pace), 100, `${pace} characters a second`);
  });

  it('renders less often as the pace rises above it, never less than every 400 ms', () => {
    assert.equal(intervalAt(600), 200);
    assert.equal(intervalAt(1200), 400);
    assert.equal(intervalAt(5000), 400);
    assert.equal(MAX_RENDER_INTERVAL_MS, 400);
  });

  it('never renders sooner than 100 ms after the last render, and always after 400 ms', () => {
    assert.equal(renderDue(MIN_RENDER_INTERVAL_MS - 1, 0.001), false);
    assert.equal(renderDue(MIN_RENDER_INTERVAL_MS - 1, 1000), false);
    assert.equal(renderDue(MAX_RENDER_INTERVAL_MS, 1000), true);
  });

  it('keeps the 400 ms cadence of a fast stream whose deltas come in uneven sizes', () => {
    // 1,200 characters a second on average, in deltas of 0 to 40 characters per frame.
    const rnd = seeded(11);
    const intervals = renderIntervals(60 * 30, () => Math.floor(rnd() * 41));
    const sorted = [...intervals].sort((a, b) => a - b);
    assert.equal(sorted[Math.floor(sorted.length / 2)], 400);
    assert.ok(sorted[Math.floor(sorted.length / 10)]! >= 350, `10th percentile ${sorted[Math.floor(sorted.length / 10)]} ms`);
  });

  it('measures the pace over the last second, so a burst after a pause renders promptly', () => {
    const meter = new PaceMeter();
    assert.equal(meter.sample(0, 0), 0);
    assert.equal(meter.sample(500, 600), 1.2);
    assert.equal(meter.sample(1000, 1200), 1.2);
    // Half a second later, the window is the last second: 600 characters in it.
    assert.equal(meter.sample(1500, 1800), 1.2);
    // A five-second pause, then a burst of 100 characters: the pace over the pause is low.
    assert.ok(meter.sample(6500, 1900) < 0.05);
    assert.equal(renderDue(MIN_RENDER_INTERVAL_MS, meter.sample(6500 + MIN_RENDER_INTERVAL_MS, 1950)), true);
    meter.reset();
    assert.equal(meter.sample(7000, 10), 0);
  });
});
