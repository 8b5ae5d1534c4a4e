// How often the host posts streaming updates to the webview. A burst of deltas (a fast model, or
// a network read that held many) must not become thousands of postMessage calls; a paced stream
// must not wait for anything. Posts are spaced at least half a frame apart, counted from the last
// post rather than on a fixed 16 ms grid: on a grid, a delta that arrives 15 ms after the one
// before can land in the same slot and wait for the slot to end, for no reason a user could see.
// Two posts per 60 Hz frame at most; the webview renders them in one frame anyway.

export const MIN_POST_GAP_MS = 8;

export interface PostTimers {
  now(): number;
  /** Runs `fn` after `ms`; at once (after the current I/O callback) when `ms` is 0 or less. */
  later(fn: () => void, ms: number): void;
}

const REAL_TIMERS: PostTimers = {
  now: () => performance.now(),
  later: (fn, ms) => void (ms > 0 ? setTimeout(fn, ms) : setImmediate(fn)),
};

/**
 * Returns `schedule(fn)`: runs `fn` as soon as the last post is MIN_POST_GAP_MS old. The caller
 * keeps at most one `fn` pending and folds everything that arrives meanwhile into it.
 */
export function postPacer(timers: PostTimers = REAL_TIMERS): (fn: () => void) => void {
  let lastPost = -Infinity;
  return (fn) =>
    timers.later(() => {
      lastPost = timers.now();
      fn();
    }, lastPost + MIN_POST_GAP_MS - timers.now());
}
