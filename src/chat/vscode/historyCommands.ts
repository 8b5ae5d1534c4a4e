import * as vscode from 'vscode';
import type { ChatController } from './chatController';

// "Delete Conversation" and "Clear Chat History…": both remove the conversations' files (the
// store's), and neither can be undone, so each asks first in a modal dialog. Deleting from the
// history list's row button asks nothing: the row names what goes (historyPick.ts).

/** Deletes the conversation with `id`, or the one on screen; false when nothing was deleted. */
export async function deleteConversation(controller: ChatController, id?: string): Promise<boolean> {
  await controller.store.ready;
  const target = id ?? controller.store.current.id;
  const onScreen = target === controller.store.current.id;
  const title = onScreen ? controller.store.current.title : controller.store.entries().find((e) => e.id === target)?.title;
  if (title === undefined) return false;
  const remove = vscode.l10n.t('Delete');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Delete the conversation “{0}”?', title),
    { modal: true, detail: vscode.l10n.t('Its questions and answers are removed from this workspace. This cannot be undone.') },
    remove,
  );
  if (choice !== remove) return false;
  return controller.session.deleteConversation(target);
}

export async function clearHistory(controller: ChatController): Promise<void> {
  await controller.store.ready;
  const count = controller.store.entries().length + (controller.store.current.turns.length ? 1 : 0);
  if (!count) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Docs Assistant: There are no conversations to clear.'));
    return;
  }
  const clear = vscode.l10n.t('Clear History');
  const choice = await vscode.window.showWarningMessage(
    count === 1 ? vscode.l10n.t('Delete 1 conversation?') : vscode.l10n.t('Delete all {0} conversations?', count),
    {
      modal: true,
      detail: vscode.l10n.t('Every Docs Assistant conversation of this workspace is removed, the one on screen included. This cannot be undone.'),
    },
    clear,
  );
  if (choice !== clear) return;
  await controller.session.clearHistory();
  void vscode.window.setStatusBarMessage(vscode.l10n.t('Docs Assistant: chat history cleared.'), 3000);
}
