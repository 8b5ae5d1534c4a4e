// Where an error goes that no caller can take: one thrown by an event listener, or by a dispose.
// The emitter and the disposables (event.ts, lifecycle.ts) catch it so that the other listeners
// still hear the event and the other disposables still go, then hand it here. This file is free
// of vscode (the webview shares it), so the extension's activation points the sink at the
// redacting log (src/host/core/errorLog.ts): never the console, and never a key.

/** What was running when the error was thrown. */
export type ErrorOrigin = 'listener' | 'dispose';

export type ErrorSink = (error: unknown, origin: ErrorOrigin) => void;

/**
 * Until a sink is set, an error is thrown again on a task of its own: loud in a test or in a
 * page's console, and never in the middle of the loop that caught it.
 */
const rethrowLater: ErrorSink = (error) => {
  setTimeout(() => {
    throw error;
  }, 0);
};

let sink: ErrorSink = rethrowLater;

/** Sends every caught error to `next` from now on; returns the sink it replaces (for a test to put back). */
export function setErrorSink(next: ErrorSink): ErrorSink {
  const previous = sink;
  sink = next;
  return previous;
}

/** Hands `error` to the sink. Never throws: the caller is in the middle of firing or disposing. */
export function reportError(error: unknown, origin: ErrorOrigin): void {
  try {
    sink(error, origin);
  } catch {
    // The sink itself failed (its output channel is gone, at shutdown): there is nowhere left to say so.
  }
}
