import * as vscode from 'vscode';
import { concurrencyLimit, hasDotSegments, isCommitId, isShownAsText, MAX_SHOWN_BYTES, TextCache } from '../../core/commitFile';
import type { GitApi } from '../../../host/vscode/gitApi';

// The sides of Review Changes' diff: a file as it is at a commit, read through the Git extension's
// API (`buffer`, one `git show` each), served as read-only documents of our own scheme, as the
// GitHub Pull Requests extension serves a pull request's files. Not the Git extension's `git:`
// documents (toGitUri): VS Code's multi-file diff editor reads every side of every file before it
// shows the first, and for a `git:` document that is two processes (`ls-tree` for its size, then
// `show`); and the Git extension reads every `git:` document again after any change to the
// repository, the fetch of the next review included. A file at a commit never changes: one read,
// kept (bounded) for when VS Code asks again.

export const COMMIT_SCHEME = 'docs-assistant-commit';
/** Reads at once: enough to keep git busy on two cores, few enough to leave the extension host free. */
const READS_AT_ONCE = 8;
/** Texts kept for when VS Code asks again (about 64 MB of UTF-16): thousands of doc pages, both sides. */
const CACHED_CHARS = 32 * 1024 * 1024;

/** The document of `file` (a file in a repository) at `commit`. */
export function commitDocument(file: vscode.Uri, commit: string): vscode.Uri {
  return file.with({ scheme: COMMIT_SCHEME, query: commit });
}

export class CommitDocuments implements vscode.TextDocumentContentProvider {
  private readonly limit = concurrencyLimit(READS_AT_ONCE);
  private readonly cache = new TextCache(CACHED_CHARS);

  constructor(private readonly git: () => Promise<GitApi | undefined>) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    // Anything may open this scheme: the commit must be an id, the path a plain one in a repository here.
    if (!isCommitId(uri.query) || hasDotSegments(uri.path)) throw new Error(vscode.l10n.t('Not a file at a commit: {0}', uri.toString(true)));
    const file = uri.with({ scheme: 'file', query: '', fragment: '' });
    const repository = (await this.git())?.getRepository(file);
    if (!repository) throw new Error(vscode.l10n.t('No Git repository here holds {0}.', file.fsPath));
    // Keyed by the repository too: the same path and commit could be in two clones, with two answers.
    const key = `${repository.rootUri.toString()}\n${uri.toString()}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const bytes = await this.limit(() => repository.buffer(uri.query, file.fsPath));
    const text = isShownAsText(bytes)
      ? new TextDecoder().decode(bytes)
      : vscode.l10n.t('(Binary, or larger than {0} MB: not shown.)', MAX_SHOWN_BYTES / 1024 / 1024);
    this.cache.set(key, text);
    return text;
  }
}
