import * as vscode from 'vscode';
import { newId } from '../../common/ids';
import type { Log } from '../../host/vscode/log';
import type { ChatStorage } from '../core/chatStorage';
import { historyLimitOf } from '../core/historyLimits';
import { chatStorageFor } from '../core/storageChoice';
import { WorkspaceChatFiles } from './workspaceChatFiles';

// Where this window keeps its conversations (core/storageChoice.ts): files in the workspace's
// storage folder, or without a workspace, workspaceState as before. The history limit is the
// docsAssistant.chat.historyLimit setting, followed as it changes.

const LIMIT_SETTING = 'docsAssistant.chat.historyLimit';

const configuredLimit = (): number => historyLimitOf(vscode.workspace.getConfiguration().get<unknown>(LIMIT_SETTING));

/** The store, and the watch on its setting (to dispose with the chat). */
export function openChatStorage(context: vscode.ExtensionContext, log: Log): { store: ChatStorage; watch: vscode.Disposable } {
  const folder = context.storageUri ? vscode.Uri.joinPath(context.storageUri, 'conversations') : undefined;
  const store = chatStorageFor(context.workspaceState, folder ? new WorkspaceChatFiles(folder) : undefined, {
    newId,
    t: vscode.l10n.t,
    limit: configuredLimit(),
    // The error's message only: it names a file of ours, never a conversation's text.
    logFailure: (what, err) => log.warn(`Chat history: could not ${what} a conversation file: ${err instanceof Error ? err.message : String(err)}`),
  });
  if (!folder) log.info('Chat history: no workspace storage folder; conversations are kept in workspaceState (the 20 most recent).');
  const watch = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(LIMIT_SETTING)) store.setLimit?.(configuredLimit());
  });
  return { store, watch };
}
