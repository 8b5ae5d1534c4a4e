// Which workspace repository a job's `source.repository` (a URL from the service) is: a remote's
// URL is the same repository when host and path agree, whatever the transport. HTTPS, SSH (the
// scp-like `git@host:owner/repo` and `ssh://`), git://, with or without `.git`, user info, a port
// or a trailing slash; the host in any case (DNS ignores it), the path as written. Anything else
// (a local path, `file:`, a string that is not a URL) matches nothing.

export interface RepositoryId {
  /** Lower case, without user info or port. */
  host: string;
  /** `owner/repo` (or deeper, as GitLab groups are), without `.git` or slashes around it. */
  path: string;
}

const MAX_URL = 2048;
const SCHEMES = new Set(['https:', 'http:', 'ssh:', 'git:', 'git+ssh:', 'ssh+git:']);
/** `user@host:path`, scp-like: no scheme, and the first `:` before any `/`. */
const SCP_LIKE = /^(?:[^@/\s]+@)?([^:/\s]+):(\/?[^\s]+)$/;

function cleanPath(path: string): string | undefined {
  const trimmed = path
    .replace(/^\/+/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
  // At least owner/repo, and no segment that walks around (`.` or `..`).
  const parts = trimmed.split('/');
  if (parts.length < 2 || parts.some((p) => p === '' || p === '.' || p === '..')) return undefined;
  return trimmed;
}

/** Host and path of a repository URL, or undefined when it is not one we can match. */
export function parseRepositoryUrl(raw: unknown): RepositoryId | undefined {
  if (typeof raw !== 'string') return undefined;
  const text = raw.trim();
  if (!text || text.length > MAX_URL || text.startsWith('-')) return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return undefined;
    }
    if (!SCHEMES.has(url.protocol) || !url.hostname) return undefined;
    const path = cleanPath(decodeURIComponent(url.pathname));
    return path ? { host: url.hostname.toLowerCase(), path } : undefined;
  }
  const scp = SCP_LIKE.exec(text);
  // A one-letter "host" is a Windows drive (C:/repo), not a machine.
  if (!scp || scp[1]!.length < 2) return undefined;
  const path = cleanPath(scp[2]!);
  return path ? { host: scp[1]!.toLowerCase(), path } : undefined;
}

/** Whether two URLs name the same repository; false when either is not a repository URL. */
export function sameRepository(a: unknown, b: unknown): boolean {
  const x = parseRepositoryUrl(a);
  const y = parseRepositoryUrl(b);
  return !!x && !!y && x.host === y.host && x.path === y.path;
}
