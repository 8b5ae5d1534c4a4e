import * as vscode from 'vscode';
import type { GitChange, GitRepository } from '../../host/vscode/gitApi';
import { patchPaths, readPatches, type ChangedPath } from '../core/patchFiles';
import { MAX_PATCH_CHARS, PatchText } from '../core/patchText';
import { pathIn, type ChangeTarget } from './changeSource';

// The change as patch text, through the Git extension's API only (it runs git with argument
// arrays; nothing here builds a command line), one file at a time (core/patchFiles.ts chooses
// which, skips generated and vendored ones unread, and bounds the reads). Staged and unstaged:
// each changed file against HEAD (`git diff HEAD -- path`), so a file both staged and edited since
// is one patch from HEAD; a file larger than the patch bound is left out unread. A branch: each of
// its files since the merge base with its upstream (or, without one, the default branch).
// Cancelling stops between reads.

export interface ReadPatch {
  text: string;
  /** Something was left out for the bound. */
  cut: boolean;
  /** For a branch: the merge base it was read from. */
  base?: string;
}

/** What a branch is compared with when it has no upstream, in this order. */
const DEFAULT_BRANCHES = ['origin/HEAD', 'origin/main', 'origin/master', 'main', 'master'];
/** The Git API's Status for files git does not track: `git diff HEAD` says nothing about them. */
const UNTRACKED = 7;
const IGNORED = 8;

export class NoBaseError extends Error {}

export async function readPatch(target: ChangeTarget, signal: AbortSignal): Promise<ReadPatch> {
  const { repository } = target;
  const patch = new PatchText();
  if (target.scope === 'local') {
    // The file lists are the Git extension's last look: it looks again first, as `git diff` would.
    await repository.status();
    const { state } = repository;
    // No commit yet (`git diff HEAD` fails there): nothing had an old form a page could still say.
    if (state.HEAD && !state.HEAD.commit) return { text: '', cut: false };
    const changes = target.file ? [{ path: target.file }] : changedPaths(repository, [...state.indexChanges, ...state.workingTreeChanges]);
    const { paths, cut } = patchPaths(changes);
    if (cut) patch.leaveOut();
    await readPatches(paths, (path) => localPatch(repository, path), patch, signal);
    return { text: patch.text, cut: patch.cut };
  }
  const base = await mergeBase(repository);
  if (!base) throw new NoBaseError('no merge base');
  const { paths, cut } = patchPaths(changedPaths(repository, await repository.diffBetween(base, 'HEAD')));
  if (cut) patch.leaveOut();
  await readPatches(paths, (path) => repository.diffBetween(base, 'HEAD', path), patch, signal);
  return { text: patch.text, cut: patch.cut, base };
}

/** The repository-relative paths of tracked changes, with where a moved file came from. */
function changedPaths(repository: GitRepository, changes: readonly GitChange[]): ChangedPath[] {
  const out: ChangedPath[] = [];
  for (const c of changes) {
    if (c.status === UNTRACKED || c.status === IGNORED) continue;
    const path = pathIn(repository, c.uri);
    if (path) out.push({ path, oldPath: pathIn(repository, c.originalUri) });
  }
  return out;
}

/**
 * One file's staged and unstaged change against HEAD; undefined, unread, when the working-tree
 * file is larger than the whole patch bound (the API answers with the whole patch at once).
 */
async function localPatch(repository: GitRepository, path: string): Promise<string | undefined> {
  try {
    const { size } = await vscode.workspace.fs.stat(vscode.Uri.joinPath(repository.rootUri, path));
    if (size > MAX_PATCH_CHARS) return undefined;
  } catch {
    // Deleted in the working tree: its patch is HEAD's text, removed.
  }
  return repository.diffWith('HEAD', path);
}

/** The merge base of HEAD with its upstream, else with the first default branch that has one. */
async function mergeBase(repository: GitRepository): Promise<string | undefined> {
  const head = repository.state.HEAD;
  const upstream = head?.upstream ? [`${head.upstream.remote}/${head.upstream.name}`] : [];
  for (const ref of [...upstream, ...DEFAULT_BRANCHES.filter((b) => b !== head?.name)]) {
    try {
      const base = await repository.getMergeBase('HEAD', ref);
      if (base) return base;
    } catch {
      // No such ref (before 1.100 the API throws rather than answering undefined): the next one.
    }
  }
  return undefined;
}
