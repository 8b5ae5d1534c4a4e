import * as vscode from 'vscode';
import { Disposable } from '../../common/lifecycle';
import { Emitter, type Event } from '../../common/event';
import type { AgentJobsService, JobAction, JobLaunch, JobState } from '../../common/jobs';
import type { AgentActions } from './actions';
import type { AgentFeature } from './agentFeature';
import { labelOf } from '../core/jobPresentation';
import type { BranchReview } from './review/branchReview';
import type { PreviewFeature } from './previewFeature';

// The agent feature as the chat and VS Code's Chat see it (src/common/jobs.ts): src/activation.ts
// hands this over, so the chat's job cards follow the job store's own change events instead of
// polling a command, and its buttons run the same actions as the palette, on jobs the store holds.

export class AgentJobsBridge extends Disposable implements AgentJobsService {
  private readonly changed = this._register(new Emitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly feature: AgentFeature,
    private readonly actions: AgentActions,
    onDidChangeJobs: Event<void>,
    private readonly review: BranchReview,
    private readonly previews: Pick<PreviewFeature, 'urlOf' | 'openPreview'>,
  ) {
    super();
    this._register(onDidChangeJobs(() => this.changed.fire()));
    this._register(feature.access.onDidChangeReadiness(() => this.changed.fire()));
  }

  /** The agent's one readiness (AgentAccess): service, project and admin key set. */
  get available(): boolean {
    return this.feature.access.ready;
  }

  async launch(request: JobLaunch): Promise<{ jobId: string } | undefined> {
    const record = await this.actions.guarded('Fix Docs with Agent', () => this.actions.launch(request))();
    return record ? { jobId: record.job.id } : undefined;
  }

  state(jobId: string): JobState | undefined {
    const r = this.feature.current?.store.get(jobId);
    if (!r) return undefined;
    const previewUrl = this.previews.urlOf(jobId);
    return {
      id: r.job.id,
      status: r.job.status,
      prLink: r.job.prLink,
      label: labelOf(r, vscode.l10n.t),
      notFound: !!r.notFound,
      ...(previewUrl === undefined ? {} : { previewUrl }),
    };
  }

  async act(jobId: string, action: JobAction): Promise<void> {
    const run = {
      openPullRequest: () => this.actions.openPullRequest(jobId),
      followUp: () => this.actions.followUp(jobId),
      showJob: () => this.actions.showJob(jobId),
      reviewChanges: () => this.review.reviewChanges(jobId),
      checkOutBranch: () => this.review.checkOut(jobId),
      openPreview: () => this.previews.openPreview(jobId),
    }[action];
    if (run) await this.actions.guarded(action, run)();
  }
}
