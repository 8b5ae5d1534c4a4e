import { AccessibleViews, type AccessibleViewsManifest } from './accessibleView';
import { requestSentAnnounced } from './signalSettings';
import * as vscode from 'vscode';
import { newId } from '../../common/ids';
import type { AgentJobsService } from '../../common/jobs';
import { Disposable, toDisposable } from '../../common/lifecycle';
import type { ChatSnapshot } from '../../common/protocol';
import type { Log } from '../../host/vscode/log';
import type { AssistantService } from '../../assistant/vscode/assistantService';
import { AssistantSetup } from './assistantSetup';
import { ChatSession } from '../core/chatSession';
import type { ChatStorage } from '../core/chatStorage';
import { openChatStorage } from './historyStorage';
import type { ChatWebviewConnection } from './chatWebview';
import { EditorBridge } from './editorBridge';
import type { ResolveHost } from '../core/imagePolicy';
import { ChatJobCards } from '../core/jobCards';
import { chatRequestHandlers, type ChatParts } from './requestHandlers';
import { ChatConnections } from './webviewConnections';

// The chat feature's host side, put together: one ChatSession (the conversation model, which
// knows nothing of VS Code) shared by every open chat page, and the pieces that do what only VS
// Code can: the pages and their requests (ChatConnections, requestHandlers.ts), the editor
// (EditorBridge), the setup banner (AssistantSetup), and the agent's job cards. Questions are asked
// through the extension's one Assistant (src/assistant).

export class ChatController extends Disposable implements ChatParts {
  readonly store: ChatStorage;
  readonly session: ChatSession;
  readonly editor: EditorBridge;
  readonly jobCards: ChatJobCards;
  readonly accessibleViews: AccessibleViews;
  private readonly connections: ChatConnections;
  private readonly setup: AssistantSetup;

  constructor(
    readonly context: vscode.ExtensionContext,
    assistant: AssistantService,
    readonly log: Log,
    jobs: AgentJobsService,
    readonly resolveHost: ResolveHost | undefined,
  ) {
    super();
    const storage = openChatStorage(context, log);
    this.store = storage.store;
    this._register(storage.watch);
    this.editor = this._register(new EditorBridge());
    // The handlers read the parts of `this` when a request arrives, after the constructor is done.
    this.connections = this._register(new ChatConnections(context.extensionUri, chatRequestHandlers(this), log));
    this.setup = this._register(new AssistantSetup(assistant.setup, jobs, () => this.broadcastSnapshot()));
    this.session = new ChatSession({
      store: this.store,
      assistant: assistant.assistant,
      currentPath: () => this.editor.currentPath(),
      newId,
      t: vscode.l10n.t,
    });
    this._register(this.session.onDidChange(() => this.broadcastSnapshot()));
    this._register(this.session.onDidPatch((p) => this.connections.notify('patch', p)));
    this.jobCards = this._register(new ChatJobCards(jobs, this.session));
    this.accessibleViews = this._register(new AccessibleViews(this.session, context.extension.packageJSON as AccessibleViewsManifest));
    this._register(toDisposable(() => this.session.close()));
    // The conversation on screen is read back from its file after activation: the pages show it then.
    void this.store.ready.then(() => this.broadcastSnapshot());
  }

  connect(webview: vscode.Webview): ChatWebviewConnection {
    return this.connections.connect(webview);
  }

  disconnect(conn: ChatWebviewConnection): void {
    this.connections.disconnect(conn);
  }

  snapshot(): ChatSnapshot {
    return { ...this.session.snapshot(this.setup.extras), announceRequestSent: requestSentAnnounced() };
  }

  /** Focuses the input box of every open chat page; with `text`, that text replaces what is in it. */
  focusInput(text?: string): void {
    this.connections.notify('focusInput', text === undefined ? {} : { text });
  }

  /** Attaches the active editor's selection. Returns false when there was none or it is attached. */
  attachSelection(): boolean {
    const chip = this.editor.selectionChip();
    if (!chip) return false;
    const r = this.session.attachChip(chip);
    if (!r.added) void vscode.window.setStatusBarMessage(vscode.l10n.t('Docs Assistant: {0}', r.reason ?? ''), 3000);
    return r.added;
  }

  private broadcastSnapshot(): void {
    if (this.connections.size === 0) return;
    this.connections.notify('snapshot', this.snapshot());
  }
}
