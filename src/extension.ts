import type * as vscode from 'vscode';
import { activateDocsAssistant, type DocsAssistantTestHooks } from './activation';
import { seedDemoKeys } from './host/demoKeys';

export type { DocsAssistantTestHooks } from './activation';

// The desktop (Node) extension host's entry, package.json "main". The only file under src/ that
// may use Node's globals: the first-run demo keys come from the environment `npm start` sets.
export function activate(context: vscode.ExtensionContext): DocsAssistantTestHooks | undefined {
  return activateDocsAssistant(context, { name: 'Node extension host', seedKeys: (keys, log) => seedDemoKeys(keys, process.env, log) });
}

export function deactivate(): void {
  // Everything is owned by context.subscriptions.
}
