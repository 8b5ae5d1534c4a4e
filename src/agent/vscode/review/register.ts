import * as vscode from 'vscode';
import type { AgentActions, JobArg } from '../actions';
import type { AgentFeature } from '../agentFeature';
import { BranchReview } from './branchReview';
import { COMMIT_SCHEME, CommitDocuments } from './commitDocuments';

// The review commands, registered beside the agent's others (commands.ts): from the palette (a job
// is picked), a job's row in Agent Jobs and its notification (the job's id). Each is guarded, so a
// failure is a message, never a crash. The diff's sides are documents of our own (commitDocuments.ts).

export function registerReviewCommands(feature: AgentFeature, actions: AgentActions): vscode.Disposable & { readonly review: BranchReview } {
  const review = new BranchReview(feature, actions);
  const guarded = actions.guarded.bind(actions);
  const disposable = vscode.Disposable.from(
    review,
    vscode.workspace.registerTextDocumentContentProvider(COMMIT_SCHEME, new CommitDocuments(() => feature.host.git())),
    vscode.commands.registerCommand(
      'docsAssistant.agent.reviewChanges',
      guarded('Review Changes', (arg?: JobArg) => review.reviewChanges(arg)),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.agent.checkOutBranch',
      guarded('Check Out Agent Branch', (arg?: JobArg) => review.checkOut(arg)),
    ),
  );
  return Object.assign(disposable, { review });
}
