// The service's thread of each conversation: its id, and the key the service hands out with it
// (notes.md, "Threads"), kept as carefully as a key: in the ThreadStore and in requests, never in
// a log, the webview or VS Code's chat history. One store, one rule, for every surface: the chat
// view keeps each conversation's thread with the conversation (src/chat/core/chatStore.ts),
// `@docs` each chat session's in the workspace state (sessionThreads.ts). ask() reads the thread a question
// continues, records the one its answer belongs to, and forgets it when the service no longer
// knows it, so that the next question starts a new one.

export interface ThreadRef {
  threadId: string;
  threadKey?: string;
}

/** Where a ThreadStore keeps the threads, by conversation (or chat session) id. */
export interface ThreadStorage {
  threadOf(conversation: string): ThreadRef | undefined;
  /** Stores `ref` for the conversation; undefined forgets its thread. */
  setThread(conversation: string, ref: ThreadRef | undefined): void | Promise<void>;
}

/** The conversation a question belongs to, and the store that keeps its thread. */
export interface ConversationThread {
  threads: ThreadStore;
  conversation: string;
}

export class ThreadStore {
  constructor(private readonly storage: ThreadStorage) {}

  get(conversation: string): ThreadRef | undefined {
    return this.storage.threadOf(conversation);
  }

  /** Remembers the thread of `conversation`; a key handed out earlier is kept when the answer brings none. */
  async set(conversation: string, ref: ThreadRef): Promise<void> {
    const before = this.storage.threadOf(conversation);
    const threadKey = ref.threadKey ?? (before?.threadId === ref.threadId ? before.threadKey : undefined);
    await this.storage.setThread(conversation, threadKey ? { threadId: ref.threadId, threadKey } : { threadId: ref.threadId });
  }

  /** The service no longer knows the thread: the conversation starts a new one with its next question. */
  async forget(conversation: string): Promise<void> {
    if (this.storage.threadOf(conversation)) await this.storage.setThread(conversation, undefined);
  }
}
