import { abortedError, timerDelay } from '../../api';

// Time and timers as the cores use them, so a test can move time by hand (test/unit/fakeClock.ts)
// and a wait of any length stays a wait: the features' polls, backoffs and Retry-After waits.

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  // A delay past 2^31 - 1 ms would fire after 1 ms: a busy loop instead of a long wait.
  setTimeout: (fn, ms) => setTimeout(fn, timerDelay(ms)),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** Waits `ms` on `clock`, or rejects with an `aborted` ServiceError as soon as `signal` fires. */
export function sleepOn(clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError());
    const onAbort = (): void => {
      clock.clearTimeout(timer);
      reject(abortedError());
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
