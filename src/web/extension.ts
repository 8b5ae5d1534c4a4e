import type * as vscode from 'vscode';
import { activateDocsAssistant, type DocsAssistantTestHooks } from '../activation';

// The browser extension host's entry, package.json "browser": github.dev, vscode.dev and
// code-server's web worker. The same features, client and webview as on the desktop; no demo
// keys (a browser has no environment to take them from, and their code stays out of this bundle). The log names the host and whether a
// `process` global exists, which is how a user (and the web e2e) can tell where it runs. No
// `resolveHost`: a browser cannot look a name up, so a clicked image's host is judged by its
// name or IP literal alone, and the browser's fetch goes wherever its DNS says (README, Security).
export function activate(context: vscode.ExtensionContext): DocsAssistantTestHooks | undefined {
  const name = 'process' in globalThis ? 'browser extension host (with a process global)' : 'browser extension host (web worker, no process global)';
  return activateDocsAssistant(context, { name });
}

export function deactivate(): void {
  // Everything is owned by context.subscriptions.
}
