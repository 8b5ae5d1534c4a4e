import type { ServiceError } from '../api/errors';
import { retryTime } from '../api/httpErrors';
import { clampRetryAfter } from '../api/limits';
import type { AssembledMessage, AssistantRequest, ChatMessage, ContextItem, SearchFilter } from '../api/types';
import type { AnswerView, ErrorView } from '../common/protocol';
import { answerText, noticesOf, partsOf, sourcesOf } from './answerView';
import type { StoredConversation } from './chatStore';

// The pure steps of one turn, apart from the session that runs it: the request a turn sends,
// and how the answer it got (or the error) ends up on screen. No state, no clock of their own.

export interface RequestSettings {
  fp: string;
  retrievalPageSize: number;
  filter: SearchFilter | null;
  currentPath?: string;
}

/** The request for `turnId`: the conversation up to it (earlier answers as their text), its selections and thread. */
export function requestFor(c: StoredConversation, turnId: string, settings: RequestSettings): AssistantRequest {
  const messages: ChatMessage[] = [];
  for (const t of c.turns) {
    messages.push({ id: `${t.id}-q`, role: 'user', parts: [{ type: 'text', text: t.question }] });
    if (t.id === turnId) break;
    const text = answerText(t.answer);
    if (text) messages.push({ id: `${t.id}-a`, role: 'assistant', parts: [{ type: 'text', text }] });
  }
  const turn = c.turns.find((t) => t.id === turnId)!;
  const context: ContextItem[] = turn.context.map((chip) =>
    chip.path ? { type: chip.type, value: chip.value, path: chip.path } : { type: chip.type, value: chip.value },
  );
  const request: AssistantRequest = {
    fp: settings.fp,
    messages,
    threadId: c.threadId ?? null,
    retrievalPageSize: settings.retrievalPageSize,
    filter: settings.filter,
  };
  if (c.threadKey) request.threadKey = c.threadKey;
  if (context.length) request.context = context;
  if (settings.currentPath) request.currentPath = settings.currentPath;
  return request;
}

/** The answer as it ends with `status`: from the message when there is one, else as it was on screen. */
export function finalView(message: AssembledMessage | undefined, current: AnswerView, status: AnswerView['status']): AnswerView {
  const base = message
    ? { parts: partsOf(message), sources: sourcesOf(message), notices: noticesOf(message) }
    : { parts: current.parts, sources: current.sources, notices: current.notices };
  const view: AnswerView = { ...base, status, jobs: current.jobs };
  if (status === 'done' && message && message.errors.length > 0) {
    // An `error` chunk ends the answer (as in the SDK): what came before it stays, with Retry.
    const said = message.errors.join(' ');
    view.status = 'error';
    view.error = {
      message:
        message.parts.length === 0
          ? `The service could not answer: ${said} Retry to ask again.`
          : `The service broke off the answer: ${said} What arrived is kept; Retry to ask again.`,
      kind: 'server',
      actions: ['retry'],
    };
  } else if (status === 'done' && (message?.aborted || message?.cutOff)) {
    // The service stopped the answer itself, or the client did at one of its bounds: shown like
    // a Stop (why is in the notices), with Retry; what arrived stays.
    view.status = 'stopped';
  }
  return view;
}

/** The error as shown under the answer, with the actions that can fix it. */
export function errorViewOf(err: ServiceError, hadThread: boolean, now: number): ErrorView {
  const view: ErrorView = { message: err.message, kind: err.kind, actions: ['retry'] };
  if (err.kind === 'unauthorized' || err.kind === 'forbidden') view.actions = ['setAssistantKey', 'retry'];
  if (err.kind === 'notFound' && hadThread) view.actions = ['newConversation', 'retry'];
  if (err.kind === 'rateLimited' && err.retryAfterMs !== undefined) {
    // Finite and at most an hour away, whatever the error carries: the webview counts down to it.
    const wait = clampRetryAfter(err.retryAfterMs);
    view.retryAt = now + wait;
    if (!/try again/i.test(view.message)) view.message += ` Try again after ${retryTime(wait, now)}.`;
  }
  if (err.kind === 'invalidInput') view.actions = ['openSettings', 'retry'];
  return view;
}
