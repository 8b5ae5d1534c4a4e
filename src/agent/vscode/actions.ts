import * as vscode from 'vscode';
import { readConfig } from '../../host/vscode/config';
import { commandGuard, type Guard } from '../../host/vscode/guarded';
import { delayWords } from '../../host/core/keyWords';
import { selectedText } from '../../host/core/selection';
import { workspacePath } from '../../host/vscode/workspacePath';
import { describeForUser } from '../../host/core/errorWords';
import { notReadyError } from '../core/agentAccess';
import type { AgentJobs } from '../core/agentJobs';
import type { AgentFeature } from './agentFeature';
import { labelOf, statusText } from '../core/jobPresentation';
import type { JobRecord } from '../core/jobStore';
import type { JobsTreeElement } from './jobsTreeProvider';
import type { Selection } from '../../common/selection';
import { buildAgentPrompt, isBlankPrompt } from '../core/prompt';
import { choosePullRequestTarget, openPullRequestInOf, PULL_REQUESTS_EXTENSION_ID } from '../core/pullRequestLink';
import { askInstruction } from './promptInput';
import type { PromptReviews } from './reviewDocument';

// What the agent feature does for the user: start a job, follow one up, open its pull request…
// The palette's commands (commands.ts) and the chat's job cards (jobsService.ts) both call these,
// so neither goes through the other. Each catches its own errors and turns them into a message
// that says what to do next (src/host/vscode/errorMessages.ts): a failing action must never take the
// extension host down.

/** A job named by the tree (its element), by id, or not at all (then the user picks one). */
export type JobArg = JobsTreeElement | string | undefined;

export class AgentActions {
  /** Runs `fn`, showing any failure as a message with the action that fixes it (src/host/vscode/guarded.ts). */
  readonly guarded: Guard;

  constructor(
    private readonly feature: AgentFeature,
    readonly reviews: PromptReviews,
  ) {
    this.guarded = commandGuard(feature.services);
  }

  /**
   * The jobs of the configured project, after offering to fix whatever is missing. What is missing
   * comes from the agent's one readiness (AgentAccess), in errorWords.ts's words.
   */
  async ensureReady(): Promise<AgentJobs | undefined> {
    const missing = await this.feature.access.missing();
    if (missing) {
      const { message } = describeForUser(notReadyError(missing), vscode.l10n.t);
      if (missing !== 'apiKey') {
        const pick = await vscode.window.showWarningMessage(message, vscode.l10n.t('Configure Service…'));
        if (pick) await vscode.commands.executeCommand('docsAssistant.configure');
        return undefined;
      }
      const pick = await vscode.window.showWarningMessage(message, vscode.l10n.t('Set Admin API Key…'));
      if (!pick || !(await this.feature.services.keys.prompt('admin'))) return undefined;
    }
    return this.feature.current;
  }

  /** Warns before a use that our own count says is over the hourly limit. */
  private async withinBudget(jobs: AgentJobs): Promise<boolean> {
    if (jobs.budget.remaining() > 0) return true;
    const freeAt = jobs.budget.nextFreeAt();
    const sendAnyway = vscode.l10n.t('Send Anyway');
    const said = [
      vscode.l10n.t("You have sent {0} agent requests for this project in the last hour, the service's limit.", jobs.budget.max),
      freeAt ? vscode.l10n.t('One frees up in {0}.', delayWords(freeAt - Date.now(), vscode.l10n.t)) : '',
      vscode.l10n.t('The service will probably refuse this one.'),
    ];
    const pick = await vscode.window.showWarningMessage(said.filter(Boolean).join(' '), { modal: true }, sendAnyway);
    return pick === sendAnyway;
  }

  private async pickJob(jobs: AgentJobs, placeHolder: string, filter: (r: JobRecord) => boolean): Promise<JobRecord | undefined> {
    const items = jobs.store
      .all()
      .filter(filter)
      .map((r) => ({ label: labelOf(r, vscode.l10n.t), description: statusText(r, vscode.l10n.t), detail: r.job.id, record: r }));
    if (items.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Docs Assistant: No agent jobs here yet.'));
      return undefined;
    }
    return (await vscode.window.showQuickPick(items, { placeHolder, matchOnDetail: true }))?.record;
  }

