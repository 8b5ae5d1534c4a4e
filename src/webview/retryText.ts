// The countdown under a rate-limited answer. A service may send any Retry-After (the host clamps
// it, src/api), and a countdown of thousands of seconds tells a reader nothing.

export const READY_TO_RETRY = 'You can try again now';
/** Past this, a countdown in seconds means nothing to a reader: the time of day does. */
export const COUNTDOWN_MAX_S = 90;

/** When the user may retry: seconds while it is soon, then a time of day; never "Infinity s". */
export function retryText(retryAt: number, now: number): string {
  const s = Math.ceil((retryAt - now) / 1000);
  if (!Number.isFinite(s)) return 'Try again later';
  if (s <= 0) return READY_TO_RETRY;
  if (s <= COUNTDOWN_MAX_S) return `Try again in ${s} s`;
  return `Try again after ${new Date(retryAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`;
}
