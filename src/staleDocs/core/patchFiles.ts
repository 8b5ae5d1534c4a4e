import { skipByPath } from './generatedFiles';
import { MAX_PATCH_FILES, type PatchText } from './patchText';

// Which files of a change are read, and the reads themselves, bounded (review of issue 32,
// findings 3 and 11): one patch per file, so a lockfile or `dist/` is dropped by its path before
// anything reads it, a file too large is left out without being read, and no single answer holds
// the whole change. Files are read in git's order (by path), a few at a time, until the patch is
// full or the check is cancelled; their text goes in in that order whatever order the answers come in.

/** One changed file, repository-relative and `/`-separated; a move also has the path it came from. */
export interface ChangedPath {
  path: string;
  oldPath?: string;
}

export interface PatchPaths {
  /** The files to read, each once, in git's order. */
  paths: string[];
  /** Files were left out for the bound. */
  cut: boolean;
}

/** At most this many patches are asked for at once: the Git extension runs one `git` per read. */
export const PATCH_READS_IN_FLIGHT = 4;

/**
 * The files of a change that are read: both sides of a move (the extractor pairs what the old file
 * lost with what the new one gained, anywhere in the diff), each path once (a file both staged and
 * unstaged is one read against HEAD), none that skipByPath skips, sorted as git sorts a diff, at
 * most `max`.
 */
export function patchPaths(changes: readonly ChangedPath[], max = MAX_PATCH_FILES): PatchPaths {
  const all = new Set<string>();
  for (const c of changes) for (const p of [c.path, c.oldPath]) if (p && !skipByPath(p)) all.add(p);
  // Git orders a diff by the bytes of its paths; code units match it for the paths people write.
  const paths = [...all].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { paths: paths.slice(0, max), cut: paths.length > max };
}

/**
 * Reads each path's patch with `read` into `patch`, at most `inFlight` at once, in `paths`' order,
 * until the patch is full or `signal` aborts. `read` answers undefined for a file it would not read
 * (too large): it is left out and the patch counts as cut.
 */
export async function readPatches(
  paths: readonly string[],
  read: (path: string) => Promise<string | undefined>,
  patch: PatchText,
  signal: AbortSignal,
  inFlight = PATCH_READS_IN_FLIGHT,
): Promise<void> {
  const pending: Promise<string | undefined>[] = [];
  let next = 0;
  const stopped = () => signal.aborted || patch.full;
  const fill = () => {
    while (pending.length < inFlight && next < paths.length && !stopped()) pending.push(read(paths[next++]!));
  };
  fill();
  while (pending.length > 0) {
    const text = await pending.shift()!;
    if (stopped()) {
      // What is still in flight is let finish and dropped: its text is past the bound or unwanted.
      if (patch.full && !signal.aborted) patch.add(text ?? '');
      continue;
    }
    if (text === undefined) patch.leaveOut();
    else patch.add(text);
    fill();
  }
  if (next < paths.length && !signal.aborted) patch.leaveOut();
}
