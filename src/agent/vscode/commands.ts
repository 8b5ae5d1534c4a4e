import * as vscode from 'vscode';
import type { AgentActions, JobArg } from './actions';
import { launchRequestFor } from './codeTargetDraft';
import type { AgentFeature } from './agentFeature';

// The agent feature's commands: what the user runs from the palette, the tree, menus and
// notifications. Each is one of AgentActions, guarded so that a failure is a message, never a crash.

export function registerAgentCommands(feature: AgentFeature, actions: AgentActions): vscode.Disposable {
  const { keys } = feature.services;
  const { reviews } = actions;
  const guarded = actions.guarded.bind(actions);

  const copyPullRequestLink = guarded('Copy Pull Request Link', async (arg?: JobArg) => {
    const url = (await actions.resolveJob(arg, vscode.l10n.t('Copy the pull request link of which job?'), (r) => !!r.job.prLink))?.job.prLink;
    if (url) await vscode.env.clipboard.writeText(url);
  });

  const copyJobId = guarded('Copy Job ID', async (arg?: JobArg) => {
    const record = await actions.resolveJob(arg, vscode.l10n.t('Copy the id of which job?'));
    if (record) await vscode.env.clipboard.writeText(record.job.id);
  });

  const removeJob = guarded('Remove Job', async (arg?: JobArg) => {
    const record = await actions.resolveJob(arg, vscode.l10n.t('Remove which job from the list?'));
    if (!record || !feature.current) return;
    if (record.job.status === 'active' && !record.notFound) {
      const remove = vscode.l10n.t('Remove');
      const ok = await vscode.window.showWarningMessage(
        vscode.l10n.t('This job is still working. Remove it from the list? The agent keeps running on the service.'),
        { modal: true },
        remove,
      );
      if (ok !== remove) return;
    }
    feature.current.remove(record.job.id);
  });

  const setAdminKey = guarded('Set Admin API Key', async () => {
    if (await keys.prompt('admin')) feature.current?.resumePolling();
  });
  const clearAdminKey = guarded('Clear Admin API Key', async () => {
    await keys.clear('admin');
    feature.current?.poller.stopAll();
    void vscode.window.showInformationMessage(vscode.l10n.t('Docs Assistant: Admin API key cleared. Active jobs are no longer polled.'));
  });
  const refresh = guarded('Refresh', async () => {
    if (await actions.ensureReady()) feature.current?.refresh();
    feature.tree.refresh();
  });

  // Each registration names its id literally: scripts/check-commands.mjs matches these calls
  // against package.json. The title bar of a review document passes its URI; the
  // palette and the status bar pass nothing.
  return vscode.Disposable.from(
    vscode.commands.registerCommand(
      'docsAssistant.agent.sendReviewedPrompt',
      guarded('Send to Agent', (target?: unknown) => reviews.send(target)),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.agent.cancelReviewedPrompt',
      guarded('Cancel', (target?: unknown) => reviews.cancel(target)),
    ),
    vscode.commands.registerCommand('docsAssistant.setAdminKey', setAdminKey),
    vscode.commands.registerCommand('docsAssistant.clearAdminKey', clearAdminKey),
    vscode.commands.registerCommand(
      'docsAssistant.agent.fixDocs',
      // A code action (src/codeActions) passes what it is about (src/common/commandArgs.ts): the draft
      // quotes it, in the review document, and only the user's Send starts the job.
      guarded('Fix Docs with Agent', async (args?: unknown) => {
        const request = await launchRequestFor(args);
        if (request) await actions.launch(request);
      }),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.agent.followUp',
      guarded('Send Follow-up', (arg?: JobArg) => actions.followUp(arg)),
    ),
    vscode.commands.registerCommand('docsAssistant.agent.refresh', refresh),
    vscode.commands.registerCommand(
      'docsAssistant.agent.openPullRequest',
      guarded('Open Pull Request', (arg?: JobArg) => actions.openPullRequest(arg)),
    ),
    vscode.commands.registerCommand('docsAssistant.agent.copyPullRequestLink', copyPullRequestLink),
    vscode.commands.registerCommand('docsAssistant.agent.copyJobId', copyJobId),
    vscode.commands.registerCommand('docsAssistant.agent.removeJob', removeJob),
    vscode.commands.registerCommand(
      'docsAssistant.agent.showJob',
      guarded('Show Job', (arg?: JobArg) => actions.showJob(arg)),
    ),
  );
}
