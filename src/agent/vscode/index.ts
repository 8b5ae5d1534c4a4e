import * as vscode from 'vscode';
import type { AgentDelegation } from '../../common/delegation';
import type { AgentJobsService } from '../../common/jobs';
import { AgentActions } from './actions';
import { AgentFeature, type AgentServices } from './agentFeature';
import { registerAgentCommands } from './commands';
import { registerConfigureCommand } from './configure';
import { AgentDelegationBridge } from './delegation';
import { AgentJobsBridge } from './jobsService';
import { PreviewFeature } from './previewFeature';
import { PromptReviews } from './reviewDocument';
import { registerReviewCommands } from './review/register';

export type { AgentFeature, AgentHost, AgentServices } from './agentFeature';

/** The agent feature, and what the chat may use of it (activation.ts hands `jobs` and `delegation` over). */
export function registerAgentFeature(
  context: vscode.ExtensionContext,
  services: AgentServices,
): vscode.Disposable & { readonly feature: AgentFeature; readonly jobs: AgentJobsService; readonly delegation: AgentDelegation } {
  const feature = new AgentFeature(context, services);
  const actions = new AgentActions(feature, new PromptReviews());
  // Review Changes / Check Out Agent Branch; each one done goes on the job's timeline (issue 30 §3).
  const branches = registerReviewCommands(feature, actions);
  branches.review.onDidReview(({ jobId, action, files }) =>
    feature.current?.store.appendTimeline(jobId, { at: new Date().toISOString(), kind: 'review', action, ...(files === undefined ? {} : { files }) }),
  );
  const previews = new PreviewFeature(feature, actions);
  const jobs = new AgentJobsBridge(feature, actions, feature.onDidChangeJobs, branches.review, previews);
  return Object.assign(
    vscode.Disposable.from(feature, jobs, actions.reviews, registerAgentCommands(feature, actions), branches, registerConfigureCommand(), previews),
    {
      feature,
      jobs,
      delegation: new AgentDelegationBridge(actions),
    },
  );
}
