import * as vscode from 'vscode';

// Shows how many agent jobs are working, only while there are any; a click focuses the list.
export class ActiveJobsStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('docsAssistant.activeJobs', vscode.StatusBarAlignment.Left, 50);

  constructor() {
    this.item.name = vscode.l10n.t('Docs Assistant: Active Agent Jobs');
    this.item.command = 'docsAssistant.jobsView.focus';
  }

  update(activeCount: number): void {
    if (activeCount === 0) {
      this.item.hide();
      return;
    }
    this.item.text = `$(loading~spin) ${activeCount === 1 ? vscode.l10n.t('1 docs job') : vscode.l10n.t('{0} docs jobs', activeCount)}`;
    this.item.tooltip =
      activeCount === 1
        ? vscode.l10n.t('1 agent job is working. Click to show them.')
        : vscode.l10n.t('{0} agent jobs are working. Click to show them.', activeCount);
    this.item.accessibilityInformation = { label: this.item.tooltip };
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
