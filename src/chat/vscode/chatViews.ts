import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../common/lifecycle';
import type { ChatController } from './chatController';

// The two places the chat shows: the "Ask Docs" view in the sidebar, and an editor tab. Both
// render the same ChatController's conversation; closing one leaves the other as it is.

export const CHAT_VIEW_ID = 'docsAssistant.chatView';
const PANEL_TYPE = 'docsAssistant.chatPanel';

export class ChatViewProvider extends Disposable implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;

  constructor(private readonly controller: ChatController) {
    super();
    this._register(vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, this));
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const conn = this.controller.connect(view.webview);
    const sub = view.onDidDispose(() => {
      this.controller.disconnect(conn);
      sub.dispose();
      if (this.view === view) this.view = undefined;
    });
  }

  /** The sidebar view once VS Code has resolved it; undefined before and after it is disposed. */
  get resolvedView(): vscode.WebviewView | undefined {
    return this.view;
  }

  /**
   * Shows the view with focus in it (not `preserveFocus`: the keyboard goes to the chat); resolves
   * once it exists, so a following focusInput reaches it. Before VS Code has resolved the view,
   * only its generated `.focus` command can show it.
   */
  async reveal(): Promise<void> {
    if (this.view) this.view.show(false);
    else await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  }
}

export class ChatPanels extends Disposable {
  private panel: vscode.WebviewPanel | undefined;

  constructor(private readonly controller: ChatController) {
    super();
    // Restores an open chat tab after a reload; the conversation itself lives on the host.
    this._register(
      vscode.window.registerWebviewPanelSerializer(PANEL_TYPE, {
        deserializeWebviewPanel: async (panel) => this.adopt(panel),
      }),
    );
    this._register(toDisposable(() => this.panel?.dispose()));
  }

  /** Whether the chat's editor tab is open and in view. */
  get inView(): boolean {
    return this.panel?.visible ?? false;
  }

  /** Opens the editor tab, or shows it, with focus in it (not `preserveFocus`). */
  open(): void {
    if (this.panel) {
      this.panel.reveal(undefined, false);
      return;
    }
    const panel = vscode.window.createWebviewPanel(PANEL_TYPE, vscode.l10n.t('Ask Docs'), vscode.ViewColumn.Beside, { retainContextWhenHidden: false });
    this.adopt(panel);
  }

  private adopt(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    panel.iconPath = vscode.Uri.joinPath(this.controller.context.extensionUri, 'media', 'docs-assistant.svg');
    const conn = this.controller.connect(panel.webview);
    panel.onDidDispose(() => {
      this.controller.disconnect(conn);
      if (this.panel === panel) this.panel = undefined;
    });
  }
}
