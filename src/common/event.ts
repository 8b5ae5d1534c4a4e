import type { IDisposable } from './lifecycle';

// One way to do events everywhere, host cores and webview alike: the shape of vscode.Event
// (a function that takes a listener and returns a disposable), so a vscode.EventEmitter's
// `event` can be handed to anything that takes an Event<T>, and this Emitter can stand in for
// one where `vscode` must not be imported.

export type Event<T> = (listener: (e: T) => void) => IDisposable;

export class Emitter<T> implements IDisposable {
  private listeners: ((e: T) => void)[] = [];
  private disposed = false;

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return { dispose: () => undefined };
    this.listeners.push(listener);
    return {
      dispose: () => {
        this.listeners = this.listeners.filter((l) => l !== listener);
      },
    };
  };

  /** Calls every listener; one that throws does not stop the others. */
  fire(e: T): void {
    for (const l of this.listeners.slice()) {
      try {
        l(e);
      } catch {
        // A broken listener is its owner's bug; the rest still hear the event.
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}
