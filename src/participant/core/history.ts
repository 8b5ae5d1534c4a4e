import type { ChatMessage } from '../../api';

// The Chat view's history of one session, as the messages of the next request. VS Code hands the
// history in; only the turns with this participant count (a session may talk to others too).
// Structural types, so this stays free of vscode and is tested in Node.

/** The parts of ChatRequestTurn and ChatResponseTurn this reads. */
interface TurnLike {
  readonly participant: string;
  readonly prompt?: string;
  readonly command?: string;
  readonly response?: readonly unknown[];
}

/** Turns sent again with each question; the service's thread remembers the rest. */
export const MAX_HISTORY_TURNS = 20;
/** Characters of one earlier answer sent again. */
export const MAX_ANSWER_CHARS = 20_000;

/** The markdown an earlier response showed (ChatResponseMarkdownPart values), as one text. */
export function responseText(response: readonly unknown[]): string {
  let text = '';
  for (const part of response) {
    const value = (part as { value?: { value?: unknown } } | undefined)?.value?.value;
    if (typeof value === 'string') text += value;
    if (text.length > MAX_ANSWER_CHARS) return text.slice(0, MAX_ANSWER_CHARS);
  }
  return text;
}

/** This participant's questions and answers in the session; /fix turns are not part of the conversation. */
function ownTurns(history: readonly unknown[], participant: string): readonly TurnLike[] {
  return (history as readonly TurnLike[]).filter((t) => t?.participant === participant && t.command !== 'fix');
}

/** The request's messages: this participant's earlier questions and answers, then `prompt`. */
export function messagesFor(history: readonly unknown[], participant: string, prompt: string): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const turns = ownTurns(history, participant);
  let n = 0;
  for (const turn of turns.slice(-MAX_HISTORY_TURNS * 2)) {
    if (typeof turn.prompt === 'string') {
      messages.push({ id: `h${n++}`, role: 'user', parts: [{ type: 'text', text: turn.prompt }] });
    } else if (turn.response) {
      const text = responseText(turn.response).trim();
      if (text) messages.push({ id: `h${n++}`, role: 'assistant', parts: [{ type: 'text', text }] });
    }
  }
  messages.push({ id: `h${n}`, role: 'user', parts: [{ type: 'text', text: prompt }] });
  return messages;
}

/** The last question and answer of this participant in the session, for /fix. */
export function lastExchange(history: readonly unknown[], participant: string): { question: string; answer: string } | undefined {
  const turns = ownTurns(history, participant);
  for (let i = turns.length - 1; i > 0; i--) {
    const answer = turns[i]!;
    const question = turns[i - 1]!;
    if (answer.response && typeof question.prompt === 'string') return { question: question.prompt, answer: responseText(answer.response).trim() };
  }
  return undefined;
}
