import type { Memento } from '../../common/memento';
import type { ChatFiles } from './chatFiles';
import type { ChatStorage } from './chatStorage';
import { ChatStore } from './chatStore';
import { FileChatStore, type FileChatStoreOptions } from './fileChatStore';

// Where a window keeps its conversations. With a workspace, VS Code gives the extension a storage
// folder of its own, and every conversation the user did not delete is kept there as a file. A
// window without a workspace (an empty window) has no such folder: it keeps the conversations in
// its workspaceState, bounded as before files (the 20 most recent, about 4 MB), and the history
// list says so when it drops one. Mixing them into the user-wide storage folder would show every
// empty window's conversations in every other one.

export function chatStorageFor(
  memento: Memento,
  files: ChatFiles | undefined,
  options: FileChatStoreOptions,
): ChatStorage & { setLimit?(limit: number): void } {
  if (files) return new FileChatStore(memento, files, options);
  return new ChatStore(memento, options.newId, options.t, options.now);
}
