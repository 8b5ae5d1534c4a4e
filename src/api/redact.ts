import { KEY_TOKEN_CHARS } from './keys';

// Keys must never reach a log line, an error message or the webview. Redaction runs on
// anything that came from outside (error bodies, URLs) before it is shown or logged.

// Every character the key check accepts (keys.ts), so an accepted key is redacted whole.
const KEY_PATTERN = new RegExp(`svc_(?:dsc_)?[${KEY_TOKEN_CHARS}=]+`, 'g');
const BEARER_PATTERN = /(Bearer\s+)[^\s"',;]+/gi;

/** Replaces anything that looks like a service key or a bearer token, plus the given known secrets. */
export function redact(text: string, knownSecrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of knownSecrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out.replace(BEARER_PATTERN, '$1[redacted]').replace(KEY_PATTERN, (m) => (m.startsWith('svc_dsc_') ? 'svc_dsc_[redacted]' : 'svc_[redacted]'));
}
