import * as vscode from 'vscode';
import { Disposable } from '../../common/lifecycle';
import type { HostNotificationName, HostNotifications, HostToWebviewMessage, RequestHandlers } from '../../common/protocol';
import type { Log } from '../../host/vscode/log';
import { PageChannel } from '../core/pageChannel';
import { createNonce, renderWebviewHtml } from '../core/webviewHtml';

// One webview showing the chat (the sidebar view or an editor panel): its HTML, and the
// protocol of src/common/protocol.ts spoken over its messages (../core/pageChannel.ts).

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist')],
  };
}

export class ChatWebviewConnection extends Disposable {
  private readonly channel: PageChannel;

  constructor(
    private readonly webview: vscode.Webview,
    private readonly extensionUri: vscode.Uri,
    handlers: RequestHandlers,
    log: Log,
    imageOrigins: readonly string[] = [],
  ) {
    super();
    this.channel = new PageChannel({ post: (m) => this.post(m), handlers, log, t: vscode.l10n.t });
    webview.options = webviewOptions(extensionUri);
    this.render(imageOrigins);
    this._register(webview.onDidReceiveMessage((m) => void this.channel.receive(m)));
  }

  /** (Re)loads the page; it says `ready` again and gets a fresh snapshot. */
  render(imageOrigins: readonly string[]): void {
    if (this.isDisposed) return;
    this.channel.reload();
    const asUri = (...p: string[]) => this.webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, ...p)).toString();
    this.webview.html = renderWebviewHtml({
      cspSource: this.webview.cspSource,
      nonce: createNonce(),
      scriptUri: asUri('dist', 'webview.js'),
      styleUri: asUri('media', 'chat.css'),
      codiconUri: asUri('dist', 'codicon.css'),
      title: vscode.l10n.t('Ask Docs'),
      imageOrigins,
      // The page's words in the display language (@vscode/l10n in the page); none for English.
      l10nBundle: vscode.l10n.bundle,
      lang: vscode.env.language,
    });
  }

  notify<N extends HostNotificationName>(name: N, payload: HostNotifications[N]): void {
    if (!this.isDisposed) this.channel.notify(name, payload);
  }

  private post(message: HostToWebviewMessage): void {
    // A disposed webview throws on postMessage; nothing is sent to one.
    if (this.isDisposed) return;
    // postMessage rejects when the webview went away mid-flight; there is nobody left to tell.
    void Promise.resolve(this.webview.postMessage(message)).catch(() => undefined);
  }
}
