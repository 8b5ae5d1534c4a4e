import * as vscode from 'vscode';
import type { JobRecord } from '../core/jobStore';
import { labelOf } from '../core/jobPresentation';

// One notification when a job stops working, with the action that matters most for its outcome.
// `offersPreview`: the job has a branch and this service offers previews (previewFeature.ts).
export async function notifyJobFinished(r: JobRecord, offersPreview = false): Promise<void> {
  const what = labelOf(r, vscode.l10n.t, 60);
  const { job } = r;
  const openPr = vscode.l10n.t('Open Pull Request');
  const showJob = vscode.l10n.t('Show Job');
  const followUp = vscode.l10n.t('Send Follow-up…');
  const review = vscode.l10n.t('Review Changes');
  const openPreview = vscode.l10n.t('Open Preview');
  const preview = offersPreview ? [openPreview] : [];
  let pick: string | undefined;
  if (job.status === 'completed' && job.prLink) {
    const reviewIt = job.source?.ref ? [review] : [];
    pick = await vscode.window.showInformationMessage(
      vscode.l10n.t('Docs Assistant: Pull request ready for "{0}".', what),
      ...reviewIt,
      openPr,
      ...preview,
      showJob,
    );
  } else if (job.status === 'completed') {
    pick = await vscode.window.showInformationMessage(vscode.l10n.t('Docs Assistant: The agent finished "{0}" without changes.', what), showJob);
  } else if (job.status === 'failed') {
    pick = await vscode.window.showErrorMessage(
      vscode.l10n.t('Docs Assistant: The agent job "{0}" failed. You can send a follow-up with more detail.', what),
      followUp,
      showJob,
    );
  } else if (job.status === 'archived') {
    pick = await vscode.window.showInformationMessage(vscode.l10n.t('Docs Assistant: The agent job "{0}" was archived.', what), showJob);
  }
  if (pick === openPreview) await vscode.commands.executeCommand('docsAssistant.agent.openPreview', job.id);
  else if (pick === openPr) await vscode.commands.executeCommand('docsAssistant.agent.openPullRequest', job.id);
  else if (pick === showJob) await vscode.commands.executeCommand('docsAssistant.agent.showJob', job.id);
  else if (pick === review) await vscode.commands.executeCommand('docsAssistant.agent.reviewChanges', job.id);
  else if (pick === followUp) await vscode.commands.executeCommand('docsAssistant.agent.followUp', job.id);
}
