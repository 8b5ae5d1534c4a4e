import * as vscode from 'vscode';
import type { ChatController } from './chatController';
import type { ChatFocus } from '../core/chatFocus';
import { historyNote, type StoredConversation } from '../core/chatStore';
import { exportConversation } from './exportCommand';
import { historyIndex, searchHistory, type HistoryHit } from '../core/historySearch';

// "Show Conversation History…": the past conversations, searched by what the user types across
// their questions and answers (historySearch.ts), each with the excerpt around its hit. Picking
// one reopens it; its button exports it as Markdown.

interface Item extends vscode.QuickPickItem {
  id: string;
}

export async function showHistoryPick(controller: ChatController, focus: ChatFocus): Promise<void> {
  const conversations = controller.store.history;
  // Conversations dropped to keep the stored chats bounded are not silently gone: the list says so.
  const dropped = historyNote(controller.store.droppedConversations, vscode.l10n.t);
  if (!conversations.length) {
    void vscode.window.showInformationMessage(
      dropped ? vscode.l10n.t('Docs Assistant: No earlier conversations. {0}', dropped) : vscode.l10n.t('Docs Assistant: No earlier conversations yet.'),
    );
    return;
  }
  const byId = new Map<string, StoredConversation>(conversations.map((c) => [c.id, c]));
  const index = historyIndex(conversations);
  const exportButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('export'), tooltip: vscode.l10n.t('Export as Markdown…') };
  const item = (hit: HistoryHit): Item => {
    const c = byId.get(hit.id)!;
    return {
      id: hit.id,
      label: c.title,
      description: c.turns.length === 1 ? vscode.l10n.t('1 question') : vscode.l10n.t('{0} questions', c.turns.length),
      detail: hit.excerpt ?? new Date(c.createdAt).toLocaleString(),
      // The search has chosen the rows already; VS Code's own filter (on labels) must not hide them.
      alwaysShow: true,
      buttons: [exportButton],
    };
  };

  const pick = vscode.window.createQuickPick<Item>();
  pick.title = vscode.l10n.t('Docs Assistant: Reopen a conversation');
  pick.placeholder = dropped ?? vscode.l10n.t('Search the questions and answers of earlier conversations');
  pick.matchOnDescription = false;
  pick.matchOnDetail = false;
  const update = () => (pick.items = searchHistory(index, pick.value).map(item));
  update();
  return new Promise<void>((resolve) => {
    const subs = [
      pick.onDidChangeValue(update),
      pick.onDidAccept(() => {
        const [chosen] = pick.selectedItems;
        pick.hide();
        // The reopened conversation, with focus in its input box (not back on the history button).
        if (chosen && controller.session.openConversation(chosen.id)) void focus.show();
      }),
      pick.onDidTriggerItemButton((e) => {
        pick.hide();
        void exportConversation(byId.get(e.item.id)).catch((err: unknown) => {
          controller.log.error('Export Conversation as Markdown failed', err);
          void vscode.window.showErrorMessage(
            vscode.l10n.t('Docs Assistant: The conversation could not be exported. {0}', err instanceof Error ? err.message : ''),
          );
        });
      }),
      pick.onDidHide(() => {
        for (const s of subs) s.dispose();
        pick.dispose();
        resolve();
      }),
    ];
    pick.show();
  });
}
