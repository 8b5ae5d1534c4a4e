import type { AssistantRequest, ChatMessage, RequestSettings } from '../../api/types';
import type { ContextChip } from '../../common/protocol';
import type { ThreadRef } from './threads';

// The one place a question becomes a request (service-interface.md §2.3): the conversation, the
// selections that go with it, the thread it continues and what the settings add. The client then
// writes the wire body from known fields only (src/api/requestBody.ts).

export interface Question {
  /** The conversation so far, oldest first, ending with the question (see said()). */
  messages: readonly ChatMessage[];
}

/** What a question carries besides its words. */
export interface AskContext {
  /** The selections attached to it, as the user saw them (a chip's text is what is sent). */
  selections: readonly ContextChip[];
  /** The workspace-relative path of the file being read, when it was asked from one. */
  currentPath?: string;
}

/** One message of a conversation, as the service reads it: its text. */
export function said(id: string, role: 'user' | 'assistant', text: string): ChatMessage {
  return { id, role, parts: [{ type: 'text', text }] };
}

export function requestFor(question: Question, context: AskContext, thread: ThreadRef | undefined, settings: RequestSettings): AssistantRequest {
  const request: AssistantRequest = {
    fp: settings.fp,
    messages: [...question.messages],
    threadId: thread?.threadId ?? null,
    retrievalPageSize: settings.retrievalPageSize,
    filter: settings.filter,
  };
  if (thread?.threadKey) request.threadKey = thread.threadKey;
  // A chip is a context item with more on it (its id, its lines); the body takes only what the wire has.
  if (context.selections.length) request.context = [...context.selections];
  if (context.currentPath) request.currentPath = context.currentPath;
  return request;
}
