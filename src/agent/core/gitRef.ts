// A job's `source.ref` is the Git branch the agent works on (notes.md, "Beyond the interface"),
// sent by the service: nothing in it is trusted. It is checked here, before any Git call, against
// `git check-ref-format --branch`'s rules, and a few of our own that keep it a plain branch name
// on a command line git builds from an argument array: no leading `-` (an option), not `HEAD`,
// at most 255 characters.

const MAX_LENGTH = 255;
/** Control characters, space, and `~ ^ : ? * [ \`, which git refuses anywhere in a ref. */
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0020\u007f~^:?*[\\]/;

/** Whether `ref` is a branch name git accepts and that cannot be read as anything else. */
export function isValidBranchName(ref: unknown): ref is string {
  if (typeof ref !== 'string' || ref.length === 0 || ref.length > MAX_LENGTH) return false;
  if (ref.startsWith('-') || ref === 'HEAD' || ref === '@') return false;
  if (FORBIDDEN.test(ref) || ref.includes('..') || ref.includes('@{')) return false;
  if (ref.endsWith('.')) return false;
  // Components: none empty (no leading, trailing or double `/`), none starting with `.`, none ending in `.lock`.
  return ref.split('/').every((part) => part.length > 0 && !part.startsWith('.') && !part.endsWith('.lock'));
}

/**
 * The branch a job's ref names: `docs-agent/1` as it is, `refs/heads/docs-agent/1` without its
 * prefix. Any other ref (a tag, a remote's) or an invalid name is undefined: not a branch to review.
 */
export function branchNameOf(ref: unknown): string | undefined {
  if (typeof ref !== 'string') return undefined;
  const name = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref;
  if (name.startsWith('refs/')) return undefined;
  return isValidBranchName(name) ? name : undefined;
}

/**
 * The refspec that fetches `branch` from `remote` into its remote-tracking ref, and only there:
 * the user's branches and working tree are never touched. Both names must have been checked.
 */
export function trackingRefspec(remote: string, branch: string): string {
  return `+refs/heads/${branch}:refs/remotes/${remote}/${branch}`;
}

/** The remote-tracking ref a fetch with `trackingRefspec` writes. */
export function trackingRef(remote: string, branch: string): string {
  return `refs/remotes/${remote}/${branch}`;
}
