import { reportError } from './errorSink';

// The disposable half of the kit (event.ts is the other): a structural twin of vscode.Disposable,
// so code outside the VS Code layer (and tests) can own disposables without importing `vscode`.
// A dispose that throws never keeps the others from going; its error goes to the error sink
// (errorSink.ts: the redacting log, in the extension), not nowhere.

export interface IDisposable {
  dispose(): void;
}

export function toDisposable(fn: () => void): IDisposable {
  let done = false;
  return {
    dispose() {
      if (!done) {
        done = true;
        fn();
      }
    },
  };
}

/** Disposes each item, in the order given, though some throw; each error is reported once all are done. */
export function disposeAll(items: Iterable<IDisposable>): void {
  const errors: unknown[] = [];
  for (const d of items) {
    try {
      d.dispose();
    } catch (e) {
      errors.push(e);
    }
  }
  for (const e of errors) reportError(e, 'dispose');
}

/** Disposables owned together: they go, newest first, when the store is cleared or disposed. */
export class DisposableStore implements IDisposable {
  private readonly items = new Set<IDisposable>();
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Holds `d` until the store goes; once it has gone, disposes `d` at once rather than leak it. */
  add<T extends IDisposable>(d: T): T {
    if (this.disposed) disposeAll([d]);
    else this.items.add(d);
    return d;
  }

  /** Disposes what the store holds, and keeps taking more. */
  clear(): void {
    const items = [...this.items].reverse();
    this.items.clear();
    disposeAll(items);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.clear();
  }
}

/** Holds one disposable at a time: setting another disposes the one before. */
export class MutableDisposable<T extends IDisposable = IDisposable> implements IDisposable {
  private current: T | undefined;
  private disposed = false;

  get value(): T | undefined {
    return this.current;
  }

  set value(next: T | undefined) {
    if (this.disposed) {
      if (next) disposeAll([next]);
      return;
    }
    if (next === this.current) return;
    const old = this.current;
    this.current = next;
    if (old) disposeAll([old]);
  }

  clear(): void {
    this.value = undefined;
  }

  dispose(): void {
    this.clear();
    this.disposed = true;
  }
}

/**
 * Base class for anything that owns other disposables: register them with `_register`
 * and they go away, newest first, when this does.
 */
export abstract class Disposable implements IDisposable {
  private readonly _store = new DisposableStore();

  protected get isDisposed(): boolean {
    return this._store.isDisposed;
  }

  protected _register<T extends IDisposable>(d: T): T {
    return this._store.add(d);
  }

  dispose(): void {
    this._store.dispose();
  }
}
