import { reportError } from './errorSink';
import { toDisposable, type IDisposable } from './lifecycle';

// The one way to fire an event, in the host and in the webview alike. An Event has the shape of
// vscode.Event (a listener, an optional `this`, an optional array the subscription is added to),
// so an Emitter's `event` is what VS Code asks of a TreeDataProvider or an MCP server provider,
// and the cores offer events without importing `vscode`.

export type Event<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: IDisposable[]) => IDisposable;

interface Subscription<T> {
  listener: (e: T) => unknown;
  thisArgs: unknown;
}

export class Emitter<T> implements IDisposable {
  private subscriptions: Subscription<T>[] = [];
  private disposed = false;

  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    if (this.disposed) return toDisposable(() => undefined);
    const subscription: Subscription<T> = { listener, thisArgs };
    this.subscriptions.push(subscription);
    const d = toDisposable(() => {
      this.subscriptions = this.subscriptions.filter((s) => s !== subscription);
    });
    disposables?.push(d);
    return d;
  };

  /** Calls every listener; one that throws goes to the error sink (errorSink.ts), and the others still hear the event. */
  fire(e: T): void {
    for (const { listener, thisArgs } of this.subscriptions.slice()) {
      try {
        listener.call(thisArgs, e);
      } catch (error) {
        reportError(error, 'listener');
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    this.subscriptions = [];
  }
}
