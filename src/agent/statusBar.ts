import * as vscode from 'vscode';

// Shows how many agent jobs are working, only while there are any; a click focuses the list.
export class ActiveJobsStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('docsAssistant.activeJobs', vscode.StatusBarAlignment.Left, 50);

  constructor() {
    this.item.name = 'Docs Assistant: Active Agent Jobs';
    this.item.command = 'docsAssistant.jobsView.focus';
  }

  update(activeCount: number): void {
    if (activeCount === 0) {
      this.item.hide();
      return;
    }
    this.item.text = `$(loading~spin) ${activeCount} docs job${activeCount === 1 ? '' : 's'}`;
    this.item.tooltip = `${activeCount} agent job${activeCount === 1 ? ' is' : 's are'} working. Click to show them.`;
    this.item.accessibilityInformation = { label: this.item.tooltip };
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
