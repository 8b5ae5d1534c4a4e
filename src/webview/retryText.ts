import * as l10n from '@vscode/l10n';

// The countdown under a rate-limited answer. A service may send any Retry-After (the host clamps
// it, src/api), and a countdown of thousands of seconds tells a reader nothing.

/** Past this, a countdown in seconds means nothing to a reader: the time of day does. */
export const COUNTDOWN_MAX_S = 90;

/** When the user may retry: seconds while it is soon, then a time of day; never "Infinity s". */
export function retryText(retryAt: number, now: number): string {
  const s = Math.ceil((retryAt - now) / 1000);
  if (!Number.isFinite(s)) return l10n.t('Try again later');
  if (s <= 0) return l10n.t('You can try again now');
  if (s <= COUNTDOWN_MAX_S) return l10n.t('Try again in {0} s', s);
  return l10n.t('Try again after {0}', new Date(retryAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }));
}

/** Whether the wait is over, so the countdown can stop. */
export function retryIsDue(retryAt: number, now: number): boolean {
  return Math.ceil((retryAt - now) / 1000) <= 0;
}