  async resolveJob(arg: JobArg, placeHolder: string, filter: (r: JobRecord) => boolean = () => true): Promise<JobRecord | undefined> {
    const jobs = this.feature.current;
    if (!jobs) return undefined;
    const id = typeof arg === 'string' ? arg : arg?.jobId;
    if (id) return jobs.store.get(id);
    return this.pickJob(jobs, placeHolder, filter);
  }

  private selectionOfActiveEditor(): Selection | undefined {
    const editor = vscode.window.activeTextEditor;
    const selected = selectedText(editor);
    return selected && editor && { ...selected, path: workspacePath(editor.document.uri) };
  }

  async reveal(jobId: string): Promise<void> {
    await vscode.commands.executeCommand('docsAssistant.jobsView.focus');
    await this.feature.view.reveal(this.feature.tree.elementFor(jobId), { select: true, focus: true, expand: true });
  }

  /**
   * Starts a job. Without a draft, asks for the instruction and builds the prompt around the
   * editor's selection. Either way the user reviews the exact text in an editor, and what they
   * send is what the agent gets; `label` is stored beside it (the instruction when not given).
   */
  async launch(request: { draft?: string; label?: string } = {}): Promise<JobRecord | undefined> {
    const jobs = await this.ensureReady();
    if (!jobs) return undefined;
    let draft = request.draft?.trim() ? request.draft : undefined;
    let label = request.label;
    if (draft === undefined) {
      const instruction = await askInstruction(vscode.l10n.t('What should the agent fix in the docs?'), 1, 2);
      if (instruction === undefined) return undefined;
      draft = buildAgentPrompt(instruction, this.selectionOfActiveEditor());
      label ??= instruction;
    }
    // The document is the confirmation: no dialog after Send, and its text goes out unchanged.
    const prompt = await this.reviews.askFinalPrompt('newJob', draft);
    if (isBlankPrompt(prompt)) return undefined;
    const record = await this.create(jobs, prompt!, label);
    if (record) await this.reveal(record.job.id);
    return record;
  }

  /**
   * Starts a job with a prompt the user has just confirmed elsewhere: VS Code's Chat showed it in
   * #fixDocs's confirmation (src/common/delegation.ts). It is sent as given. The job is not
   * revealed: the user is in the chat, and the tree shows it anyway.
   */
  async startConfirmed(prompt: string, label: string | undefined, signal?: AbortSignal): Promise<JobRecord | undefined> {
    const jobs = await this.ensureReady();
    if (!jobs || isBlankPrompt(prompt)) return undefined;
    return this.create(jobs, prompt, label, signal);
  }

