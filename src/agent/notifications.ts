import * as vscode from 'vscode';
import type { JobRecord } from './jobStore';
import { labelOf } from './jobPresentation';

// One notification when a job stops working, with the action that matters most for its outcome.
export async function notifyJobFinished(r: JobRecord): Promise<void> {
  const what = `"${labelOf(r, 60)}"`;
  const { job } = r;
  let pick: string | undefined;
  if (job.status === 'completed' && job.prLink) {
    pick = await vscode.window.showInformationMessage(`Docs Assistant: Pull request ready for ${what}.`, 'Open Pull Request', 'Show Job');
  } else if (job.status === 'completed') {
    pick = await vscode.window.showInformationMessage(`Docs Assistant: The agent finished ${what} without changes.`, 'Show Job');
  } else if (job.status === 'failed') {
    pick = await vscode.window.showErrorMessage(`Docs Assistant: The agent job ${what} failed. You can send a follow-up with more detail.`, 'Send Follow-up…', 'Show Job');
  } else if (job.status === 'archived') {
    pick = await vscode.window.showInformationMessage(`Docs Assistant: The agent job ${what} was archived.`, 'Show Job');
  }
  if (pick === 'Open Pull Request') await vscode.commands.executeCommand('docsAssistant.agent.openPullRequest', job.id);
  else if (pick === 'Show Job') await vscode.commands.executeCommand('docsAssistant.agent.showJob', job.id);
  else if (pick === 'Send Follow-up…') await vscode.commands.executeCommand('docsAssistant.agent.followUp', job.id);
}
