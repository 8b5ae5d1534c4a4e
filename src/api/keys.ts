// Key kinds and their prefixes (service-interface.md §5). The admin key is a server-side
// secret; the assistant key is public but still never logged.

export type KeyKind = 'admin' | 'assistant';

export const ADMIN_KEY_PREFIX = 'svc_';
export const ASSISTANT_KEY_PREFIX = 'svc_dsc_';

/**
 * The characters a key may hold: a key travels as a bearer token, and RFC 6750's token is these
 * (with `=` only at its end). The redaction pattern (redact.ts) is built from the same class, so
 * every key the check accepts is redacted whole by its shape; a key with `!`, `%` or `:` would
 * otherwise pass the check and come out of redaction half visible (issue 27).
 */
export const KEY_TOKEN_CHARS = 'A-Za-z0-9\\-._~+/';
const KEY_SHAPE = new RegExp(`^[${KEY_TOKEN_CHARS}]+=*$`);

/** The assistant prefix starts with the admin prefix, so the assistant check must come first. */
export function detectKeyKind(key: string): KeyKind | undefined {
  if (key.startsWith(ASSISTANT_KEY_PREFIX)) return 'assistant';
  if (key.startsWith(ADMIN_KEY_PREFIX)) return 'admin';
  return undefined;
}

/** Why a string cannot be used as a key of the kind expected. */
export type KeyProblem =
  | 'empty'
  | 'whitespace'
  /** An assistant key where the admin key belongs. */
  | 'assistantKeyForAdmin'
  /** An admin key where the assistant key belongs. */
  | 'adminKeyForAssistant'
  /** Not a key of the service at all (wrong prefix). */
  | 'wrongPrefix'
  | 'prefixOnly'
  /** A character a bearer token cannot hold (KEY_TOKEN_CHARS). */
  | 'badCharacters';

/** Why `key` cannot be used as a key of kind `expected`, or undefined when it is fine. */
export function keyProblem(key: string, expected: KeyKind): KeyProblem | undefined {
  const trimmed = key.trim();
  if (trimmed.length === 0) return 'empty';
  if (/\s/.test(trimmed)) return 'whitespace';
  const kind = detectKeyKind(trimmed);
  if (expected === 'admin' && kind === 'assistant') return 'assistantKeyForAdmin';
  if (expected === 'assistant' && kind === 'admin') return 'adminKeyForAssistant';
  if (kind !== expected) return 'wrongPrefix';
  if (trimmed.length <= (expected === 'admin' ? ADMIN_KEY_PREFIX : ASSISTANT_KEY_PREFIX).length) return 'prefixOnly';
  if (!KEY_SHAPE.test(trimmed)) return 'badCharacters';
  return undefined;
}
