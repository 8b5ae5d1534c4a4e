import type { GitRepository } from '../../host/vscode/gitApi';
import { MAX_PATCH_FILES, PatchText } from '../core/patchText';
import { pathIn, type ChangeTarget } from './changeSource';

// The change as patch text, through the Git extension's API only (it runs git with argument
// arrays; nothing here builds a command line). Staged and unstaged: `git diff --cached`, then
// `git diff` (git pairs a moved file's sides itself); one file: the same two for its path; a
// branch: its files since the merge base with its upstream (or, without one, the default branch),
// one patch per file, read until the bound (core/patchText.ts). Cancelling stops between reads.

export interface ReadPatch {
  text: string;
  /** Something was left out for the bound. */
  cut: boolean;
  /** For a branch: the merge base it was read from. */
  base?: string;
}

/** What a branch is compared with when it has no upstream, in this order. */
const DEFAULT_BRANCHES = ['origin/HEAD', 'origin/main', 'origin/master', 'main', 'master'];

export class NoBaseError extends Error {}

export async function readPatch(target: ChangeTarget, signal: AbortSignal): Promise<ReadPatch> {
  const { repository } = target;
  const patch = new PatchText();
  const stopped = () => signal.aborted || patch.full;
  if (target.scope === 'local') {
    const file = target.file;
    const reads = file
      ? [() => repository.diffIndexWithHEAD(file), () => repository.diffWithHEAD(file)]
      : [() => repository.diff(true), () => repository.diff(false)];
    for (const read of reads) {
      if (stopped()) break;
      patch.add(await read());
    }
    return { text: patch.text, cut: patch.cut };
  }
  const base = await mergeBase(repository);
  if (!base) throw new NoBaseError('no merge base');
  const changes = await repository.diffBetween(base, 'HEAD');
  const paths = changes.map((c) => pathIn(repository, c.uri)).filter((p): p is string => p !== undefined);
  for (const path of paths.slice(0, MAX_PATCH_FILES)) {
    if (stopped()) break;
    patch.add(await repository.diffBetween(base, 'HEAD', path));
  }
  return { text: patch.text, cut: patch.cut || paths.length > MAX_PATCH_FILES, base };
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
