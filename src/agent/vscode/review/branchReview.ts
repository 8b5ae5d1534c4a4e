import * as vscode from 'vscode';
import { Emitter } from '../../../common/event';
import { Disposable } from '../../../common/lifecycle';
import { trackingRef, trackingRefspec } from '../../core/gitRef';
import { labelOf } from '../../core/jobPresentation';
import type { JobRecord } from '../../core/jobStore';
import { describeFetchFailure } from '../../core/repositoryFetchError';
import { diffEntries, reviewTarget } from '../../core/repositoryReview';
import type { AgentActions, JobArg } from '../actions';
import type { AgentFeature } from '../agentFeature';
import { commitDocument } from './commitDocuments';
import { findRepository } from './findRepository';
import type { GitRepository } from '../../../host/vscode/gitApi';
import { stopMessage, type ReviewStop } from './reviewWords';

// Review Changes and Check Out Agent Branch (issue 30 §1). Both start the same way: the job's ref
// and repository are checked (src/agent/core, before any Git call), the workspace repository whose
// remote is the job's is found through the Git extension's API, and the branch is fetched into its
// remote-tracking ref only, every time, so after a follow-up the diff is the branch as it is now.
// Review Changes then opens the multi-file diff editor from the merge base with the default branch
// to the fetched commit; the working tree is never touched. Nothing here pushes, commits or
// deletes a branch.

/** A diff opened or a branch checked out: the job's timeline records it (JobStore.appendTimeline). */
export interface ReviewEvent {
  jobId: string;
  action: 'diff' | 'checkout';
  files?: number;
}

interface Fetched {
  record: JobRecord;
  repository: GitRepository;
  remote: string;
  branch: string;
  /** The commit the branch was at when fetched. */
  head: string;
}

/** A fetch with no answer in this long has failed (git's own network timeouts can be much longer). */
const FETCH_MS = 120_000;

export class BranchReview extends Disposable {
  private readonly reviewed = this._register(new Emitter<ReviewEvent>());
  readonly onDidReview = this.reviewed.event;

  constructor(
    private readonly feature: AgentFeature,
    private readonly actions: AgentActions,
  ) {
    super();
  }

