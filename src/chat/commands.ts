import * as vscode from 'vscode';
import { commandGuard } from '../host/guarded';
import type { Log } from '../host/log';
import type { KeyStore } from '../host/secrets';
import type { ChatController } from './chatController';
import { historyNote } from './chatStore';
import type { ChatPanels, ChatViewProvider } from './chatViews';

// The chat's commands. Each runs inside the guard both features share (src/host/guarded.ts): a
// failed command is a message that says what to do next, never the extension host going down.

export function registerChatCommands(
  controller: ChatController,
  view: ChatViewProvider,
  panels: ChatPanels,
  services: { keys: KeyStore; log: Log },
): vscode.Disposable {
  const { keys } = services;
  const guarded = commandGuard(services);

  return vscode.Disposable.from(
    vscode.commands.registerCommand(
      'docsAssistant.chat.askAboutSelection',
      guarded('Ask Docs About Selection', async () => {
        controller.attachSelection();
        await view.reveal();
        controller.focusInput();
      }),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.chat.addSelection',
      guarded('Add Selection to Docs Chat', () => {
        if (controller.attachSelection()) void vscode.window.setStatusBarMessage(vscode.l10n.t('Docs Assistant: selection added to the chat.'), 3000);
      }),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.chat.newConversation',
      guarded('New Conversation', () => controller.session.newConversation()),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.chat.openInEditor',
      guarded('Open Docs Chat in Editor', () => panels.open()),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.chat.focus',
      guarded('Ask Docs', async () => {
        await view.reveal();
        controller.focusInput();
      }),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.chat.showHistory',
      guarded('Show Conversation History', async () => {
        const items = controller.store.history.map((c) => ({
          label: c.title,
          description: c.turns.length === 1 ? vscode.l10n.t('1 question') : vscode.l10n.t('{0} questions', c.turns.length),
          detail: new Date(c.createdAt).toLocaleString(),
          id: c.id,
        }));
        // Conversations dropped to keep the stored chats bounded are not silently gone: the list says so.
        const dropped = historyNote(controller.store.droppedConversations, vscode.l10n.t);
        if (!items.length) {
          void vscode.window.showInformationMessage(
            dropped ? vscode.l10n.t('Docs Assistant: No earlier conversations. {0}', dropped) : vscode.l10n.t('Docs Assistant: No earlier conversations yet.'),
          );
          return;
        }
        const pick = await vscode.window.showQuickPick(items, {
          title: vscode.l10n.t('Docs Assistant: Reopen a conversation'),
          placeHolder: dropped,
          matchOnDetail: true,
        });
        if (pick && controller.session.openConversation(pick.id)) await view.reveal();
      }),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.setAssistantKey',
      guarded('Set Assistant API Key', () => keys.prompt('assistant')),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.clearAssistantKey',
      guarded('Clear Assistant API Key', async () => {
        await keys.clear('assistant');
        void vscode.window.showInformationMessage(vscode.l10n.t('Docs Assistant: Assistant API key cleared.'));
      }),
    ),
  );
}
