import * as vscode from 'vscode';
import { validateKey, type KeyKind } from '../api/keys';

// Both keys live only in VS Code's SecretStorage: never in settings, globalState, logs or the
// webview. On Linux without a desktop keyring, VS Code falls back to its own encrypted store
// (or, in code-server, to the server's storage); SecretStorage still works, so do we.

const SECRET_IDS: Record<KeyKind, string> = {
  admin: 'docsAssistant.adminApiKey',
  assistant: 'docsAssistant.assistantApiKey',
};

const LABELS: Record<KeyKind, string> = { admin: 'Admin API key', assistant: 'Assistant API key' };

export class KeyStore implements vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<KeyKind>();
  readonly onDidChange = this._onDidChange.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((e) => {
      for (const kind of Object.keys(SECRET_IDS) as KeyKind[]) {
        if (e.key === SECRET_IDS[kind]) this._onDidChange.fire(kind);
      }
    });
  }

  async get(kind: KeyKind): Promise<string | undefined> {
    try {
      return (await this.secrets.get(SECRET_IDS[kind])) || undefined;
    } catch {
      // A broken keyring must read as "no key", which leads the user to set one, not as a crash.
      return undefined;
    }
  }

  async has(kind: KeyKind): Promise<boolean> {
    return (await this.get(kind)) !== undefined;
  }

  async store(kind: KeyKind, key: string): Promise<void> {
    const problem = validateKey(key, kind);
    if (problem) throw new Error(problem);
    await this.secrets.store(SECRET_IDS[kind], key.trim());
  }

  async clear(kind: KeyKind): Promise<void> {
    await this.secrets.delete(SECRET_IDS[kind]);
  }

  /** Password input box with live prefix validation. Returns true when a key was stored. */
  async prompt(kind: KeyKind): Promise<boolean> {
    const key = await vscode.window.showInputBox({
      title: `Docs Assistant: Set ${LABELS[kind]}`,
      prompt:
        kind === 'admin'
          ? 'Paste the admin API key (starts with "svc_"). It is stored in VS Code\'s secret storage and sent only to the configured service.'
          : 'Paste the assistant API key (starts with "svc_dsc_"). It is stored in VS Code\'s secret storage.',
      password: true,
      ignoreFocusOut: true,
      placeHolder: kind === 'admin' ? 'svc_…' : 'svc_dsc_…',
      validateInput: (value) => validateKey(value, kind),
    });
    if (key === undefined) return false;
    try {
      await this.store(kind, key);
    } catch (e) {
      void vscode.window.showErrorMessage(`Docs Assistant: could not store the ${LABELS[kind]}: ${e instanceof Error ? e.message : String(e)}`);
      return false;
    }
    void vscode.window.showInformationMessage(`Docs Assistant: ${LABELS[kind]} saved.`);
    return true;
  }

  static label(kind: KeyKind): string {
    return LABELS[kind];
  }

  dispose(): void {
    this.subscription.dispose();
    this._onDidChange.dispose();
  }
}
