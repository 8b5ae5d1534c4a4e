import * as vscode from 'vscode';
import { safeExternalUrl, hasUserInfo, isLoopbackUrl } from '../../api';
import { Emitter } from '../../common/event';
import { onDidChangeConfig, readConfig } from '../../host/vscode/config';
import type { Log } from '../../host/vscode/log';

// The docs site's own MCP server (typically https://<docs site>/mcp), offered to agent mode so it
// gets the site's search tools. Registered through lm.registerMcpServerDefinitionProvider, which
// VS Code has from 1.101; engines allows 1.100, so it is looked up at runtime and skipped where
// missing. Only the address the user set (user settings: docsAssistant.mcpServerUrl) is offered,
// https or a loopback http, and no key goes with it: the server is public, the keys are not.

export const MCP_PROVIDER_ID = 'docsAssistant.docsSiteMcp';

/** The 1.101 API this uses, declared here because @types/vscode stays at the engines version. */
interface McpApi {
  registerMcpServerDefinitionProvider(id: string, provider: McpProvider): vscode.Disposable;
}
interface McpProvider {
  onDidChangeMcpServerDefinitions: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): unknown[];
}
type McpHttpServerDefinitionCtor = new (label: string, uri: vscode.Uri, headers?: Record<string, string>, version?: string) => unknown;

/** The address to offer, or undefined (with the reason logged) when it is not one to use. */
export function mcpServerUri(raw: string): vscode.Uri | undefined {
  // http(s) with a host and no user name or password, as for any link; then https, or http to this machine.
  const url = raw ? safeExternalUrl(raw) : undefined;
  if (!url || !(url.startsWith('https:') || isLoopbackUrl(url))) return undefined;
  return vscode.Uri.parse(url, true);
}

export function registerMcpProvider(log: Log): vscode.Disposable {
  const lm = vscode.lm as unknown as Partial<McpApi>;
  const Definition = (vscode as unknown as { McpHttpServerDefinition?: McpHttpServerDefinitionCtor }).McpHttpServerDefinition;
  // VS Code 1.100 already has a function of that name, from before the API was final: it wants
  // another contribution point and throws. Only the final API (1.101) is used, and whatever it
  // throws costs the MCP server, never the extension's activation.
  if (typeof lm.registerMcpServerDefinitionProvider !== 'function' || typeof Definition !== 'function' || !atLeast(vscode.version, 1, 101)) {
    log.info(`VS Code ${vscode.version} has no MCP server provider API (1.101 or later): the docs site’s MCP server is not offered.`);
    return new vscode.Disposable(() => undefined);
  }
  const changed = new Emitter<void>();
  let last = readConfig().mcpServerUrl;
  const watch = onDidChangeConfig(() => {
    const now = readConfig().mcpServerUrl;
    if (now !== last) {
      last = now;
      changed.fire();
    }
  });
  let registration: vscode.Disposable;
  try {
    registration = lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: () => {
        const raw = readConfig().mcpServerUrl;
        const uri = mcpServerUri(raw);
        // The value is not repeated: it may hold a password (urlSettingsGuard.ts names the setting to the user).
        if (raw && !uri)
          log.warn(
            hasUserInfo(raw)
              ? 'docsAssistant.mcpServerUrl holds a user name or password: not offered.'
              : 'docsAssistant.mcpServerUrl is not an https address (or http on this machine): not offered.',
          );
        return uri ? [new Definition(vscode.l10n.t('Docs site ({0})', uri.authority), uri)] : [];
      },
    });
  } catch (e) {
    log.error('Could not offer the docs site’s MCP server', e);
    return vscode.Disposable.from(watch, changed);
  }
  return vscode.Disposable.from(registration, watch, changed);
}

/** Whether VS Code `version` ("1.139.1", "1.101.0-insider") is at least major.minor. */
export function atLeast(version: string, major: number, minor: number): boolean {
  const [a = 0, b = 0] = version.split(/[.-]/).map((n) => Number.parseInt(n, 10));
  return a > major || (a === major && b >= minor);
}
