// One chat session in VS Code's Chat view is one thread of the service. VS Code keeps the
// session's history (and each result's metadata) in its own storage, which the user can export
// and share, so the history carries only an opaque session id: the thread id and key are in the
// ThreadStore (src/assistant/core/sessionThreads.ts), by session.

/** The metadata key of a result that names its session. */
export const SESSION_KEY = 'docsSession';

/** The part of a ChatResponseTurn this reads (structural, so this file stays free of vscode). */
export interface ResponseTurnLike {
  readonly participant: string;
  readonly result: { readonly metadata?: { readonly [key: string]: unknown } };
}

/** The session of a chat, from the newest answer of `participant` in its history. */
export function sessionOf(history: readonly unknown[], participant: string): string | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i] as Partial<ResponseTurnLike> | undefined;
    if (turn?.participant !== participant || !turn.result) continue;
    const id = turn.result.metadata?.[SESSION_KEY];
    if (typeof id === 'string' && id.length > 0 && id.length <= 100) return id;
  }
  return undefined;
}
