// Key kinds and their prefixes (service-interface.md §5). The admin key is a server-side
// secret; the assistant key is public but still never logged.

export type KeyKind = 'admin' | 'assistant';

export const ADMIN_KEY_PREFIX = 'svc_';
export const ASSISTANT_KEY_PREFIX = 'svc_dsc_';

/** The assistant prefix starts with the admin prefix, so the assistant check must come first. */
export function detectKeyKind(key: string): KeyKind | undefined {
  if (key.startsWith(ASSISTANT_KEY_PREFIX)) return 'assistant';
  if (key.startsWith(ADMIN_KEY_PREFIX)) return 'admin';
  return undefined;
}

/**
 * Why `key` cannot be used as a key of kind `expected`, in words a person can act on,
 * or undefined when it is fine. Never echoes the key.
 */
export function validateKey(key: string, expected: KeyKind): string | undefined {
  const trimmed = key.trim();
  if (trimmed.length === 0) return 'Enter a key.';
  if (/\s/.test(trimmed)) return 'A key has no spaces or line breaks in it. Paste the key alone.';
  const kind = detectKeyKind(trimmed);
  if (expected === 'admin') {
    if (kind === 'assistant') {
      return `That is an assistant key (it starts with "${ASSISTANT_KEY_PREFIX}"). Agent jobs need the admin key, which starts with "${ADMIN_KEY_PREFIX}" but not "${ASSISTANT_KEY_PREFIX}".`;
    }
    if (kind !== 'admin') return `An admin key starts with "${ADMIN_KEY_PREFIX}". Copy it from the API keys page of the dashboard.`;
  } else {
    if (kind === 'admin') {
      return `That is an admin key. The chat needs the public assistant key, which starts with "${ASSISTANT_KEY_PREFIX}". Keep the admin key for agent jobs.`;
    }
    if (kind !== 'assistant') return `An assistant key starts with "${ASSISTANT_KEY_PREFIX}". Copy it from the API keys page of the dashboard.`;
  }
  if (trimmed.length <= (expected === 'admin' ? ADMIN_KEY_PREFIX : ASSISTANT_KEY_PREFIX).length) {
    return 'That is only the prefix. Paste the whole key.';
  }
  return undefined;
}