  /** Sends a reviewed prompt as a new job, after the hourly count, with a notification that can cancel it. */
  private async create(jobs: AgentJobs, prompt: string, label: string | undefined, signal?: AbortSignal): Promise<JobRecord | undefined> {
    if (!(await this.withinBudget(jobs))) return undefined;
    return vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Docs Assistant: Starting the agent job with your reviewed prompt…'),
        cancellable: true,
      },
      (_p, token) => {
        const ctrl = new AbortController();
        const abort = () => ctrl.abort();
        const cancel = token.onCancellationRequested(abort);
        signal?.addEventListener('abort', abort);
        if (signal?.aborted) abort();
        return jobs.create(prompt, ctrl.signal, label).finally(() => {
          cancel.dispose();
          signal?.removeEventListener('abort', abort);
        });
      },
    );
  }

  async followUp(arg?: JobArg): Promise<void> {
    const jobs = await this.ensureReady();
    if (!jobs) return;
    const record = await this.resolveJob(arg, vscode.l10n.t('Which job gets the follow-up?'), (r) => !r.notFound);
    if (!record) return;
    // A one-line box first, as for a new job: it says what to write, and most follow-ups are
    // short. A long one is written in the review document, which is what is sent either way.
    const label = labelOf(record, vscode.l10n.t, 50);
    const instruction = await askInstruction(vscode.l10n.t('Follow-up for "{0}"', label), 1, 2);
    if (isBlankPrompt(instruction)) return;
    const prompt = await this.reviews.askFinalPrompt('followUp', instruction!.trim(), label);
    if (isBlankPrompt(prompt) || !(await this.withinBudget(jobs))) return;
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Docs Assistant: Sending your reviewed follow-up to the agent…') },
      () => jobs.followUp(record.job.id, prompt!),
    );
    await this.reveal(record.job.id);
  }

  async openPullRequest(arg?: JobArg): Promise<void> {
    // Only a pull request link the job store holds is opened: callers (the tree, a notification,
    // the chat's job card) name a job, never a URL, so no message can make this open anything else.
    const url = (await this.resolveJob(arg, vscode.l10n.t('Open the pull request of which job?'), (r) => !!r.job.prLink))?.job.prLink;
    if (!url) return;
    const uri = vscode.Uri.parse(url, true);
    if (uri.scheme !== 'https' && uri.scheme !== 'http') {
      void vscode.window.showErrorMessage(vscode.l10n.t('Docs Assistant: Not opening {0}: links: only web addresses are opened.', uri.scheme));
      return;
    }
    // A github.com pull request may open in the GitHub Pull Requests extension instead, through
    // its URI handler (pullRequestLink.ts): openExternal hands our own app scheme back to VS Code.
    const { host } = this.feature;
    const target = choosePullRequestTarget({
      url,
      setting: openPullRequestInOf(readConfig().openPullRequestIn),
      extensionInstalled: host.hasExtension(PULL_REQUESTS_EXTENSION_ID),
      uriScheme: vscode.env.uriScheme,
    });
    if (target.kind === 'pullRequestsExtension') {
      await host.openExternal(vscode.Uri.parse(target.uri, true));
      return;
    }
    if (target.missingExtension) this.sayPullRequestsExtensionMissing();
    await host.openExternal(uri);
  }

  private toldPullRequestsExtensionMissing = false;

  /** Once per window: the setting asks for the GitHub Pull Requests extension, and it is not here. */
  private sayPullRequestsExtensionMissing(): void {
    if (this.toldPullRequestsExtensionMissing) return;
    this.toldPullRequestsExtensionMissing = true;
    const install = vscode.l10n.t('Install GitHub Pull Requests');
    const installIt = this.guarded('Install GitHub Pull Requests', async () => {
      // Straight from the marketplace when VS Code can reach one; else the Extensions view, searched.
      await vscode.commands
        .executeCommand('workbench.extensions.installExtension', PULL_REQUESTS_EXTENSION_ID)
        .then(undefined, () => vscode.commands.executeCommand('workbench.extensions.search', `@id:${PULL_REQUESTS_EXTENSION_ID}`));
    });
    void vscode.window
      .showInformationMessage(
        vscode.l10n.t('Docs Assistant: The GitHub Pull Requests extension is not installed or not enabled, so pull requests open in the browser.'),
        install,
      )
      .then((pick) => (pick === install ? installIt() : undefined));
  }

  async showJob(arg?: JobArg): Promise<void> {
    const record = await this.resolveJob(arg, vscode.l10n.t('Show which job?'));
    if (!record) return;
    // Enter on the job's own row: the row has the keyboard already, and expanding it is what is
    // asked. Taking focus again would pull it back from the row the user went on to meanwhile
    // (the keyboard e2e's Down after Enter, on a loaded machine).
    if (typeof arg === 'object' && arg.kind === 'job') {
      await this.feature.view.reveal(this.feature.tree.elementFor(record.job.id), { expand: true, select: false, focus: false });
      return;
    }
    await this.reveal(record.job.id);
  }
}
