import assert from 'node:assert/strict';
import { MIN_POST_GAP_MS, postPacer } from '../../src/chat/postPacer';
import { FakeClock } from './fakeClock';

// The host's pace of posts to the webview: a paced stream goes out with no wait at all; a burst
// is held to at most two posts per 60 Hz frame.

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

  it('holds a burst to one post per half frame, folding the deltas that come meanwhile', async () => {
    const { clock, update, posts } = setup();
    // 1,000 deltas over 100 ms: one every 0.1 ms.
    for (let i = 0; i < 1000; i++) {
      update();
      await clock.advance(0.1);
    }
    await clock.advance(MIN_POST_GAP_MS);
    assert.ok(posts.length <= Math.ceil(100 / MIN_POST_GAP_MS) + 1, `${posts.length} posts for 1,000 deltas`);
    assert.ok(posts.length >= 100 / MIN_POST_GAP_MS - 1, 'but the burst keeps flowing, one post per gap');
    for (let i = 1; i < posts.length; i++) assert.ok(posts[i]! - posts[i - 1]! >= MIN_POST_GAP_MS - 1e-9, `gap ${posts[i]! - posts[i - 1]!} ms`);
    // No 16 ms window ever holds more than two posts.
    for (const start of posts) assert.ok(posts.filter((t) => t >= start && t < start + 16).length <= 2);
  });

  it('a delta after a pause goes out at once; one right after a post waits only for the rest of the gap', async () => {
    const { clock, update, posts } = setup();
    update();
    await clock.advance(0);
    await clock.advance(3);
    update(); // 3 ms after the first post
    await clock.advance(0);
    assert.deepEqual(posts, [0], 'not yet');
    await clock.advance(MIN_POST_GAP_MS - 3);
    assert.deepEqual(posts, [0, MIN_POST_GAP_MS]);
    await clock.advance(500);
    update();
    await clock.advance(0);
    assert.deepEqual(posts, [0, MIN_POST_GAP_MS, MIN_POST_GAP_MS + 500]);
  });
});
