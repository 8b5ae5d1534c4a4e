import * as vscode from 'vscode';
import { isAskAboutFeedbackArgs, isAskAboutSelectionArgs } from '../../common/commandArgs';
import { commandGuard } from '../../host/vscode/guarded';
import type { Log } from '../../host/vscode/log';
import type { KeyStore } from '../../host/vscode/secrets';
import { askAboutFeedback } from './askAboutFeedback';
import { askAboutTarget } from './askAboutTarget';
import { ChatFocus } from '../core/chatFocus';
import type { ChatController } from './chatController';
import type { ChatPanels, ChatViewProvider } from './chatViews';
import { exportConversation } from './exportCommand';
import { showHistoryPick } from './historyPick';
import { clearHistory, deleteConversation } from './historyCommands';

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
  // Every command that opens the chat leaves focus in its input box (core/chatFocus.ts).
  const focus = new ChatFocus({ panelInView: () => panels.inView, showPanel: () => panels.open(), showView: () => view.reveal() }, (text) =>
    controller.focusInput(text),
  );

  return vscode.Disposable.from(
    vscode.commands.registerCommand(
      'docsAssistant.chat.askAboutSelection',
      // From the palette or a menu: the editor's selection, and the user types the question.
      // From a code action (src/codeActions): its range and question (src/common/commandArgs.ts).
      guarded('Ask Docs About Selection', async (args?: unknown) => {
        if (isAskAboutSelectionArgs(args)) return askAboutTarget(controller, focus, args);
        controller.attachSelection();
        await focus.show();
      }),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.chat.askAboutFeedback',
      // From Docs Health (src/health), with a reader's words; anything else is ignored.
      guarded('Ask Docs About This Feedback', async (args?: unknown) => {
        if (isAskAboutFeedbackArgs(args)) await askAboutFeedback(controller, focus, args);
      }),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.chat.addSelection',
      // Does not open the chat: focus stays in the editor, for the next selection to add (and the
      // palette keeps the editor's commands). Focus Chat Input (its key) goes to the chat after.
      guarded('Add Selection to Docs Chat', () => {
        if (controller.attachSelection()) void vscode.window.setStatusBarMessage(vscode.l10n.t('Docs Assistant: selection added to the chat.'), 3000);
      }),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.chat.newConversation',
      guarded('New Conversation', async () => {
        await controller.session.newConversation();
        // Not left in the editor or on the view's title button: the new conversation's input box.
        await focus.show();
      }),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.chat.openInEditor',
      guarded('Open Docs Chat in Editor', () => focus.showInEditor()),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.chat.focus',
      guarded('Ask Docs', () => focus.show()),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.chat.focusInput',
      // The keyboard's way back to the input box, from the editor or from inside the chat.
      guarded('Focus Chat Input', () => focus.show()),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.chat.accessibleView',
      guarded('Open Answer in Accessible View', () => controller.accessibleViews.openLatest()),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.chat.accessibilityHelp',
      guarded('Accessibility Help', () => controller.accessibleViews.openHelp()),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.chat.showHistory',
      guarded('Show Conversation History', () => showHistoryPick(controller, focus)),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.chat.exportConversation',
      // The conversation on screen (with what has streamed so far), or one of the history's by id.
      guarded('Export Conversation as Markdown', (id?: unknown) =>
        typeof id === 'string' ? controller.store.read(id).then(exportConversation) : exportConversation(controller.snapshot()),
      ),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.chat.deleteConversation',
      // The conversation on screen (the title menu), or one of the history's by id.
      guarded('Delete Conversation', (id?: unknown) => deleteConversation(controller, typeof id === 'string' ? id : undefined)),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.chat.clearHistory',
      guarded('Clear Chat History', () => clearHistory(controller)),
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
