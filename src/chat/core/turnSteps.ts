import type * as l10n from '@vscode/l10n';
import { type ServiceError, clampRetryAfter, type AssembledMessage, type ChatMessage } from '../../api';
import { noticesOf, partsOf, sourcesOf } from '../../assistant/core/answer';
import { said, type Question } from '../../assistant/core/assistant';
import type { AnswerView, ErrorAction, ErrorView } from '../../common/protocol';
import { describeForUser, type ErrorFix, type UserError } from '../../host/core/errorWords';
import { answerText } from './answerView';
import type { StoredConversation } from './chatStore';

// The pure steps of one turn, apart from the session that runs it: the question a turn asks, and
// how the answer it got (or the error) ends up on screen. No state, no clock of their own. What
// the user reads is in the display language: a failed request in the host's words for its typed
// reason (src/host/core/errorWords.ts), the rest through the translator the session was given.

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

/** The question of `turnId`: the conversation up to it, earlier answers as their text. */
export function questionFor(c: StoredConversation, turnId: string): Question {
  const messages: ChatMessage[] = [];
  for (const t of c.turns) {
    messages.push(said(`${t.id}-q`, 'user', t.question));
    if (t.id === turnId) break;
    const text = answerText(t.answer);
    if (text) messages.push(said(`${t.id}-a`, 'assistant', text));
  }
  return { messages };
}

/** The answer as it ends with `status`: from the message when there is one, else as it was on screen. */
export function finalView(message: AssembledMessage | undefined, current: AnswerView, status: AnswerView['status'], t: Translate): AnswerView {
  const l10n = { t };
  const base = message
    ? { parts: partsOf(message), sources: sourcesOf(message), notices: noticesOf(message, t) }
    : { parts: current.parts, sources: current.sources, notices: current.notices };
  const view: AnswerView = { ...base, status, jobs: current.jobs };
  if (status === 'done' && message && message.errors.length > 0) {
    // An `error` chunk ends the answer (as in the SDK): what came before it stays, with Retry.
    const told = message.errors.join(' ');
    view.status = 'error';
    view.error = {
      message:
        message.parts.length === 0
          ? l10n.t('The service could not answer: {0} Retry to ask again.', told)
          : l10n.t('The service broke off the answer: {0} What arrived is kept; Retry to ask again.', told),
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

/** The chat's button for each fix the host's words offer; a fix the chat has no button for is left out. */
function actionFor(fix: ErrorFix, words: UserError): ErrorAction | undefined {
  switch (fix) {
    case 'setKey':
      return words.keyKind === 'assistant' ? 'setAssistantKey' : undefined;
    case 'configure':
      return 'openSettings';
    case 'newConversation':
    case 'retry':
      return fix;
  }
}

/**
 * The error as shown under the answer: the host's words for its typed reason, in the display
 * language, with the buttons for the fixes those words offer, and when a retry can work again.
 */
export function errorViewOf(err: ServiceError, t: Translate, now: number): ErrorView {
  const words = describeForUser(err, t, now);
  const actions = words.fixes.flatMap((fix) => actionFor(fix, words) ?? []);
  const view: ErrorView = { message: words.message, kind: err.kind, actions };
  // Finite and at most an hour away, whatever the error carries: the webview counts down to it.
  if (words.retryAt !== undefined) view.retryAt = now + clampRetryAfter(words.retryAt - now);
  return view;
}
