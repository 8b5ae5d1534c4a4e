import { ChatSession, type ChatSessionDeps } from '../../src/chat/core/chatSession';

// The chat session as the tests build it: an anonymous user's request settings, and a host that
// ignores the snapshots and patches it is sent, unless the test says otherwise.

/** A ChatSession over `deps.store`, asking `deps.client`; whatever else `deps` gives replaces the defaults. */
export function testChatSession(deps: Pick<ChatSessionDeps, 'store' | 'client'> & Partial<ChatSessionDeps>): ChatSession {
  return new ChatSession({
    settings: () => ({ fp: 'anonymous', retrievalPageSize: 5, filter: null }),
    onSnapshot: () => undefined,
    onPatch: () => undefined,
    ...deps,
  });
}
