import { ServiceError, type ServiceErrorReason } from './errors';
import { clampRetryAfter } from './limits';
import { redact } from './redact';

// Turning an HTTP error status into a typed reason (src/host/core/errorWords.ts words it for the user).
// The service's error body shape is not specified (notes.md, "Errors"), so its words are only ever extra detail.

/** What the failed request was about; it decides the wording of 401/403/404. */
export type ErrorTarget = { service: 'agent'; projectId: string; jobId?: string } | { service: 'assistant'; domain: string; threadId?: string | null };

export const DETAIL_MAX_CHARS = 300;

/**
 * `Retry-After` in milliseconds from now: either delay-seconds or an HTTP date (RFC 9110 §10.2.3).
 * Undefined when absent or unreadable; a date in the past gives 0. At most an hour: a longer wait
 * (or a number too large to be finite) is the service's mistake, and a timer cannot even hold it.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const v = value.trim();
  if (v === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return clampRetryAfter(Number(v) * 1000);
  const at = Date.parse(v);
  if (!Number.isFinite(at)) return undefined;
  return clampRetryAfter(at - now);
}

/** Waits shorter than this are shown to the second ("14:05:07"); longer ones to the minute. */
const SECONDS_SHOWN_BELOW_MS = 10 * 60 * 1000;

/**
 * The local time of day `ms` after `now`: "14:05", or "14:05:07" when that is soon. Rounded up,
 * because retrying early only fails again. A clock time, not a count: it cannot overflow or show
 * "Infinity", and it stays right however long the message stays on screen.
 */
export function retryTime(ms: number, now: number = Date.now()): string {
  const wait = clampRetryAfter(ms);
  const step = wait < SECONDS_SHOWN_BELOW_MS ? 1000 : 60_000;
  const at = new Date(Math.ceil((now + wait) / step) * step);
  const two = (n: number): string => String(n).padStart(2, '0');
  const hm = `${two(at.getHours())}:${two(at.getMinutes())}`;
  return step === 1000 ? `${hm}:${two(at.getSeconds())}` : hm;
}

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function cut(text: string, max = DETAIL_MAX_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * The service's own words from an error body: JSON `{error}`, `{message}` or `{error:{message}}`,
 * the title of an HTML page (a proxy's 502 page is mostly markup), else the text itself; cut to
 * ~300 characters and redacted. Undefined when there is nothing useful.
 */
export function extractDetail(body: string, contentType: string | null, secrets: readonly (string | undefined)[] = []): string | undefined {
  const text = body.trim();
  if (text === '') return undefined;
  let words: string | undefined;
  if (text.startsWith('{') || text.startsWith('[') || /json/i.test(contentType ?? '')) {
    try {
      const json: unknown = JSON.parse(text);
      if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
        const o = json as Record<string, unknown>;
        const err = o.error;
        if (typeof err === 'string') words = err;
        else if (err !== null && typeof err === 'object' && typeof (err as Record<string, unknown>).message === 'string')
          words = (err as Record<string, string>).message;
        else if (typeof o.message === 'string') words = o.message;
        else if (typeof o.detail === 'string') words = o.detail;
      }
    } catch {
      // not JSON after all: fall through to the text
    }
  }
  if (words === undefined && (/html/i.test(contentType ?? '') || /^<(!doctype|html)/i.test(text))) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
    words = title ?? text.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, ' ').replace(/<[^>]+>/g, ' ');
  }
  if (words === undefined) words = text;
  const out = cut(squash(redact(words, secrets)));
  return out === '' ? undefined : out;
}

/** The agent service's limit on new jobs and follow-ups per project per hour (service-interface.md §8). */
export const AGENT_USES_PER_HOUR = 100;

/** What a non-2xx status means for the request that got it. */
function reasonFor(status: number, target: ErrorTarget, retryAfterMs: number | undefined, now: number): ServiceErrorReason {
  if (status === 401) return { code: 'keyRefused', service: target.service };
  if (status === 403)
    return target.service === 'agent' ? { code: 'projectForbidden', projectId: target.projectId } : { code: 'domainForbidden', domain: target.domain };
  if (status === 404 || status === 410) {
    if (target.service === 'agent')
      return target.jobId !== undefined
        ? { code: 'jobNotFound', projectId: target.projectId, jobId: target.jobId }
        : { code: 'projectNotFound', projectId: target.projectId };
    return target.threadId ? { code: 'threadGone', threadId: target.threadId } : { code: 'domainNotFound', domain: target.domain };
  }
  if (status === 429) {
    const reason: ServiceErrorReason = { code: 'rateLimited', service: target.service };
    if (retryAfterMs !== undefined) reason.retryAt = now + retryAfterMs;
    if (target.service === 'agent') reason.perHour = AGENT_USES_PER_HOUR;
    return reason;
  }
  if (status >= 500) return { code: 'serverError' };
  if (status >= 400) return { code: 'badRequest' };
  return { code: 'unexpectedStatus' };
}

/** The ServiceError for a non-2xx response whose body text has been read (or not: pass ''). */
export function errorFromStatus(
  response: { status: number; type?: string; headers: { get(name: string): string | null } },
  bodyText: string,
  target: ErrorTarget,
  secrets: readonly (string | undefined)[] = [],
  now: number = Date.now(),
): ServiceError {
  const { status } = response;
  const detail = extractDetail(bodyText, response.headers.get('content-type'), secrets);
  // A browser hides a redirect it was told not to follow: status 0, type "opaqueredirect", no Location.
  if ((status >= 300 && status < 400) || response.type === 'opaqueredirect') {
    // Redirects are not followed, so a key never travels to an address nobody configured.
    const location = response.headers.get('location');
    const shown = location ? redact(cut(location, 120), secrets) : undefined;
    return new ServiceError({
      reason: shown ? { code: 'redirected', location: shown } : { code: 'redirected' },
      status,
      detail,
    });
  }
  const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(response.headers.get('retry-after'), now) : undefined;
  const reason = reasonFor(status, target, retryAfterMs, now);
  return new ServiceError({ reason, status, retryAfterMs, detail });
}
