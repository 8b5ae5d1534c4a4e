import * as vscode from 'vscode';
import { isAskAboutSelectionArgs } from '../../common/commandArgs';
import { commandGuard } from '../../host/vscode/guarded';
import type { Log } from '../../host/vscode/log';
import type { KeyStore } from '../../host/vscode/secrets';
import { askAboutTarget } from './askAboutTarget';
import type { ChatController } from './chatController';
import type { ChatPanels, ChatViewProvider } from './chatViews';
import { exportConversation } from './exportCommand';
import { showHistoryPick } from './historyPick';

// The chat's commands. Each runs inside the guard both features share (src/host/vscode/guarded.ts): a
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
      // From the palette or a menu: the editor's selection, and the user types the question.
      // From a code action (src/codeActions): its range and question (src/common/commandArgs.ts).
      guarded('Ask Docs About Selection', async (args?: unknown) => {
        if (isAskAboutSelectionArgs(args)) return askAboutTarget(controller, view, args);
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
      guarded('Show Conversation History', () => showHistoryPick(controller, view)),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.chat.exportConversation',
      // The conversation on screen (with what has streamed so far), or one of the history's by id.
      guarded('Export Conversation as Markdown', (id?: unknown) =>
        exportConversation(typeof id === 'string' ? controller.store.find(id) : controller.snapshot()),
      ),
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
