// How often the host posts streaming updates to the webview. A burst of deltas (a fast model, or
// a network read that held many) must not become thousands of postMessage calls; a paced stream
// must not wait for anything. At most POSTS_PER_WINDOW posts go out in any POST_WINDOW_MS (two per
// 60 Hz frame; the webview renders them in one frame anyway), and a post goes out at once when
// that allows it. A fixed gap between posts would not do: when one delta is held up on its way
// in (the machine was busy), the next one arrives right behind it and would wait out the gap, for
// no reason a user could see. A fixed 16 ms grid is worse still: a delta can land just after a
// slot opened and wait for it to end.

export const POST_WINDOW_MS = 16;
export const POSTS_PER_WINDOW = 2;

export interface PostTimers {
  now(): number;
  /** Runs `fn` after `ms`; at once (after the current I/O callback) when `ms` is 0 or less. */
  later(fn: () => void, ms: number): void;
}

// setImmediate runs after the current I/O callback in Node; a browser's extension host (a web
// worker) has none, and a 0 ms setTimeout is the nearest it has.
const runSoon: (fn: () => void) => void =
  typeof globalThis.setImmediate === 'function' ? (fn) => void globalThis.setImmediate(fn) : (fn) => void setTimeout(fn, 0);

const REAL_TIMERS: PostTimers = {
  now: () => performance.now(),
  later: (fn, ms) => void (ms > 0 ? setTimeout(fn, ms) : runSoon(fn)),
};

/**
 * Returns `schedule(fn)`: runs `fn` as soon as a post fits in the window. The caller keeps at
 * most one `fn` pending and folds everything that arrives meanwhile into it.
 */
export function postPacer(timers: PostTimers = REAL_TIMERS): (fn: () => void) => void {
  /** When the last POSTS_PER_WINDOW posts went out, oldest first. */
  const recent: number[] = Array<number>(POSTS_PER_WINDOW).fill(-Infinity);
  return (fn) =>
    timers.later(
      () => {
        recent.shift();
        recent.push(timers.now());
        fn();
      },
      recent[0]! + POST_WINDOW_MS - timers.now(),
    );
}
