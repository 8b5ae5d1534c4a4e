import * as vscode from 'vscode';
import type { ServiceError } from '../../api';
import { Disposable, DisposableStore, MutableDisposable } from '../../common/lifecycle';
import { describeForUser } from '../../host/core/errorWords';
import { RedactingLog } from '../../host/core/redactingLog';
import { readConfig } from '../../host/vscode/config';
import { showServiceError } from '../../host/vscode/errorMessages';
import type { AgentJobs } from '../core/agentJobs';
import { labelOf } from '../core/jobPresentation';
import type { JobRecord } from '../core/jobStore';
import {
  previewBranch,
  previewFromTimeline,
  previewLogLines,
  previewTimelineEntry,
  previewTooltipMarkdown,
  previewUrlOf,
  previewWords,
} from '../core/previewPresentation';
import { PREVIEW_REQUESTS_PER_MINUTE, PreviewRunner, type JobPreview } from '../core/previewRunner';
import { RateBudget } from '../core/rateBudget';
import type { AgentActions, JobArg } from './actions';
import type { AgentFeature } from './agentFeature';
import type { RowExtras } from './jobsTreeProvider';

// Open Preview in VS Code: the command on a job's row, its notification and the palette; the
// preview's words on the row; the build's logs in their own output channel. One runner per
// project (its budget is the project's), made again when the settings name another project.
// The endpoints are detected: the first 403/404 is said once, quietly, and the action hidden
// through the `docsAssistant.previewNotOffered` context key.

const NOT_OFFERED_KEY = 'docsAssistant.previewNotOffered';

export class PreviewFeature extends Disposable {
  private jobs: AgentJobs | undefined;
  private runner: PreviewRunner | undefined;
  private readonly project = this._register(new MutableDisposable<DisposableStore>());
  private readonly channel = this._register(vscode.window.createOutputChannel(vscode.l10n.t('Docs Assistant Preview'), { log: true }));
  /** The logs come from the service: every line is redacted like the extension's own log. */
  private readonly log: RedactingLog;

  constructor(
    private readonly feature: AgentFeature,
    private readonly actions: AgentActions,
  ) {
    super();
    this.log = new RedactingLog(this.channel, feature.services.keys);
    feature.tree.rowExtras = (r) => this.rowExtras(r);
    feature.offersPreview = (r) => this.runner?.offered === true && previewBranch(r.job.source.ref) !== undefined;
    this._register(feature.onDidChangeJobs(() => this.followProject()));
    this._register(
      vscode.commands.registerCommand(
        'docsAssistant.agent.openPreview',
        actions.guarded('Open Preview', (arg?: JobArg) => this.openPreview(arg)),
      ),
    );
    this.followProject();
  }

  /** A runner for the configured project's jobs; none while there is no project. */
  private followProject(): void {
    const jobs = this.feature.current;
    if (jobs === this.jobs) return;
    this.jobs = jobs;
    this.runner = undefined;
    this.project.clear();
    void vscode.commands.executeCommand('setContext', NOT_OFFERED_KEY, false);
    if (!jobs) return;
    const scope = new DisposableStore();
    const { baseUrl, projectId } = readConfig();
    const budget = new RateBudget(this.feature.context.globalState, `docsAssistant.previewUses:${baseUrl}|${projectId}`, PREVIEW_REQUESTS_PER_MINUTE, 60_000);
    const runner = scope.add(new PreviewRunner({ calls: () => this.feature.access.previewClient(), budget }));
    scope.add(runner.onDidChange((p) => this.record(jobs, p)));
    scope.add(runner.onDidFindNotOffered((e) => this.sayNotOffered(e)));
    scope.add(jobs.onDidFinishJob((r) => this.rebuildIfStale(r)));
    this.project.value = scope;
    this.runner = runner;
    // The previews this project's jobs had before a reload: their rows and cards show them again.
    for (const r of jobs.store.all()) {
      const p = previewFromTimeline(r);
      if (p) {
        runner.restore(p);
        this.recorded.set(p.jobId, 'success');
      }
    }
  }

  /** The phase each job's timeline last got, so that a preview's request and its end are each kept once. */
  private readonly recorded = new Map<string, string>();

  /** A preview changed: its row is drawn again, and its request or its end goes into the job's timeline. */
  private record(jobs: AgentJobs, p: JobPreview): void {
    this.feature.tree.refresh();
    const entry = previewTimelineEntry(p, new Date().toISOString());
    if (entry?.kind !== 'preview' || this.recorded.get(p.jobId) === entry.state) return;
    this.recorded.set(p.jobId, entry.state);
    jobs.store.appendTimeline(p.jobId, entry);
  }

