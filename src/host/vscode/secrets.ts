import * as vscode from 'vscode';
import { ADMIN_KEY_PREFIX, ASSISTANT_KEY_PREFIX, keyProblem, type KeyKind } from '../../api';
import { Emitter } from '../../common/event';
import { keyNoun, keyProblemWords } from '../core/keyWords';
import { KnownSecrets, type SecretSource } from '../core/redactingLog';

// Both keys live only in VS Code's SecretStorage: never in settings, globalState, logs or the
// webview. On Linux without a desktop keyring, VS Code offers its weaker "basic" password store
// and SecretStorage keeps working. Where writing to it fails anyway, the key is kept in memory
// for this window only (never written anywhere else) and the user is told how to make it stick.

const SECRET_IDS: Record<KeyKind, string> = {
  admin: 'docsAssistant.adminApiKey',
  assistant: 'docsAssistant.assistantApiKey',
};

/** What the first-run seeding may do: read and write keys without waiting for the seeding itself. */
export interface KeySeedTarget {
  has(kind: KeyKind): Promise<boolean>;
  store(kind: KeyKind, key: string): Promise<void>;
}

export class KeyStore implements vscode.Disposable, SecretSource {
  private readonly _onDidChange = new Emitter<KeyKind>();
  readonly onDidChange = this._onDidChange.event;
  private readonly subscription: vscode.Disposable;
  /** Keys that SecretStorage refused to store; they last until the window closes. */
  private readonly sessionOnly = new Map<KeyKind, string>();
  /**
   * Every key value this store has read or been given, for the log to hide by value. A value is
   * remembered before it is handed out, so nothing can log a key the log does not know yet.
   */
  private readonly known = new KnownSecrets();
  /**
   * The first-run keys being stored (`npm start`'s demo keys). A read waits for it, so a command
   * run the moment the window opens finds the demo key instead of asking for one.
   */
  private seeding: Promise<void> = Promise.resolve();

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((e) => {
      for (const kind of Object.keys(SECRET_IDS) as KeyKind[]) {
        if (e.key !== SECRET_IDS[kind]) continue;
        // Set in another window, say: the log learns the new value at once, not at its first use.
        void this.get(kind);
        this._onDidChange.fire(kind);
      }
    });
    for (const kind of Object.keys(SECRET_IDS) as KeyKind[]) void this.get(kind);
  }

  /** The keys' values as far as this store has seen them (for RedactingLog). */
  knownSecrets(): Iterable<string> {
    return this.known.knownSecrets();
  }

  /** Stores the first-run keys; every read waits until it is done. What it throws goes to `failed`. */
  seed(seeder: (target: KeySeedTarget) => Promise<void>, failed: (e: unknown) => void): void {
    const target: KeySeedTarget = { has: async (kind) => (await this.read(kind)) !== undefined, store: (kind, key) => this.store(kind, key) };
    this.seeding = seeder(target).catch(failed);
  }

  async get(kind: KeyKind): Promise<string | undefined> {
    await this.seeding;
    return this.read(kind);
  }

  private async read(kind: KeyKind): Promise<string | undefined> {
    const inMemory = this.sessionOnly.get(kind);
    if (inMemory) return inMemory;
    try {
      const key = (await this.secrets.get(SECRET_IDS[kind])) || undefined;
      this.known.remember(key);
      return key;
    } catch {
      // A broken keyring must read as "no key", which leads the user to set one, not as a crash.
      return undefined;
    }
  }

  async has(kind: KeyKind): Promise<boolean> {
    return (await this.get(kind)) !== undefined;
  }

  async store(kind: KeyKind, key: string): Promise<void> {
    const problem = keyProblem(key, kind);
    if (problem) throw new Error(keyProblemWords(problem, kind, vscode.l10n.t));
    this.known.remember(key.trim());
    this.sessionOnly.delete(kind);
    try {
      await this.secrets.store(SECRET_IDS[kind], key.trim());
    } catch (e) {
      this.sessionOnly.set(kind, key.trim());
      this._onDidChange.fire(kind);
      throw new SecretStorageUnavailableError(e);
    }
  }

  async clear(kind: KeyKind): Promise<void> {
    const hadSessionKey = this.sessionOnly.delete(kind);
    try {
      await this.secrets.delete(SECRET_IDS[kind]);
    } finally {
      if (hadSessionKey) this._onDidChange.fire(kind);
    }
  }

  /** Password input box with live prefix validation. Returns true when a key was stored. */
  async prompt(kind: KeyKind): Promise<boolean> {
    const key = await vscode.window.showInputBox({
      title: kind === 'admin' ? vscode.l10n.t('Docs Assistant: Set Admin API Key') : vscode.l10n.t('Docs Assistant: Set Assistant API Key'),
      prompt:
        kind === 'admin'
          ? vscode.l10n.t(
              'Paste the admin API key (starts with "{0}"). It is stored in VS Code\'s secret storage and sent only to the configured service.',
              ADMIN_KEY_PREFIX,
            )
          : vscode.l10n.t('Paste the assistant API key (starts with "{0}"). It is stored in VS Code\'s secret storage.', ASSISTANT_KEY_PREFIX),
      password: true,
      ignoreFocusOut: true,
      placeHolder: `${kind === 'admin' ? ADMIN_KEY_PREFIX : ASSISTANT_KEY_PREFIX}…`,
      validateInput: (value) => {
        const problem = keyProblem(value, kind);
        return problem === undefined ? undefined : keyProblemWords(problem, kind, vscode.l10n.t);
      },
    });
    if (key === undefined) return false;
    try {
      await this.store(kind, key);
    } catch (e) {
      if (e instanceof SecretStorageUnavailableError) {
        void vscode.window.showWarningMessage(
          vscode.l10n.t(
            'Docs Assistant: VS Code\'s secret storage is not available (on Linux this usually means no desktop keyring is running). The {0} will work until this window closes. To keep it, start a keyring, or run "Preferences: Configure Runtime Arguments" and set "password-store": "basic", then restart VS Code.',
            keyNoun(kind, vscode.l10n.t),
          ),
        );
        return true;
      }
      void vscode.window.showErrorMessage(
        vscode.l10n.t('Docs Assistant: could not store the {0}: {1}', keyNoun(kind, vscode.l10n.t), e instanceof Error ? e.message : String(e)),
      );
      return false;
    }
    void vscode.window.showInformationMessage(vscode.l10n.t('Docs Assistant: the {0} is saved.', keyNoun(kind, vscode.l10n.t)));
    return true;
  }

  dispose(): void {
    this.subscription.dispose();
    this._onDidChange.dispose();
  }
}

/**
 * SecretStorage refused to write; the key is held in memory for this window only. The user reads
 * that in prompt()'s warning; the message (for the log) is what SecretStorage said.
 */
export class SecretStorageUnavailableError extends Error {
  constructor(cause: unknown) {
    super(String(cause), { cause });
    this.name = 'SecretStorageUnavailableError';
  }
}