  async reviewChanges(arg?: JobArg): Promise<void> {
    const ready = await this.fetch(arg, vscode.l10n.t('Review the changes of which job?'));
    if (!ready) return;
    const { record, repository, remote, branch, head } = ready;
    const base = await mergeBase(repository, remote, head);
    if (!base) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Docs Assistant: {0} shares no history with this repository’s default branch.', branch));
      return;
    }
    const changes = await repository.diffBetween(base, head);
    if (changes.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Docs Assistant: {0} has no changes against the default branch.', branch));
      return;
    }
    // The entries point at commits, not at the branch name: what is shown is what was fetched.
    const entries = diffEntries(changes, commitDocument, base, head);
    const title = vscode.l10n.t('Agent Changes: {0} ({1})', labelOf(record, vscode.l10n.t, 50), branch);
    await vscode.commands.executeCommand('vscode.changes', title, entries);
    this.reviewed.fire({ jobId: record.job.id, action: 'diff', files: entries.length });
  }

  async checkOut(arg?: JobArg): Promise<void> {
    const ready = await this.fetch(arg, vscode.l10n.t('Check out the branch of which job?'));
    if (!ready) return;
    const { record, repository, remote, branch, head } = ready;
    await repository.status();
    const { workingTreeChanges, indexChanges, mergeChanges } = repository.state;
    if (workingTreeChanges.length + indexChanges.length + mergeChanges.length > 0) {
      const checkOut = vscode.l10n.t('Check Out');
      const pick = await vscode.window.showWarningMessage(
        vscode.l10n.t('Your working tree has changes. Check out {0} anyway?', branch),
        {
          modal: true,
          detail: vscode.l10n.t('Git carries your changes over when they do not conflict with the branch, and refuses to check out when they do.'),
        },
        checkOut,
      );
      if (pick !== checkOut) return;
    }
    const local = await repository.getBranch(branch).then(
      (b) => b,
      () => undefined,
    );
    try {
      // A branch of that name that is not here yet is created from the remote-tracking ref (git's
      // own guess, which sets its upstream); one that is here is checked out as it is.
      await repository.checkout(branch);
    } catch (e) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Docs Assistant: Could not check out {0}: {1}', branch, describeFetchFailure(e).detail));
      return;
    }
    this.reviewed.fire({ jobId: record.job.id, action: 'checkout' });
    const message =
      local?.commit && local.commit !== head
        ? vscode.l10n.t('Docs Assistant: Checked out your branch {0}, which is not at {1}/{0}: pull to bring it up to date.', branch, remote)
        : vscode.l10n.t('Docs Assistant: Checked out {0}.', branch);
    void vscode.window.showInformationMessage(message);
  }

  /** The job's branch, fetched; or undefined once what stopped it has been said. */
  private async fetch(arg: JobArg, placeHolder: string): Promise<Fetched | undefined> {
    const record = await this.actions.resolveJob(arg, placeHolder, (r) => !!r.job.source?.ref && !r.notFound);
    if (!record) return undefined;
    const target = reviewTarget(record.job);
    if (target.kind !== 'branch') return this.stop(record, { kind: target.kind });
    const api = await this.feature.host.git();
    if (!api) return this.stop(record, { kind: 'noGit' });
    const match = findRepository(api, target.repository);
    if (!match) return this.stop(record, { kind: 'noRepository', repository: target.repository }, true);
    const { repository, remote } = match;
    const { branch } = target;
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Docs Assistant: Fetching {0} from {1}…', branch, remote) },
        () => bounded(repository.fetch({ remote, ref: trackingRefspec(remote, branch) }), FETCH_MS),
      );
      const head = (await repository.getCommit(trackingRef(remote, branch))).hash;
      return { record, repository, remote, branch, head };
    } catch (e) {
      return this.stop(record, { kind: 'fetchFailed', branch, remote, failure: describeFetchFailure(e) });
    }
  }

  /** Says why it stopped, offering the pull request (and, with Git but no repository, a clone). */
  private async stop(record: JobRecord, stop: ReviewStop, offerClone = false): Promise<undefined> {
    const message = stopMessage(stop, labelOf(record, vscode.l10n.t, 60));
    const clone = vscode.l10n.t('Clone Repository');
    const openPr = vscode.l10n.t('Open Pull Request');
    const items = [...(offerClone ? [clone] : []), ...(record.job.prLink ? [openPr] : [])];
    const quiet = stop.kind === 'noBranch' || stop.kind === 'noRepository';
    const pick = await (quiet ? vscode.window.showInformationMessage(message, ...items) : vscode.window.showWarningMessage(message, ...items));
    if (pick === openPr) await this.actions.openPullRequest(record.job.id);
    // The Git extension's own clone, which asks where to put it; the URL was checked (reviewTarget).
    else if (pick === clone && stop.kind === 'noRepository') await vscode.commands.executeCommand('git.clone', stop.repository);
    return undefined;
  }
}

/** Where the branch left the default branch: the remote's HEAD, else main or master, else the local HEAD. */
async function mergeBase(repository: GitRepository, remote: string, head: string): Promise<string | undefined> {
  for (const ref of [`refs/remotes/${remote}/HEAD`, `refs/remotes/${remote}/main`, `refs/remotes/${remote}/master`, 'HEAD']) {
    const base = await repository.getMergeBase(ref, head).then(
      (b) => b?.trim() || undefined,
      () => undefined,
    );
    if (base) return base;
  }
  return undefined;
}

function bounded<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(Object.assign(new Error('timed out'), { gitErrorCode: 'RemoteConnectionError', stderr: `fatal: no answer from the remote in ${ms / 1000} s` })),
      ms,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
