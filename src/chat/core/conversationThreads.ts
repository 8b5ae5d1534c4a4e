import type { ThreadStorage } from '../../assistant/core/threads';
import type { ChatStore } from './chatStore';

// The chat view keeps each conversation's thread with the conversation (StoredConversation's
// threadId and threadKey), so it goes with it into the history and back. This is that storage as
// the one ThreadStore (src/assistant/core/threads.ts) uses it.

export function conversationThreads(store: ChatStore): ThreadStorage {
  return {
    read(id) {
      const c = store.find(id);
      if (!c?.threadId) return undefined;
      return c.threadKey ? { threadId: c.threadId, threadKey: c.threadKey } : { threadId: c.threadId };
    },
    write(id, ref) {
      store.updateConversation(id, { threadId: ref?.threadId ?? null, threadKey: ref?.threadKey ?? null });
    },
  };
}
