import { ServiceError } from './errors';
import type { ServiceName } from './errorReasons';

// Building service addresses and deciding whether a key may travel to them.

/**
 * True when `url` points at this machine: 127.0.0.0/8, `localhost` or `[::1]` (also the
 * IPv4-mapped form of 127.x). Only such addresses may receive the admin key over plain http,
 * because the traffic never leaves the machine. The WHATWG URL parser has already normalised
 * odd spellings (`127.1`, `0x7f.0.0.1`, `[0:0::1]`), so the checks below see canonical forms.
 */
export function isLoopbackUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const host = parsed.hostname.toLowerCase();
  if (host === 'localhost') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  if (host === '[::1]') return true;
  // ::ffff:127.x.y.z, which the parser prints as ::ffff:7fxx:xxxx
  return /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host);
}

/**
 * Whether an address carries a user name or password (or a bare `@` before its host). An address
 * the URL parser refuses counts too when a reader would still take the part before an `@` as such.
 */
export function hasUserInfo(raw: string): boolean {
  const text = raw.trim();
  try {
    const url = new URL(text);
    if (url.username || url.password) return true;
  } catch {
    // Not an address the parser takes: the text decides.
  }
  return /^[a-z][a-z0-9+.-]*:\/\/[^/?#\\]*@/i.test(text);
}

/** Checks the configured base address once per request; a bad one is the user's to fix. */
export function parseBaseUrl(baseUrl: string): URL {
  const trimmed = (baseUrl ?? '').trim();
  if (trimmed === '') {
    throw new ServiceError({ reason: { code: 'baseUrlMissing' } });
  }
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    const value = trimmed.slice(0, 80);
    throw new ServiceError({
      reason: { code: 'baseUrlInvalid', value },
    });
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new ServiceError({
      reason: { code: 'baseUrlScheme', protocol: parsed.protocol },
    });
  }
  if (parsed.username || parsed.password) {
    // Credentials in the URL would be sent alongside the key and end up in logs.
    throw new ServiceError({ reason: { code: 'baseUrlCredentials' } });
  }
  return parsed;
}

/**
 * `base` plus path segments, each percent-encoded, so an id such as `a/b?c` stays one segment.
 * A path prefix in the base address (a gateway such as https://host/docs-api) is kept.
 */
export function serviceUrl(base: URL, segments: readonly string[]): string {
  const prefix = base.pathname.replace(/\/+$/, '');
  return `${base.origin}${prefix}/${segments.map((s) => encodeURIComponent(s)).join('/')}`;
}

/** host[:port], for messages; never includes credentials, path or query. '' when `url` is not an address. */
export function hostLabel(url: string | URL): string {
  try {
    return (typeof url === 'string' ? new URL(url) : url).host;
  } catch {
    return '';
  }
}

/** `base` as https, for a message that says to use it instead of plain http. */
function httpsVersion(base: URL): string {
  return `https://${base.host}${base.pathname.replace(/\/+$/, '')}`;
}

/**
 * The base URL a client may send to: parseBaseUrl's, and https unless it is this machine. A key,
 * a thread key, a question and the selected code leave this machine only over https.
 */
export function secureBaseUrl(baseUrl: string, service: ServiceName): URL {
  const base = parseBaseUrl(baseUrl);
  if (base.protocol === 'http:' && !isLoopbackUrl(base.href)) {
    throw new ServiceError({ reason: { code: 'plainHttp', service, host: base.host, httpsUrl: httpsVersion(base) } });
  }
  return base;
}
