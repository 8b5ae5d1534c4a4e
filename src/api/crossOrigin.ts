import { ServiceError } from './errors';
import { timerDelay } from './limits';

// In a browser (github.dev, vscode.dev, code-server's web worker) every request to the service
// is cross-origin, and a service that sends no CORS headers is refused by the browser itself.
// fetch then says only "TypeError: Failed to fetch", exactly as when the service is down, so a
// second look tells the two apart: a `no-cors` request to the service's origin. A browser sends
// that one without asking the service's permission (it only hides the answer from us), so it
// succeeds when the service is up, and fails when it is not. It carries no key, no body and no
// cookie, and goes only to the origin the user configured.

/** Longest the second look may take; a user is waiting for an error message meanwhile. */
export const CORS_PROBE_TIMEOUT_MS = 5_000;

/** A browser's own network failure: a TypeError with no cause (Node's fetch always gives the socket error as its cause). */
export function isBrowserFetchFailure(e: unknown): boolean {
  return e instanceof TypeError && (e as { cause?: unknown }).cause === undefined;
}

/** The page's origin, when there is one (a web worker has `location`; Node has none). */
function ownOrigin(): string | undefined {
  const origin = (globalThis as { location?: { origin?: unknown } }).location?.origin;
  return typeof origin === 'string' && origin !== 'null' ? origin : undefined;
}

/** Whether the service's origin answers a request the browser sends without CORS. */
export async function answersWithoutCors(url: string, fetchFn: typeof fetch, signal?: AbortSignal): Promise<boolean> {
  const ctrl = new AbortController();
  const stop = (): void => ctrl.abort();
  const timer = setTimeout(stop, timerDelay(CORS_PROBE_TIMEOUT_MS));
  signal?.addEventListener('abort', stop, { once: true });
  try {
    const origin = new URL(url).origin;
    await fetchFn(`${origin}/`, { method: 'GET', mode: 'no-cors', credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer', signal: ctrl.signal });
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
  }
}

/** The error for a service that a browser refused to call because it sends no CORS headers. */
export function crossOriginRefused(cause: unknown, host: string): ServiceError {
  const origin = ownOrigin();
  return new ServiceError({
    reason: origin === undefined ? { code: 'crossOriginRefused', host } : { code: 'crossOriginRefused', host, origin },
    cause,
  });
}
