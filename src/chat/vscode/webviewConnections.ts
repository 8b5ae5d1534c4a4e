import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../common/lifecycle';
import type { HostNotificationName, HostNotifications, RequestHandlers } from '../../common/protocol';
import { readConfig } from '../../host/vscode/config';
import type { Log } from '../../host/vscode/log';
import { ChatWebviewConnection } from './chatWebview';
import { imageOrigins } from '../core/imagePolicy';

// Every open chat page (the sidebar view, an editor tab). They all show the one conversation, so
// what the host tells one it tells all, and each answers requests with the same handlers. When
// the chat goes away, so does every page's connection.

export class ChatConnections extends Disposable {
  private readonly open = new Set<ChatWebviewConnection>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly handlers: RequestHandlers,
    private readonly log: Log,
  ) {
    super();
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        // The page's CSP lists the allowed image origins, so a change reloads the page with a new one.
        if (e.affectsConfiguration('docsAssistant.docsSiteUrl') || e.affectsConfiguration('docsAssistant.chat.imageOrigins')) {
          for (const c of this.open) c.render(currentImageOrigins());
        }
      }),
    );
    this._register(
      toDisposable(() => {
        for (const c of this.open) c.dispose();
        this.open.clear();
      }),
    );
  }

  get size(): number {
    return this.open.size;
  }

  connect(webview: vscode.Webview): ChatWebviewConnection {
    const conn = new ChatWebviewConnection(webview, this.extensionUri, this.handlers, this.log, currentImageOrigins());
    if (this.isDisposed) conn.dispose();
    else this.open.add(conn);
    return conn;
  }

  disconnect(conn: ChatWebviewConnection): void {
    this.open.delete(conn);
    conn.dispose();
  }

  /** Tells every page; one that has not said `ready` yet gets it with or after its reply (core/pageOutbox.ts). */
  notify<N extends HostNotificationName>(name: N, payload: HostNotifications[N]): void {
    for (const c of this.open) c.notify(name, payload);
  }
}

function currentImageOrigins(): string[] {
  const cfg = readConfig();
  return imageOrigins(cfg.docsSiteUrl, cfg.imageOrigins);
}
