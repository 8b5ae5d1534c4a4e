import * as vscode from 'vscode';
import type { GitApi, GitRepository } from '../../host/vscode/gitApi';

// Which change a check reads: the repository (the one the Source Control menu was used on, the
// only one, or the one the user picks), the scope (staged and unstaged, or the branch against its
// upstream's merge base) and, from a changed file's menu, that one file. A command's argument is
// anyone's: it is only looked at for a URI, and only a repository the Git extension itself lists
// is used; a file must be inside it.

export type ChangeScope = 'local' | 'branch';

export interface ChangeTarget {
  repository: GitRepository;
  scope: ChangeScope;
  /** From a changed file's context menu: its path, relative to the repository's root, `/`-separated. */
  file?: string;
}

/** The URI a Source Control menu hands over: a SourceControl's rootUri, or a resource state's resourceUri. */
function uriOf(arg: unknown): { uri: vscode.Uri; file: boolean } | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const { rootUri, resourceUri } = arg as { rootUri?: unknown; resourceUri?: unknown };
  if (resourceUri instanceof vscode.Uri) return { uri: resourceUri, file: true };
  if (rootUri instanceof vscode.Uri) return { uri: rootUri, file: false };
  return undefined;
}

/** `uri`'s path inside the repository, or undefined when it is not inside (or odd). */
export function pathIn(repository: GitRepository, uri: vscode.Uri): string | undefined {
  const root = repository.rootUri.path.replace(/\/?$/, '/');
  if (uri.scheme !== repository.rootUri.scheme || !uri.path.startsWith(root)) return undefined;
  const rel = uri.path.slice(root.length);
  return rel && rel.length <= 4096 && !rel.split('/').some((s) => s === '' || s === '..') ? rel : undefined;
}

/** The repository and file a menu's argument names, when the Git extension knows the repository. */
function fromArgument(api: GitApi, arg: unknown): Omit<ChangeTarget, 'scope'> | undefined {
  const found = uriOf(arg);
  if (!found) return undefined;
  // The API hands out a new wrapper on each call: a repository is known by its root.
  const root = api.getRepository(found.uri)?.rootUri.toString();
  const repository = root === undefined ? undefined : api.repositories.find((r) => r.rootUri.toString() === root);
  if (!repository) return undefined;
  if (!found.file) return { repository };
  const file = pathIn(repository, found.uri);
  return file ? { repository, file } : undefined;
}

async function pickRepository(api: GitApi): Promise<GitRepository | undefined> {
  const repos = api.repositories;
  if (repos.length <= 1) return repos[0];
  const items = repos.map((repository) => ({
    label: vscode.workspace.asRelativePath(repository.rootUri, true) || repository.rootUri.path.split('/').pop() || repository.rootUri.path,
    description: repository.state.HEAD?.name,
    repository,
  }));
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Check Docs for My Changes'),
    placeHolder: vscode.l10n.t('Which repository’s changes?'),
  });
  return pick?.repository;
}

async function pickScope(repository: GitRepository): Promise<ChangeScope | undefined> {
  const upstream = repository.state.HEAD?.upstream;
  const items: (vscode.QuickPickItem & { scope: ChangeScope })[] = [
    { label: vscode.l10n.t('Staged and unstaged changes'), description: vscode.l10n.t('default'), scope: 'local' },
    {
      label: vscode.l10n.t('This branch against its upstream / merge base'),
      description: upstream ? `${upstream.remote}/${upstream.name}` : vscode.l10n.t('no upstream: the default branch'),
      scope: 'branch',
    },
  ];
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Check Docs for My Changes'),
    placeHolder: vscode.l10n.t('Which changes?'),
  });
  return pick?.scope;
}

/** What to read, asked of the user where the argument does not say; undefined when they cancelled. */
export async function chooseTarget(api: GitApi, arg: unknown): Promise<ChangeTarget | undefined> {
  const given = fromArgument(api, arg);
  // A changed file's menu: that file's staged and unstaged change, nothing to ask.
  if (given?.file) return { ...given, scope: 'local' };
  const repository = given?.repository ?? (await pickRepository(api));
  if (!repository) return undefined;
  const scope = await pickScope(repository);
  return scope && { repository, scope };
}
