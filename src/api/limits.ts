// Every size and wait that comes from the service is bounded here (issue 16): a service that is
// broken, or hostile, must not be able to make the client spin, wait forever or fill memory.

/** The longest wait a Retry-After is honoured for. A longer or unreadable one waits this long. */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

/**
 * The most a timer can hold: setTimeout with more fires after 1 ms instead (Node and browsers
 * store the delay as a signed 32-bit number), which turned a huge Retry-After into a busy loop.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Bytes of one answer's stream. Past it the answer stops, with a notice, and keeps what arrived. */
export const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

/** The longest one answer may stream, however steadily it drips. */
export const MAX_ANSWER_MS = 15 * 60 * 1000;

/** Sources kept for one answer (citations; more add nothing a reader can use). */
export const MAX_SOURCES = 100;

/** Parts (texts, reasoning, tool calls) of one answer. Past it the answer stops, keeping what arrived. */
export const MAX_PARTS = 200;

/**
 * Characters of one stream line (a v1 line, or an SSE event). A longer one is skipped as
 * unreadable instead of being buffered: no chunk of a real answer comes near this.
 */
export const MAX_LINE_CHARS = 1024 * 1024;

// What one question may carry. The chat enforces these; the service documents no limits, so they
// are generous for a person and small for a machine.

/** Characters of one attached selection (the docsAssistant.chat.maxSelectionChars setting goes up to this). */
export const MAX_SELECTION_CHARS = 50_000;

/** Characters of all the selections attached to one question. */
export const MAX_CONTEXT_CHARS = 100_000;

/** Selections attached to one question. */
export const MAX_CHIPS = 20;

/** Characters of a typed question. */
export const MAX_QUESTION_CHARS = 20_000;

/**
 * Characters of the input box's text the webview may send (a question, a draft). Above the question's
 * bound, so that a question too long to ask gets an answer saying so, not silence.
 */
export const MAX_INPUT_CHARS = 100_000;

/** A Retry-After wait in ms: finite, not negative, at most MAX_RETRY_AFTER_MS. */
export function clampRetryAfter(ms: number): number {
  if (Number.isNaN(ms) || ms <= 0) return 0;
  return Math.min(MAX_RETRY_AFTER_MS, Math.round(ms));
}

/** A delay safe to hand to setTimeout: finite, not negative, at most MAX_TIMER_MS. */
export function timerDelay(ms: number): number {
  if (!(ms > 0)) return 0;
  return Math.min(ms, MAX_TIMER_MS);
}

/** "2 MB", "512 KB": a byte limit in words. */
export function describeBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** "15 minutes", "90 seconds": a time limit in words. */
export function describeDuration(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  if (s % 60 === 0) return `${s / 60} minute${s === 60 ? '' : 's'}`;
  return `${s} second${s === 1 ? '' : 's'}`;
}
