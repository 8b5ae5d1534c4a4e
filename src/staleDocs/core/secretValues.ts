// A value from a config or .env file is searched for when it changes (a new default): the search
// query goes to the docs service, and in the assistant fallback it becomes a question in the site's
// analytics. A secret must never be one of them. The value is kept out of the item (so out of the
// query, the tree and the draft) when its key is named like a secret, or when the value looks like
// one; the key's rename or removal is still found, by name alone.

/** Key names that hold secrets by convention (API_KEY, client_secret, dbPassword, AUTH_TOKEN…). */
const SECRET_KEY = /key|secret|token|passw|pwd|credential|auth|private|signature|dsn/i;

/** Shapes of well-known credentials: provider prefixes, JWTs, PEM blocks, URLs with a password. */
const SECRET_SHAPE =
  /^(?:sk|pk|rk)_(?:live|test)_|^(?:ghp|gho|ghs|ghu|github_pat|glpat|xox[abprs])[-_]|^AKIA[0-9A-Z]{12}|^eyJ[\w-]*\.|-----BEGIN |:\/\/[^/\s:@]*:[^/\s@]+@/;

/**
 * True when `value` looks like a credential: a known shape, or a long unbroken run of letters and
 * digits mixed (a random token), which a documented default (30s, 4d, https://api.example.com,
 * /var/lib/relay) is not.
 */
export function looksSecret(value: string): boolean {
  if (SECRET_SHAPE.test(value)) return true;
  if (value.length < 20 || /[\s/.:]/.test(value)) return false;
  return /[a-z]/i.test(value) && /\d/.test(value);
}

/** The value to keep for `key`, or undefined when either says it is a secret. */
export function publicValue(key: string, value: string): string | undefined {
  return SECRET_KEY.test(key) || looksSecret(value) ? undefined : value;
}