  private rowExtras(r: JobRecord): RowExtras | undefined {
    const runner = this.runner;
    if (!runner?.offered || previewBranch(r.job.source.ref) === undefined) return undefined;
    const p = runner.get(r.job.id);
    const t = vscode.l10n.t;
    return { contextFlag: 'preview', description: p && previewWords(p, t), tooltipMarkdown: p && previewTooltipMarkdown(p, t) };
  }

  /** The address of the job's ready preview, while it still shows the branch as it is now (for the chat's card). */
  urlOf(jobId: string): string | undefined {
    const runner = this.runner;
    const record = this.jobs?.store.get(jobId);
    const branch = previewBranch(record?.job.source.ref);
    const p = runner?.get(jobId);
    if (!runner || !record || branch === undefined || p?.phase !== 'success') return undefined;
    return runner.isStale(jobId, branch, record.followUps.length) ? undefined : previewUrlOf(p);
  }

  async openPreview(arg?: JobArg): Promise<void> {
    const record = await this.actions.resolveJob(arg, vscode.l10n.t('Open the preview of which job?'), (r) => previewBranch(r.job.source.ref) !== undefined);
    const runner = this.runner;
    if (!record || !runner) return;
    const branch = previewBranch(record.job.source.ref);
    if (branch === undefined) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Docs Assistant: This job has no branch to preview yet.'));
      return;
    }
    const current = runner.get(record.job.id);
    if (current?.phase === 'success' && !runner.isStale(record.job.id, branch, record.followUps.length)) {
      await this.openUrl(current);
      return;
    }
    await this.build(runner, record, branch);
  }

  /** After a follow-up the agent changed the branch: a job that had a preview gets it rebuilt. */
  private rebuildIfStale(r: JobRecord): void {
    const runner = this.runner;
    const branch = previewBranch(r.job.source.ref);
    if (!runner?.offered || branch === undefined || r.job.status !== 'completed') return;
    if (runner.get(r.job.id) === undefined || !runner.isStale(r.job.id, branch, r.followUps.length)) return;
    void this.build(runner, r, branch);
  }

  private async build(runner: PreviewRunner, record: JobRecord, branch: string): Promise<void> {
    const jobId = record.job.id;
    const label = labelOf(record, vscode.l10n.t, 60);
    const p = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Docs Assistant: Preview of "{0}"', label), cancellable: true },
      (progress, token) => {
        const phases = runner.onDidChange((q) => q.jobId === jobId && progress.report({ message: previewWords(q, vscode.l10n.t) }));
        const cancel = token.onCancellationRequested(() => runner.forget(jobId));
        return runner.start(jobId, branch, record.followUps.length).finally(() => {
          phases.dispose();
          cancel.dispose();
        });
      },
    );
    // Replaced by a newer build, or cancelled: that one (or nobody) reports.
    if (runner.get(jobId) !== p) return;
    await this.report(p, label, branch);
  }

  private async report(p: JobPreview, label: string, branch: string): Promise<void> {
    if (p.phase === 'success') {
      const url = previewUrlOf(p);
      if (url === undefined) return;
      const open = vscode.l10n.t('Open Preview');
      const pick = await vscode.window.showInformationMessage(vscode.l10n.t('Docs Assistant: The preview of "{0}" is ready: {1}', label, url), open);
      if (pick === open) await this.openUrl(p);
    } else if (p.phase === 'failure') {
      this.log.error(`Preview of ${branch} failed${p.summary ? `: ${p.summary}` : ''}`);
      for (const line of previewLogLines(p)) this.log.info(line);
      const show = vscode.l10n.t('Show Logs');
      const pick = await vscode.window.showErrorMessage(vscode.l10n.t('Docs Assistant: The preview of "{0}" failed. Its logs are in the output.', label), show);
      if (pick === show) this.channel.show(true);
    } else if (p.phase === 'error' && p.error && p.error.reason.code !== 'notOffered') {
      await showServiceError(p.error);
    }
  }

  /** Opens only the address the service gave for this preview, and only an http(s) one. */
  private async openUrl(p: JobPreview): Promise<void> {
    const url = previewUrlOf(p);
    if (url === undefined) return;
    await this.feature.host.openExternal(vscode.Uri.parse(url, true));
  }

  /** Once per project: the service does not offer previews, so the action goes away. */
  private sayNotOffered(error: ServiceError): void {
    void vscode.commands.executeCommand('setContext', NOT_OFFERED_KEY, true);
    this.feature.tree.refresh();
    const { message } = describeForUser(error, vscode.l10n.t);
    this.log.warn(`Previews are not offered here: ${error.message}`);
    void vscode.window.showInformationMessage(vscode.l10n.t('Docs Assistant: {0} Open Preview is hidden for this project.', message));
  }
}
