import * as vscode from 'vscode';
import { Emitter } from '../../common/event';
import { accessibilityHelpText, type ContributedKeybinding } from '../core/accessibilityHelp';
import { accessibleViewText } from '../core/accessibleView';
import type { ChatSession } from '../core/chatSession';

// The chat's Accessible View and Accessibility Help, as VS Code's own Chat has them (Alt+F2, Alt+F1):
// read-only plaintext documents of the extension's own scheme, opened as a preview. Their text is
// built when VS Code asks for it, from the conversation the host keeps (core/accessibleView.ts)
// and from the extension's manifest (core/accessibilityHelp.ts); nothing comes from the page.

const SCHEME = 'docs-assistant-view';
const HELP = 'help';

/** The turn an answer document is of: its query (encoded by openAnswer). */
const turnIdOf = (uri: vscode.Uri): string => decodeURIComponent(uri.query);

/** What the help reads of the extension's package.json. */
export interface AccessibleViewsManifest {
  contributes?: { keybindings?: ContributedKeybinding[]; commands?: { command: string; title: string; category?: string }[] };
}

export class AccessibleViews implements vscode.TextDocumentContentProvider {
  private readonly changed = new Emitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly session: ChatSession,
    private readonly manifest: AccessibleViewsManifest,
  ) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    if (uri.fragment === HELP) return accessibilityHelpText(this.manifest.contributes?.keybindings ?? [], (c) => this.titleOf(c), vscode.l10n.t);
    const turn = this.session.conversation.turns.find((t) => t.id === turnIdOf(uri));
    return turn ? accessibleViewText(turn, vscode.l10n.t) : vscode.l10n.t('This answer is no longer in the conversation on screen.');
  }

  /** Opens the answer to `turnId` of the conversation on screen; false when there is no such answer. */
  async openAnswer(turnId: string): Promise<boolean> {
    const turns = this.session.conversation.turns;
    const i = turns.findIndex((t) => t.id === turnId);
    if (i < 0) return false;
    await this.show(vscode.Uri.from({ scheme: SCHEME, path: `/${vscode.l10n.t('Answer {0}', i + 1)}.txt`, query: encodeURIComponent(turnId) }));
    return true;
  }

  /** The latest answer of the conversation on screen, or a message that there is none yet. */
  async openLatest(): Promise<void> {
    const last = this.session.conversation.turns.at(-1);
    if (last) await this.openAnswer(last.id);
    else void vscode.window.showInformationMessage(vscode.l10n.t('Docs Assistant: there is no answer to show yet. Ask the docs first.'));
  }

  async openHelp(): Promise<void> {
    await this.show(vscode.Uri.from({ scheme: SCHEME, path: `/${vscode.l10n.t('Docs Assistant Accessibility Help')}.txt`, fragment: HELP }));
  }

  dispose(): void {
    this.changed.dispose();
  }

  /** Re-read each time it is opened: VS Code keeps an open document's text until told it changed. */
  private async show(uri: vscode.Uri): Promise<void> {
    this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  /** A command's title as the Command Palette shows it: "Category: Title". */
  private titleOf(command: string): string {
    const c = this.manifest.contributes?.commands?.find((x) => x.command === command);
    if (!c) return command;
    return c.category ? `${c.category}: ${c.title}` : c.title;
  }
}

/** The provider of the documents; their two commands are the chat's (commands.ts). */
export function registerAccessibleViews(views: AccessibleViews): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(SCHEME, views);
}
