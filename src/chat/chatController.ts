import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { AssistantClient } from '../api/assistantClient';
import { trimCurrentPath } from '../api/requestBody';
import { newId } from '../common/ids';
import { Disposable, toDisposable } from '../common/lifecycle';
import type { AgentJobsService, JobAction } from '../common/jobs';
import type { ChatSnapshot, RequestEnvelope } from '../common/protocol';
import { onDidChangeConfig, readConfig } from '../host/config';
import type { Log } from '../host/log';
import type { KeyStore } from '../host/secrets';
import { ChatSession, type AssistantLike, type RequestSettings } from './chatSession';
import { ChatStore } from './chatStore';
import { ChatWebviewConnection } from './chatWebview';
import { ChatJobCards } from './jobCards';
import { buildContextChip } from './selectionContext';
import { safeExternalUrl } from './webviewMessages';
import { imageOrigins } from './imagePolicy';
import { loadImage } from './imageLoader';
import { selectedText } from '../host/selection';
import { workspacePath } from '../host/workspacePath';

// The chat feature's host side: one ChatSession shared by every open chat webview, plus what
// only VS Code can do (keys, settings, the editor, links, the clipboard, the agent's commands).

export class ChatController extends Disposable {
  readonly session: ChatSession;
  readonly store: ChatStore;
  private readonly connections = new Set<ChatWebviewConnection>();
  private extras: Pick<ChatSnapshot, 'agentAvailable' | 'setupHint'> = { agentAvailable: false };
  private lastTextEditor: vscode.TextEditor | undefined = vscode.window.activeTextEditor;
  private readonly jobCards: ChatJobCards;

