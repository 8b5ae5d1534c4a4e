import { lookup } from 'node:dns/promises';
import type * as vscode from 'vscode';
import { activateDocsAssistant, type DocsAssistantTestHooks } from './activation';
import { seedDemoKeys } from './host/vscode/demoKeys';

export type { DocsAssistantTestHooks } from './activation';

// The desktop (Node) extension host's entry, package.json "main". The only file under src/ that
// may use Node: the first-run demo keys come from the environment `npm start` sets, and a clicked
// image's host name is looked up (every address, as the OS resolver gives them) so the image
// loader can refuse one that leads to this machine or network (src/chat/core/imagePolicy.ts).
export function activate(context: vscode.ExtensionContext): DocsAssistantTestHooks | undefined {
  return activateDocsAssistant(context, {
    name: 'Node extension host',
    seedKeys: (keys, log) => seedDemoKeys(keys, process.env, log),
    resolveHost: async (hostname) => (await lookup(hostname, { all: true })).map((a) => a.address),
  });
}

export function deactivate(): void {
  // Everything is owned by context.subscriptions.
}
