// The folder the chat keeps its conversations in, as the vscode-free store sees it: a few async
// operations on files named by the store (no paths, no folders). In the extension it is the
// workspace's storage folder through vscode.workspace.fs (src/chat/vscode/workspaceChatFiles.ts),
// so the browser build works too; in tests, a map in memory.

export interface ChatFiles {
  /** The file's text; undefined when there is no such file. */
  read(name: string): Promise<string | undefined>;
  /** Creates or replaces the file (the folder is created when missing). */
  write(name: string, text: string): Promise<void>;
  /** Moves `from` to `to`, replacing `to` when it exists. */
  rename(from: string, to: string): Promise<void>;
  /** Deletes the file; nothing happens when there is no such file. */
  delete(name: string): Promise<void>;
  /** The names of the files in the folder; none when the folder does not exist yet. */
  list(): Promise<string[]>;
}
