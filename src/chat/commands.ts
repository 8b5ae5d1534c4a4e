import * as vscode from 'vscode';
import type { KeyStore } from '../host/secrets';
import type { ChatController } from './chatController';
import { historyNote } from './chatStore';
import type { ChatPanels, ChatViewProvider } from './chatViews';

// The chat's commands. Each catches its own errors: a failed command shows a message, never
// takes the extension host down.

export function registerChatCommands(controller: ChatController, view: ChatViewProvider, panels: ChatPanels, keys: KeyStore): vscode.Disposable {
  const guarded =
    <A extends unknown[]>(fn: (...args: A) => unknown) =>
    async (...args: A): Promise<void> => {
      try {
        await fn(...args);
      } catch (e) {
        void vscode.window.showErrorMessage(`Docs Assistant: ${e instanceof Error ? e.message : String(e)}`);
      }
    };

  return vscode.Disposable.from(
    vscode.commands.registerCommand('docsAssistant.chat.askAboutSelection', guarded(async () => {
      controller.attachSelection();
      await view.reveal();
      controller.focusInput();
    })),
    vscode.commands.registerCommand('docsAssistant.chat.addSelection', guarded(() => {
      if (controller.attachSelection()) void vscode.window.setStatusBarMessage('Docs Assistant: selection added to the chat.', 3000);
    })),
    vscode.commands.registerCommand('docsAssistant.chat.newConversation', guarded(() => controller.session.newConversation())),
    vscode.commands.registerCommand('docsAssistant.chat.openInEditor', guarded(() => panels.open())),
    vscode.commands.registerCommand('docsAssistant.chat.focus', guarded(async () => {
      await view.reveal();
      controller.focusInput();
    })),
    vscode.commands.registerCommand('docsAssistant.chat.showHistory', guarded(async () => {
      const items = controller.store.history.map((c) => ({
        label: c.title,
        description: `${c.turns.length} question${c.turns.length === 1 ? '' : 's'}`,
        detail: new Date(c.createdAt).toLocaleString(),
        id: c.id,
      }));
      // Conversations dropped to keep the stored chats bounded are not silently gone: the list says so.
      const dropped = historyNote(controller.store.droppedConversations);
      if (!items.length) {
        void vscode.window.showInformationMessage(`Docs Assistant: No earlier conversations${dropped ? `. ${dropped}` : ' yet.'}`);
        return;
      }
      const pick = await vscode.window.showQuickPick(items, { title: 'Docs Assistant: Reopen a conversation', placeHolder: dropped, matchOnDetail: true });
      if (pick && controller.session.openConversation(pick.id)) await view.reveal();
    })),
    vscode.commands.registerCommand('docsAssistant.setAssistantKey', guarded(() => keys.prompt('assistant'))),
    vscode.commands.registerCommand('docsAssistant.clearAssistantKey', guarded(async () => {
      await keys.clear('assistant');
      void vscode.window.showInformationMessage('Docs Assistant: Assistant API key cleared.');
    })),
  );
}
