import * as vscode from 'vscode';
import type { ChatController } from './chatController';
import type { ChatFocus } from '../core/chatFocus';
import type { HistoryEntry } from '../core/chatStorage';
import { exportConversation } from './exportCommand';
import { scanHistory, SEARCH_DELAY_MS, type HistoryHit } from '../core/historySearch';

// "Show Conversation History…": the past conversations, searched by what the user types across
// their questions and answers (historySearch.ts), each with the excerpt around its hit. The list
// comes from the store's index; a search reads the conversations' files one at a time, shows the
// first hits while it goes on, and the next keystroke cancels it. Picking one reopens it; its buttons export it as Markdown or delete it.

interface Item extends vscode.QuickPickItem {
  id: string;
}

export async function showHistoryPick(controller: ChatController, focus: ChatFocus): Promise<void> {
  const { store } = controller;
  await store.ready;
  // Conversations the history no longer has (past the limit, unreadable) are not silently gone: the list says so.
  const note = store.historyNote();
  if (!store.entries().length) {
    void vscode.window.showInformationMessage(
      note ? vscode.l10n.t('Docs Assistant: No earlier conversations. {0}', note) : vscode.l10n.t('Docs Assistant: No earlier conversations yet.'),
    );
    return;
  }
  const exportButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('export'), tooltip: vscode.l10n.t('Export as Markdown…') };
  const deleteButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: vscode.l10n.t('Delete Conversation') };
  const item = (hit: HistoryHit, entry: HistoryEntry): Item => ({
    id: hit.id,
    label: entry.title,
    description: entry.questions === 1 ? vscode.l10n.t('1 question') : vscode.l10n.t('{0} questions', entry.questions),
    detail: hit.excerpt ?? new Date(entry.createdAt).toLocaleString(),
    // The search has chosen the rows already; VS Code's own filter (on labels) must not hide them.
    alwaysShow: true,
    buttons: [exportButton, deleteButton],
  });

  const pick = vscode.window.createQuickPick<Item>();
  pick.title = vscode.l10n.t('Docs Assistant: Reopen a conversation');
  pick.placeholder = note ?? vscode.l10n.t('Search the questions and answers of earlier conversations');
  pick.matchOnDescription = false;
  pick.matchOnDetail = false;
  let search = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const show = (hits: readonly HistoryHit[]) => {
    const byId = new Map(store.entries().map((e) => [e.id, e]));
    pick.items = hits.flatMap((h) => {
      const entry = byId.get(h.id);
      return entry ? [item(h, entry)] : [];
    });
  };
  const update = () => {
    const mine = ++search;
    clearTimeout(timer);
    const query = pick.value;
    if (!query.trim()) {
      pick.busy = false;
      return show(store.entries().map((e) => ({ id: e.id, title: e.title })));
    }
    pick.busy = true;
    timer = setTimeout(() => {
      void scanHistory(
        store.entries(),
        (id) => store.read(id),
        query,
        () => mine !== search,
        // The first hits at once while the busy bar runs on: a thousand files take a while.
        { show: (hits) => mine === search && show(hits) },
      ).then((hits) => {
        if (!hits) return;
        pick.busy = false;
        show(hits);
      });
    }, SEARCH_DELAY_MS);
  };
  update();
  return new Promise<void>((resolve) => {
    const subs = [
      pick.onDidChangeValue(update),
      pick.onDidAccept(() => {
        const [chosen] = pick.selectedItems;
        pick.hide();
        // The reopened conversation, with focus in its input box (not back on the history button).
        if (chosen)
          void controller.session.openConversation(chosen.id).then(async (opened) => {
            if (opened) await focus.show();
          });
      }),
      pick.onDidTriggerItemButton((e) => {
        if (e.button === deleteButton) {
          // The list stays open, without it: deleting several in a row is one pick.
          void controller.session.deleteConversation(e.item.id).then(update);
          return;
        }
        pick.hide();
        void store
          .read(e.item.id)
          .then(exportConversation)
          .catch((err: unknown) => {
            controller.log.error('Export Conversation as Markdown failed', err);
            void vscode.window.showErrorMessage(
              vscode.l10n.t('Docs Assistant: The conversation could not be exported. {0}', err instanceof Error ? err.message : ''),
            );
          });
      }),
      pick.onDidHide(() => {
        search++;
        clearTimeout(timer);
        for (const s of subs) s.dispose();
        pick.dispose();
        resolve();
      }),
    ];
    pick.show();
  });
}
