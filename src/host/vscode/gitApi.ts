import * as vscode from 'vscode';

// The built-in Git extension, through its API only (`vscode.git`, `getAPI(1)`), as extensions do
// (microsoft/vscode-pull-request-github keeps a copy of git.d.ts): a minimal typed copy of the
// parts used here, checked against VS Code 1.100's extensions/git/src/api/git.d.ts. Git runs
// through it with argument arrays; nothing here builds a command line.

export interface GitRemote {
  readonly name: string;
  readonly fetchUrl?: string;
  readonly pushUrl?: string;
}

export interface GitChange {
  readonly uri: vscode.Uri;
  readonly originalUri: vscode.Uri;
  readonly renameUri: vscode.Uri | undefined;
  readonly status: number;
}

export interface GitBranch {
  readonly name?: string;
  readonly commit?: string;
  readonly upstream?: { readonly remote: string; readonly name: string };
  readonly behind?: number;
}

export interface GitRepositoryState {
  /** HEAD's branch, with its upstream (`{ remote, name }`) when it has one; undefined on a fresh repository. */
  readonly HEAD: GitBranch | undefined;
  readonly remotes: readonly GitRemote[];
  readonly mergeChanges: readonly GitChange[];
  readonly indexChanges: readonly GitChange[];
  readonly workingTreeChanges: readonly GitChange[];
}

export interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly state: GitRepositoryState;
  /** `git fetch <remote> <ref>`: `ref` may be a refspec (src/agent/core/gitRef.ts builds it). */
  fetch(options: { remote?: string; ref?: string }): Promise<void>;
  /** Undefined (1.100+) or a throw (before) when there is none. */
  getMergeBase(ref1: string, ref2: string): Promise<string | undefined>;
  /** Without a path: the files changed in `ref1...ref2`. With one: that file's patch (`git diff ref1...ref2 -- path`). */
  diffBetween(ref1: string, ref2: string): Promise<GitChange[]>;
  diffBetween(ref1: string, ref2: string, path: string): Promise<string>;
  /**
   * `git diff <ref> -- path`: the file's working tree against `ref`; with HEAD, its staged and
   * unstaged change together. (`diffWithHEAD(path)`, despite its name, is `git diff -- path`: the
   * working tree against the index, so not used here.)
   */
  diffWith(ref: string, path: string): Promise<string>;
  getBranch(name: string): Promise<GitBranch>;
  getCommit(ref: string): Promise<{ readonly hash: string }>;
  /** `git show --textconv <ref>:<path>`; `path` may be the file's absolute path. */
  buffer(ref: string, path: string): Promise<Uint8Array>;
  checkout(treeish: string): Promise<void>;
  status(): Promise<void>;
}

export interface GitApi {
  readonly state: 'uninitialized' | 'initialized';
  readonly onDidChangeState: vscode.Event<'uninitialized' | 'initialized'>;
  readonly repositories: readonly GitRepository[];
  /** The repository that holds a file, or null. */
  getRepository(uri: vscode.Uri): GitRepository | null;
}

interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

export const GIT_EXTENSION_ID = 'vscode.git';
/** How long the Git extension may take to find the workspace's repositories (it scans on start). */
const INITIALIZE_MS = 10_000;

/**
 * The Git API, once it has looked at the workspace; undefined when there is no Git here: a browser
 * (no `vscode.git`), the extension disabled, or `git.enabled` off. Never throws.
 */
export async function loadGitApi(): Promise<GitApi | undefined> {
  try {
    const ext = vscode.extensions.getExtension<GitExtension>(GIT_EXTENSION_ID);
    if (!ext) return undefined;
    const exports = ext.isActive ? ext.exports : await ext.activate();
    if (!exports?.enabled) return undefined;
    const api = exports.getAPI(1);
    if (api.state !== 'initialized') await initialized(api);
    return api;
  } catch {
    return undefined;
  }
}

/** Resolves when the API says it is initialized, or after INITIALIZE_MS (then with what it has). */
function initialized(api: GitApi): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    };
    const timer = setTimeout(done, INITIALIZE_MS);
    const sub = api.onDidChangeState((s) => s === 'initialized' && done());
  });
}
