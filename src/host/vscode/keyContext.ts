import * as vscode from 'vscode';
import type { KeyStore } from './secrets';

// `docsAssistant.hasAssistantKey` for when-clauses and the walkthrough: its assistant-key step is
// done when a key is stored, however it got there (the command, a demo seed, another window
// through SecretStorage), not only when the user runs the command in this window. The admin key's
// context key belongs to the agent feature, which already tracks it with its jobs.

export function registerAssistantKeyContext(keys: KeyStore): vscode.Disposable {
  const update = async () => {
    await vscode.commands.executeCommand('setContext', 'docsAssistant.hasAssistantKey', await keys.has('assistant'));
  };
  void update();
  return keys.onDidChange((kind) => {
    if (kind === 'assistant') void update();
  });
}
