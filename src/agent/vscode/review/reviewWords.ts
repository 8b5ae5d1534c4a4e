import * as vscode from 'vscode';
import type { FetchFailure } from '../../core/repositoryFetchError';

// What Review Changes and Check Out Agent Branch say when they cannot go on, with the actions that
// still make sense: the pull request always, when the job has one.

export type ReviewStop =
  | { kind: 'noBranch' }
  | { kind: 'invalidRef' }
  | { kind: 'invalidRepository' }
  | { kind: 'noGit' }
  | { kind: 'noRepository'; repository: string }
  | { kind: 'fetchFailed'; branch: string; remote: string; failure: FetchFailure };

function fetchReason(f: FetchFailure): string {
  switch (f.reason) {
    case 'auth':
      return vscode.l10n.t('Git could not sign in to the remote.');
    case 'network':
      return vscode.l10n.t('the remote could not be reached.');
    case 'noBranch':
      return vscode.l10n.t('the remote has no such branch (yet).');
    default:
      return vscode.l10n.t('Git failed.');
  }
}

/** The message for `stop` about the job called `what`. */
export function stopMessage(stop: ReviewStop, what: string): string {
  switch (stop.kind) {
    case 'noBranch':
      return vscode.l10n.t('Docs Assistant: The agent has no branch for "{0}" yet.', what);
    case 'invalidRef':
      return vscode.l10n.t('Docs Assistant: The service named a branch for "{0}" that is not a valid Git branch name, so nothing was fetched.', what);
    case 'invalidRepository':
      return vscode.l10n.t('Docs Assistant: The service named a repository for "{0}" that is not a Git URL.', what);
    case 'noGit':
      return vscode.l10n.t('Docs Assistant: Git is not available here, so the changes of "{0}" cannot be reviewed in the editor.', what);
    case 'noRepository':
      return vscode.l10n.t('Docs Assistant: No repository open in this workspace has {0} as a remote.', stop.repository);
    case 'fetchFailed': {
      const detail = stop.failure.detail ? ` (${stop.failure.detail})` : '';
      return vscode.l10n.t('Docs Assistant: Could not fetch {0} from {1}: {2}{3}', stop.branch, stop.remote, fetchReason(stop.failure), detail);
    }
  }
}
