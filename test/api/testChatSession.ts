import { Assistant, type AssistantDeps } from '../../src/assistant/core/assistant';
import { ChatSession, type ChatSessionDeps } from '../../src/chat/core/chatSession';

// The chat session as the tests build it: an anonymous user's request settings unless the test
// says otherwise. A test that reads the patches listens to the session's onDidPatch.

type AskThrough = { client: AssistantDeps['client']; settings?: AssistantDeps['settings'] } | Pick<ChatSessionDeps, 'assistant'>;

/**
 * A ChatSession over `deps.store` that asks `deps.assistant`, or the one Assistant over
 * `deps.client` (worded by `deps.t`, as the chat is); whatever else `deps` gives replaces the defaults.
 */
export function testChatSession(deps: Pick<ChatSessionDeps, 'store'> & AskThrough & Partial<Omit<ChatSessionDeps, 'assistant'>>): ChatSession {
  const assistant =
    'assistant' in deps
      ? deps.assistant
      : new Assistant({
          client: deps.client,
          settings: deps.settings ?? (() => ({ fp: 'anonymous', retrievalPageSize: 5, filter: null })),
          ...(deps.t ? { t: deps.t } : {}),
        });
  return new ChatSession({ ...deps, assistant });
}
