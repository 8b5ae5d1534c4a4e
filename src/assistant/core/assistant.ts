import {
  abortedError,
  describeError,
  ServiceError,
  type AssembledMessage,
  type AssistantRequest,
  type AssistantStreamEvent,
  type ChatMessage,
  type RequestSettings,
} from '../../api';
import { english, type Translate } from '../../common/l10n';
import type { Answer, AnswerChange } from './answer';
import type { ContextChip } from '../../common/protocol';
import { LiveAnswer } from './liveAnswer';
import type { ConversationThread, ThreadRef } from './threads';

// Asking the docs, for every surface (the chat view, `@docs`, `#docs`): ask() builds the request
// from the question, its selections, the thread it continues and what the settings add (the
// client then writes the wire body from known fields only, src/api/requestBody.ts), drains the
// client's stream, and says what happened as typed events, in order. The surfaces only
// show them. It keeps the conversation's thread in its ThreadStore, and every failure reaches the
// caller as one ServiceError with its typed reason (describeError, the one mapping from what was
// thrown to a reason; the words are src/host/core/errorWords.ts's). It knows nothing of VS Code.

/** The part of AssistantClient asking needs (the real one in production and tests). */
export interface AssistantLike {
  send(request: AssistantRequest, opts?: { signal?: AbortSignal }): AsyncGenerator<AssistantStreamEvent, AssembledMessage>;
}

export interface Question {
  /** The conversation so far, oldest first, ending with the question (see said()). It goes into the request as it is. */
  messages: ChatMessage[];
}

/** What a question carries besides its words. */
export interface AskContext {
  /** The selections attached to it, as the user saw them (a chip's text is what is sent). It goes into the request as it is. */
  selections: ContextChip[];
  /** The workspace-relative path of the file being read, when it was asked from one. */
  currentPath?: string;
}

/** One message of a conversation, as the service reads it: its text. */
export function said(id: string, role: 'user' | 'assistant', text: string): ChatMessage {
  return { id, role, parts: [{ type: 'text', text }] };
}

/** The one place a question becomes a request (service-interface.md §2.3). */
export function requestFor(question: Question, context: AskContext, thread: ThreadRef | undefined, settings: RequestSettings): AssistantRequest {
  const request: AssistantRequest = {
    fp: settings.fp,
    messages: question.messages,
    threadId: thread?.threadId ?? null,
    retrievalPageSize: settings.retrievalPageSize,
    filter: settings.filter,
  };
  if (thread?.threadKey) request.threadKey = thread.threadKey;
  // A chip is a context item with more on it (its id, its lines); the body takes only what the wire has.
  if (context.selections.length) request.context = context.selections;
  if (context.currentPath) request.currentPath = context.currentPath;
  return request;
}

export interface AssistantDeps {
  /** The client for the current settings and key, or the error that says what is not set up (setupState.ts). */
  client(): Promise<AssistantLike | ServiceError>;
  /** What every question carries from the settings. */
  settings(): RequestSettings | Promise<RequestSettings>;
  /** Words the notices: vscode.l10n.t in the extension, `english` when not given. */
  t?: Translate;
}

export type AnswerEvent =
  /** The request goes out; `answer` is the answer, updated in place by every event that follows. */
  | { type: 'sending'; answer: Answer }
  | AnswerChange
  /** The service named the thread the answer belongs to (its key stays in the ThreadStore). */
  | { type: 'thread'; threadId: string }
  /** The answer is complete (or the service or the client ended it: see its `aborted` and `cutOff`). */
  | { type: 'done'; message: AssembledMessage }
  /** It failed, or was stopped (reason `aborted`); `message` is what had arrived. */
  | { type: 'error'; error: ServiceError; message?: AssembledMessage };

export class Assistant {
  private readonly t: Translate;

  constructor(private readonly deps: AssistantDeps) {
    this.t = deps.t ?? english;
  }

  /**
   * Asks `question`, with `context`, in `thread` (none: a new thread, not remembered). Ends with
   * one `done` or `error` event; `signal` stops it (an `error` with reason `aborted`).
   */
  async *ask(
    question: Question,
    context: AskContext,
    thread: ConversationThread | undefined,
    signal: AbortSignal,
  ): AsyncGenerator<AnswerEvent, void, undefined> {
    let last: AssembledMessage | undefined;
    try {
      const client = await this.deps.client();
      if (client instanceof ServiceError) {
        yield { type: 'error', error: client };
        return;
      }
      const settings = await this.deps.settings();
      if (signal.aborted) throw abortedError();
      const request = requestFor(question, context, thread?.threads.get(thread.conversation), settings);
      const live = new LiveAnswer(this.t);
      yield { type: 'sending', answer: live.answer };
      const stream = client.send(request, { signal });
      try {
        for (;;) {
          const step = await stream.next();
          if (step.done) {
            last = step.value;
            break;
          }
          const ev = step.value;
          if (ev.type === 'response' && ev.threadId) yield { type: 'thread', threadId: ev.threadId };
          if (ev.type !== 'chunk') continue;
          last = ev.message;
          yield* live.update(ev.message, ev.chunk);
        }
      } finally {
        // A caller that stops listening early still ends the exchange (the connection is let go).
        await stream.return(last as AssembledMessage);
      }
    } catch (e) {
      const error = describeError(e);
      const message = error.partial ?? last;
      // The service forgot the thread the question continued: the next question starts a new one.
      if (error.reason.code === 'threadGone' && thread) await thread.threads.forget(thread.conversation);
      else await remember(thread, message);
      yield message ? { type: 'error', error, message } : { type: 'error', error };
      return;
    }
    await remember(thread, last);
    yield { type: 'done', message: last };
  }
}

/** The thread the answer belongs to, for the conversation's next question. */
async function remember(thread: ConversationThread | undefined, message: AssembledMessage | undefined): Promise<void> {
  if (!thread || !message?.threadId) return;
  await thread.threads.set(
    thread.conversation,
    message.threadKey ? { threadId: message.threadId, threadKey: message.threadKey } : { threadId: message.threadId },
  );
}
