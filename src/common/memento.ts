/**
 * The part of VS Code's `Memento` (globalState) the stores use. Declared here so that the
 * vscode-free stores of both features (and their Node tests) share one shape without importing
 * vscode or each other.
 */
export interface Memento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}
