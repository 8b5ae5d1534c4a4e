import * as vscode from 'vscode';
import { Disposable } from '../../common/lifecycle';
import type { HostNotificationName, HostNotifications, HostToWebviewMessage, RequestHandlers } from '../../common/protocol';
import type { Log } from '../../host/vscode/log';
import { createNonce, renderWebviewHtml } from '../core/webviewHtml';
import { dispatch, parseWebviewRequest } from '../core/webviewMessages';

// One webview showing the chat (the sidebar view or an editor panel). It speaks the protocol of
// src/common/protocol.ts: nothing is sent before the webview's `ready`, every incoming message
// is validated, then handed to its request's handler, and every request gets exactly one response.

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist')],
  };
}

export class ChatWebviewConnection extends Disposable {
  private ready = false;

  constructor(
    private readonly webview: vscode.Webview,
    private readonly extensionUri: vscode.Uri,
    private readonly handlers: RequestHandlers,
    private readonly log: Log,
    imageOrigins: readonly string[] = [],
  ) {
    super();
    webview.options = webviewOptions(extensionUri);
    this.render(imageOrigins);
    this._register(webview.onDidReceiveMessage((m) => void this.onMessage(m)));
  }

  /** (Re)loads the page; it says `ready` again and gets a fresh snapshot. */
  render(imageOrigins: readonly string[]): void {
    if (this.isDisposed) return;
    this.ready = false;
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
    if (!this.ready || this.isDisposed) return;
    this.post({ kind: 'notify', name, payload });
  }

  private post(message: HostToWebviewMessage): void {
    // postMessage rejects when the webview went away mid-flight; there is nobody left to tell.
    void Promise.resolve(this.webview.postMessage(message)).catch(() => undefined);
  }

  private async onMessage(raw: unknown): Promise<void> {
    const req = parseWebviewRequest(raw);
    if (!req) {
      this.log.warn('Dropped a malformed message from the chat webview.');
      return;
    }
    try {
      const payload = await dispatch(this.handlers, req);
      if (req.name === 'ready') this.ready = true;
      this.post({ kind: 'response', id: req.id, ok: true, payload });
    } catch (e) {
      this.log.error(`Chat request "${req.name}" failed`, e);
      this.post({ kind: 'response', id: req.id, ok: false, error: e instanceof Error ? e.message : vscode.l10n.t('Something went wrong.') });
    }
  }
}