  constructor(
    readonly context: vscode.ExtensionContext,
    private readonly keys: KeyStore,
    private readonly log: Log,
    jobs: AgentJobsService,
  ) {
    super();
    this.store = new ChatStore(context.workspaceState, newId);
    this.session = new ChatSession({
      store: this.store,
      client: () => this.client(),
      settings: () => this.requestSettings(),
      onSnapshot: () => this.broadcastSnapshot(),
      onPatch: (turnId, patches) => this.broadcast('patch', { turnId, patches }),
      newId,
    });
    this.jobCards = this._register(new ChatJobCards(jobs, this.session));
    // The agent's availability (service, project, admin key) decides whether the answer offers Fix This.
    this._register(jobs.onDidChange(() => void this.refreshExtras()));
    this._register(onDidChangeConfig(() => void this.refreshExtras()));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        // The page's CSP lists the allowed image origins, so a change reloads the page with a new one.
        if (e.affectsConfiguration('docsAssistant.docsSiteUrl') || e.affectsConfiguration('docsAssistant.chat.imageOrigins')) {
          for (const c of this.connections) c.render(this.imageOrigins());
        }
      }),
    );
    this._register(keys.onDidChange(() => void this.refreshExtras()));
    this._register(vscode.window.onDidChangeActiveTextEditor((e) => e && (this.lastTextEditor = e)));
    this._register(toDisposable(() => this.session.close()));
    void this.refreshExtras();
  }

  connect(webview: vscode.Webview): ChatWebviewConnection {
    const conn = new ChatWebviewConnection(webview, this.context.extensionUri, (req) => this.handle(req), this.log, this.imageOrigins());
    this.connections.add(conn);
    return conn;
  }

  disconnect(conn: ChatWebviewConnection): void {
    this.connections.delete(conn);
    conn.dispose();
  }

  private imageOrigins(): string[] {
    const cfg = readConfig();
    return imageOrigins(cfg.docsSiteUrl, cfg.imageOrigins);
  }

  snapshot(): ChatSnapshot {
    return this.session.snapshot(this.extras);
  }

  focusInput(): void {
    for (const c of this.connections) c.notify('focusInput', {});
  }

  /** Attaches the active editor's selection. Returns false when there was none or it is attached. */
  attachSelection(): boolean {
    const editor = vscode.window.activeTextEditor ?? this.lastTextEditor;
    const selected = selectedText(editor);
    if (!editor || !selected) {
      void vscode.window.showInformationMessage('Docs Assistant: Select some code or text first.');
      return false;
    }
    const chip = buildContextChip({ ...selected, id: newId(), path: workspacePath(editor.document.uri), maxChars: readConfig().maxSelectionChars });
    const r = this.session.attachChip(chip);
    if (!r.added) void vscode.window.setStatusBarMessage(`Docs Assistant: ${r.reason}`, 3000);
    return r.added;
  }

  private broadcast<N extends 'patch' | 'snapshot'>(name: N, payload: N extends 'patch' ? { turnId: string; patches: import('../common/protocol').AnswerPatch[] } : ChatSnapshot): void {
    for (const c of this.connections) c.notify(name, payload as never);
  }

  private broadcastSnapshot(): void {
    if (this.connections.size === 0) return;
    this.broadcast('snapshot', this.snapshot());
  }

  private async refreshExtras(): Promise<void> {
    const cfg = readConfig();
    const hasAssistantKey = await this.keys.has('assistant');
    const agentAvailable = this.jobCards.available;
    let setupHint: ChatSnapshot['setupHint'];
    if (!cfg.baseUrl || !cfg.domain) setupHint = { message: `Set the service's ${!cfg.baseUrl ? 'base URL' : 'domain'} to start asking.`, action: 'openSettings' };
    else if (!hasAssistantKey) setupHint = { message: 'Set the assistant API key (it starts with "svc_dsc_") to start asking.', action: 'setAssistantKey' };
    this.extras = setupHint ? { agentAvailable, setupHint } : { agentAvailable };
    this.broadcastSnapshot();
  }

  private async client(): Promise<AssistantLike | { problem: string; action: 'setAssistantKey' | 'openSettings' }> {
    const cfg = readConfig();
    if (!cfg.baseUrl) return { problem: 'The service address is not set (docsAssistant.baseUrl).', action: 'openSettings' };
    if (!cfg.domain) return { problem: 'The documentation domain is not set (docsAssistant.domain).', action: 'openSettings' };
    const apiKey = await this.keys.get('assistant');
    if (!apiKey) return { problem: 'The assistant API key is not set. It starts with "svc_dsc_".', action: 'setAssistantKey' };
    return new AssistantClient({ baseUrl: cfg.baseUrl, domain: cfg.domain, apiKey, apiVersion: cfg.assistantApiVersion, requestTimeoutMs: cfg.requestTimeoutMs, streamIdleTimeoutMs: cfg.streamIdleTimeoutMs });
  }

  private requestSettings(): RequestSettings {
    const cfg = readConfig();
    const fp = cfg.fingerprint === 'machine' ? createHash('sha256').update(`docs-assistant:${vscode.env.machineId}`).digest('hex').slice(0, 32) : cfg.fingerprint;
    const editor = vscode.window.activeTextEditor ?? this.lastTextEditor;
    const settings: RequestSettings = { fp, retrievalPageSize: cfg.retrievalPageSize, filter: cfg.filter };
    if (editor && editor.document.uri.scheme !== 'output') settings.currentPath = trimCurrentPath(workspacePath(editor.document.uri));
    return settings;
  }

  // ---- requests from the webview --------------------------------------------------------------

  private async handle(req: RequestEnvelope): Promise<unknown> {
    const p = req.payload as Record<string, string>;
    switch (req.name) {
      case 'ready':
        return this.snapshot();
      case 'send':
        return this.session.ask(p.text!);
      case 'stop':
        return this.session.stop();
      case 'saveDraft':
        return this.session.saveDraft(p.text!);
      case 'removeChip':
        return this.session.removeChip(p.chipId!);
      case 'toggleChipType':
        return this.session.toggleChipType(p.chipId!);
      case 'openLink':
        return { opened: await this.openLink(p.url!) };
      case 'copyCode':
        return vscode.env.clipboard.writeText(p.code!);
      case 'insertCode':
        return { inserted: await this.insertCode(p.code!) };
      case 'runAction':
        return this.runAction(p.action!, p.turnId);
      case 'fixInDocs':
        return this.jobCards.fixInDocs(p.turnId!);
      case 'jobAction':
        return this.jobCards.act(p.jobId!, p.action as JobAction);
      case 'loadImage':
        return loadImage(p.url!);
    }
  }

  private async openLink(raw: string): Promise<boolean> {
    const url = safeExternalUrl(raw);
    if (!url) {
      this.log.warn('Refused to open a link that is not http(s).');
      return false;
    }
    // openExternal goes through VS Code's own link protection (the trusted-domains prompt).
    return vscode.env.openExternal(vscode.Uri.parse(url, true));
  }

  private async insertCode(code: string): Promise<boolean> {
    const editor = this.lastTextEditor;
    if (!editor || editor.document.isClosed) {
      void vscode.window.showInformationMessage('Docs Assistant: Open an editor to insert the code into.');
      return false;
    }
    await vscode.window.showTextDocument(editor.document, editor.viewColumn);
    return editor.edit((b) => {
      for (const sel of editor.selections) b.replace(sel, code);
    });
  }

  private async runAction(action: string, turnId?: string): Promise<void> {
    if (action === 'retry' && turnId) await this.session.retry(turnId);
    else if (action === 'setAssistantKey') await vscode.commands.executeCommand('docsAssistant.setAssistantKey');
    else if (action === 'newConversation') this.session.newConversation();
    else if (action === 'openSettings') await vscode.commands.executeCommand('docsAssistant.configure');
  }
}
