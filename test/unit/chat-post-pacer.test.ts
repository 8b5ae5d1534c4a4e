import assert from 'node:assert/strict';
import { POST_WINDOW_MS, postPacer } from '../../src/chat/core/postPacer';
import { FakeClock } from './fakeClock';

// The host's pace of posts to the webview: a paced stream goes out with no wait at all; a burst
// is held to at most two posts per 60 Hz frame, and a delta never waits while that allows it.

describe('postPacer: how often streaming updates are posted to the webview', () => {
  function setup() {
    const clock = new FakeClock();
    const schedule = postPacer({ now: () => clock.now(), later: (fn, ms) => void clock.setTimeout(fn, Math.max(0, ms)) });
    const posts: number[] = [];
    let pending = false;
    /** As ChatSession does: one post pending at a time, later updates fold into it. */
    const update = () => {
      if (pending) return;
      pending = true;
      schedule(() => {
        pending = false;
        posts.push(clock.now());
      });
    };
    return { clock, update, posts };
  }

  it('posts a delta that arrives every 15 ms at once, every time (no 16 ms grid to wait for)', async () => {
    const { clock, update, posts } = setup();
    const arrivals: number[] = [];
    for (let i = 0; i < 200; i++) {
      arrivals.push(clock.now());
      update();
      await clock.advance(15);
    }
    assert.equal(posts.length, 200);
    assert.deepEqual(posts, arrivals, 'each delta went out the moment it arrived');
  });

  it('holds a burst to two posts per frame, folding the deltas that come meanwhile', async () => {
    const { clock, update, posts } = setup();
    // 1,000 deltas over 100 ms: one every 0.1 ms.
    for (let i = 0; i < 1000; i++) {
      update();
      await clock.advance(0.1);
    }
    await clock.advance(POST_WINDOW_MS);
    assert.ok(posts.length <= 2 * Math.ceil(100 / POST_WINDOW_MS) + 2, `${posts.length} posts for 1,000 deltas`);
    assert.ok(posts.length >= 2 * Math.floor(100 / POST_WINDOW_MS) - 1, 'but the burst keeps flowing, two posts per frame');
    // No 16 ms window ever holds more than two posts.
    for (const start of posts) assert.ok(posts.filter((t) => t >= start && t < start + POST_WINDOW_MS).length <= 2, `posts ${posts.join(', ')}`);
  });

  it('a delta right behind a late one goes out at once; a third in the same frame waits for the window', async () => {
    const { clock, update, posts } = setup();
    update();
    await clock.advance(0);
    await clock.advance(20);
    update(); // a delta held up on its way in...
    await clock.advance(0);
    await clock.advance(3);
    update(); // ...and the next, on time, 3 ms behind it
    await clock.advance(0);
    assert.deepEqual(posts, [0, 20, 23], 'the second of two in a frame does not wait');
    await clock.advance(2);
    update(); // a third within 16 ms of the second
    await clock.advance(0);
    assert.deepEqual(posts, [0, 20, 23], 'not yet');
    await clock.advance(20 + POST_WINDOW_MS - 25);
    assert.deepEqual(posts, [0, 20, 23, 20 + POST_WINDOW_MS]);
    await clock.advance(500);
    update();
    await clock.advance(0);
    assert.deepEqual(posts, [0, 20, 23, 20 + POST_WINDOW_MS, 20 + POST_WINDOW_MS + 500]);
  });
});
