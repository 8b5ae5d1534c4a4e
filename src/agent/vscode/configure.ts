import * as vscode from 'vscode';
import { isLoopbackUrl } from '../../api';
import { CONFIG_SECTION, readConfig } from '../../host/vscode/config';

// "Configure Service…": one place that walks a new user through the three settings both
// features need, with the current values prefilled. Keys are separate commands (SecretStorage).

function checkBaseUrl(value: string): string | undefined {
  if (value.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return vscode.l10n.t('Enter a full address, e.g. https://api.example.com');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return vscode.l10n.t('The address must start with https://');
  if (url.protocol === 'http:' && !isLoopbackUrl(url.href))
    return vscode.l10n.t('Use https:// — keys are only sent over plain http to this machine (the local emulator).');
  return undefined;
}

export function registerConfigureCommand(): vscode.Disposable {
  return vscode.commands.registerCommand('docsAssistant.configure', async () => {
    const cfg = readConfig();
    const notSet = vscode.l10n.t('not set');
    const items: (vscode.QuickPickItem & { setting: string })[] = [
      { label: vscode.l10n.t('Base URL'), description: cfg.baseUrl || notSet, detail: vscode.l10n.t('The documentation service address'), setting: 'baseUrl' },
      {
        label: vscode.l10n.t('Project ID'),
        description: cfg.projectId || notSet,
        detail: vscode.l10n.t('For agent jobs (API keys page of the dashboard)'),
        setting: 'projectId',
      },
      {
        label: vscode.l10n.t('Domain'),
        description: cfg.domain || notSet,
        detail: vscode.l10n.t('For the chat: the last segment of the dashboard URL'),
        setting: 'domain',
      },
      { label: `$(key) ${vscode.l10n.t('Admin API key…')}`, detail: vscode.l10n.t('For agent jobs; stored in secret storage'), setting: 'adminKey' },
      { label: `$(key) ${vscode.l10n.t('Assistant API key…')}`, detail: vscode.l10n.t('For the chat; stored in secret storage'), setting: 'assistantKey' },
      { label: `$(gear) ${vscode.l10n.t('All Docs Assistant settings')}`, setting: 'all' },
    ];
    const pick = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Docs Assistant: Configure Service'),
      placeHolder: vscode.l10n.t('What do you want to set?'),
    });
    if (!pick) return;
    if (pick.setting === 'adminKey') return vscode.commands.executeCommand('docsAssistant.setAdminKey');
    if (pick.setting === 'assistantKey') return vscode.commands.executeCommand('docsAssistant.setAssistantKey');
    if (pick.setting === 'all') return vscode.commands.executeCommand('workbench.action.openSettings', `@ext:docs-assistant.docs-assistant`);
    const current = vscode.workspace.getConfiguration(CONFIG_SECTION).get<string>(pick.setting) ?? '';
    const value = await vscode.window.showInputBox({
      title: vscode.l10n.t('Docs Assistant: {0}', pick.label),
      value: current,
      prompt: pick.detail,
      ignoreFocusOut: true,
      validateInput: pick.setting === 'baseUrl' ? checkBaseUrl : undefined,
    });
    if (value === undefined) return;
    await vscode.workspace.getConfiguration(CONFIG_SECTION).update(pick.setting, value.trim(), vscode.ConfigurationTarget.Global);
  });
}
