// A structural twin of vscode.Disposable, so that code outside the VS Code layer
// (and tests) can own disposables without importing `vscode`.

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

/**
 * Base class for anything that owns other disposables: register them with `_register`
 * and they go away, newest first, when this does. Errors in one dispose never stop the rest.
 */
export abstract class Disposable implements IDisposable {
  private readonly _disposables: IDisposable[] = [];
  private _isDisposed = false;

  protected get isDisposed(): boolean {
    return this._isDisposed;
  }

  protected _register<T extends IDisposable>(d: T): T {
    if (this._isDisposed) {
      d.dispose();
    } else {
      this._disposables.push(d);
    }
    return d;
  }

  dispose(): void {
    if (this._isDisposed) return;
    this._isDisposed = true;
    disposeAll(this._disposables.splice(0).reverse());
  }
}

export function disposeAll(items: Iterable<IDisposable>): void {
  for (const d of items) {
    try {
      d.dispose();
    } catch {
      // One failing dispose must not leak the others.
    }
  }
}
