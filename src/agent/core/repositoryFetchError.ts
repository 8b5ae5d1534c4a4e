// A fetch that failed says why (issue 30, Bad input): the Git extension rejects with an error that
// carries git's `stderr` and sometimes a `gitErrorCode`. Both come from a remote we do not control,
// so the line shown is bounded, its URLs lose their user info (a token can sit there), and control
// characters go (no terminal escapes in a notification).

export type FetchFailureReason = 'auth' | 'network' | 'noBranch' | 'other';

export interface FetchFailure {
  reason: FetchFailureReason;
  /** Git's own last `fatal:`/`error:` line (or the error's message), safe to show; may be empty. */
  detail: string;
}

const MAX_DETAIL = 300;
const AUTH =
  /authentication failed|invalid username or password|could not read username|permission denied \(publickey|terminal prompts disabled|returned error: 40[13]/i;
const NETWORK =
  /could not resolve host|could not read from remote|connection (refused|timed out|reset)|failed to connect|network is unreachable|operation timed out|unable to access/i;
const NO_BRANCH = /couldn't find remote ref|no such ref|not our ref/i;
const CODES: Record<string, FetchFailureReason> = {
  AuthenticationFailed: 'auth',
  RemoteConnectionError: 'network',
  CantAccessRemote: 'network',
  NoRemoteReference: 'noBranch',
};

function textOf(e: unknown, key: 'stderr' | 'message' | 'gitErrorCode'): string {
  const v = typeof e === 'object' && e !== null ? (e as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' ? v.slice(0, 20_000) : '';
}

/** Removes `user:password@` from every URL in `line`, then control characters, then bounds it. */
function clean(line: string): string {
  return (
    line
      .replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi, '$1')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
      .trim()
      .slice(0, MAX_DETAIL)
  );
}

export function describeFetchFailure(e: unknown): FetchFailure {
  const stderr = textOf(e, 'stderr');
  const lines = stderr.split('\n').filter((l) => l.trim());
  const line = [...lines].reverse().find((l) => /^(fatal|error):/i.test(l.trim())) ?? lines.at(-1) ?? textOf(e, 'message');
  const all = `${stderr}\n${textOf(e, 'message')}`;
  const byCode = CODES[textOf(e, 'gitErrorCode')];
  // Missing branch first: "unable to access" is also how git words a 404 for a whole repository.
  const reason = byCode ?? (NO_BRANCH.test(all) ? 'noBranch' : AUTH.test(all) ? 'auth' : NETWORK.test(all) ? 'network' : 'other');
  return { reason, detail: clean(line) };
}
