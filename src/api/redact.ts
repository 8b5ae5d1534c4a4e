import { KEY_TOKEN_CHARS } from './keys';

// Keys must never reach a log line, an error message or the webview. Redaction runs on
// anything that came from outside (error bodies, URLs) before it is shown or logged.

// Every character the key check accepts (keys.ts), so an accepted key is redacted whole.
const KEY_PATTERN = new RegExp(`svc_(?:dsc_)?[${KEY_TOKEN_CHARS}=]+`, 'g');
const BEARER_PATTERN = /(Bearer\s+)[^\s"',;]+/gi;
/**
 * A URL's user info: after `scheme://`, up to the last `@` before the path, query or fragment
 * (where the URL parser ends it too), so `https://a@b:c@host` hides `a@b:c` whole.
 */
const URL_USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#\\@]*(?:@[^\s/?#\\@]*)*@/gi;

/** The forms a secret takes in text: as is, percent-encoded (a query), escaped in a JSON string. */
function spellings(secret: string): string[] {
  let encoded = secret;
  try {
    encoded = encodeURIComponent(secret);
  } catch {
    // A lone surrogate cannot be encoded; the secret as is still goes.
  }
  return [...new Set([secret, encoded, JSON.stringify(secret).slice(1, -1)])];
}

/**
 * Replaces anything that looks like a service key or a bearer token, the user info of any URL,
 * and the given known secrets (in each of their spellings).
 */
export function redact(text: string, knownSecrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of knownSecrets) {
    if (secret && secret.length >= 4) for (const s of spellings(secret)) out = out.split(s).join('[redacted]');
  }
  return out
    .replace(URL_USER_INFO, '$1[redacted]@')
    .replace(BEARER_PATTERN, '$1[redacted]')
    .replace(KEY_PATTERN, (m) => (m.startsWith('svc_dsc_') ? 'svc_dsc_[redacted]' : 'svc_[redacted]'));
}
