import type { AgentJob } from '../../api';
import { branchNameOf } from './gitRef';
import { parseRepositoryUrl } from './repositoryUrl';

// The vscode-free half of Review Changes and Check Out Agent Branch: what a job's source allows,
// decided before any Git call, and the multi-file diff editor's entries from the changes the Git
// extension lists. The VS Code half is src/agent/vscode/review/.

export type ReviewTarget =
  | { kind: 'branch'; branch: string; repository: string }
  /** The job has no branch yet (the service sends `ref: null` until the agent made one). */
  | { kind: 'noBranch' }
  /** A ref git would refuse, or read as something else: never handed to Git. */
  | { kind: 'invalidRef' }
  /** A repository that is not a URL any remote could be matched against. */
  | { kind: 'invalidRepository' };

/** What can be reviewed of `job`: its ref is checked first, so an invalid one never reaches Git. */
export function reviewTarget(job: Pick<AgentJob, 'source'>): ReviewTarget {
  const { ref, repository } = job.source ?? {};
  if (ref === null || ref === undefined) return { kind: 'noBranch' };
  const branch = branchNameOf(ref);
  if (!branch) return { kind: 'invalidRef' };
  if (!parseRepositoryUrl(repository)) return { kind: 'invalidRepository' };
  return { kind: 'branch', branch, repository: (repository as string).trim() };
}

/** The Git extension's `Status` values this needs (git.d.ts's const enum, which is not shipped as code). */
export const GIT_STATUS = { INDEX_MODIFIED: 0, INDEX_ADDED: 1, INDEX_DELETED: 2, INDEX_RENAMED: 3, INDEX_COPIED: 4, MODIFIED: 5, DELETED: 6 } as const;

/** One change as the Git extension's `diffBetween` lists it; `U` is a vscode.Uri there, a string in tests. */
export interface ChangeLike<U> {
  status: number;
  /** The file on the branch side (the new name of a rename). */
  uri: U;
  /** The file on the base side. */
  originalUri: U;
}

/** `[resource, left, right]`, what `vscode.changes` takes; a side the file is missing on is undefined. */
export type DiffEntry<U> = [U, U | undefined, U | undefined];

const ADDED = new Set<number>([GIT_STATUS.INDEX_ADDED]);
const DELETED = new Set<number>([GIT_STATUS.INDEX_DELETED, GIT_STATUS.DELETED]);

/** One entry per changed file, from `base` to `head`, in the order git listed them. Linear in the changes. */
export function diffEntries<U>(changes: readonly ChangeLike<U>[], toGit: (uri: U, ref: string) => U, base: string, head: string): DiffEntry<U>[] {
  return changes.map((c) => [c.uri, ADDED.has(c.status) ? undefined : toGit(c.originalUri, base), DELETED.has(c.status) ? undefined : toGit(c.uri, head)]);
}
