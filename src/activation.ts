import * as vscode from 'vscode';
import { registerAgentFeature, type AgentFeature } from './agent/vscode';
import { AssistantService } from './assistant/vscode/assistantService';
import { registerChatFeature } from './chat/vscode';
import { registerCodeActionsFeature } from './codeActions/vscode';
import { registerHealthFeature } from './health/vscode';
import type { AgentJobsService } from './common/jobs';
import type { ResolveHost } from './chat/core/imagePolicy';
import type { ChatController } from './chat/vscode/chatController';
import type { ChatViewProvider } from './chat/vscode/chatViews';
import type { StaleChecker } from './staleDocs/vscode/staleChecker';
import { setErrorSink } from './common/errorSink';
import { logErrors } from './host/core/redactingLog';
import { Log } from './host/vscode/log';
import { registerAssistantKeyContext } from './host/vscode/keyContext';
import { KeyStore, type KeySeedTarget } from './host/vscode/secrets';
import { UrlSettingsGuard } from './host/vscode/urlSettingsGuard';
import { WorkspaceSettingsGuard } from './host/vscode/workspaceSettingsGuard';
import { registerParticipantFeature } from './participant/vscode';
import { registerStaleDocsFeature } from './staleDocs/vscode';

/** What activation hands to the integration suite (test/integration); a normal activation returns nothing. */
export interface DocsAssistantTestHooks {
  agent: AgentFeature;
  jobs: AgentJobsService;
  chatView: ChatViewProvider;
  /** The chat's conversation: what its composer holds, and its Send (session.ask). */
  chat: ChatController;
  keys: KeyStore;
  /** Check Docs for My Changes: its state and last result. */
  staleDocs: StaleChecker;
}

/** What differs between the two extension hosts; each entry (src/extension.ts, src/web/extension.ts) passes its own. */
export interface HostRuntime {
  /** Which extension host this is, for the log. */
  name: string;
  /** The first-run demo keys (`npm start`): the Node host's environment has them; a browser has none. */
  seedKeys?: (keys: KeySeedTarget, log: Log) => Promise<void>;
  /**
   * Every address a name resolves to, so a clicked image is fetched only from public addresses
   * (src/chat/core/imagePolicy.ts). The Node host has DNS; a browser cannot look a name up.
   */
  resolveHost?: ResolveHost;
}

// Wiring only: create the shared services, hand them to each feature, and let
// context.subscriptions own every Disposable. Features never import each other: the chat gets
// what it needs of the agent as an interface from src/common.
export function activateDocsAssistant(context: vscode.ExtensionContext, runtime: HostRuntime): DocsAssistantTestHooks | undefined {
  const keys = new KeyStore(context.secrets);
  // Every line is cleaned of key shapes and URL user info, and of the keys by value: the key store
  // remembers each key it reads or stores before handing it out, so a key of a shape no pattern
  // knows (stored before the key check refused its characters, say) is hidden too.
  const log = new Log(keys);
  // What a listener or a dispose throws is caught by the kit (src/common) and written here, redacted.
  setErrorSink(logErrors(log));
  log.info(`Docs Assistant ${String(context.extension.packageJSON.version)} activated in the ${runtime.name}.`);
  context.subscriptions.push(log, keys, new WorkspaceSettingsGuard(context.workspaceState, log), new UrlSettingsGuard(log), registerAssistantKeyContext(keys));

  const { seedKeys } = runtime;
  if (seedKeys)
    keys.seed(
      (target) => seedKeys(target, log),
      (e) => log.error('Could not store the demo keys', e),
    );

  const services = { keys, log };
  // The one Assistant every surface asks through, with the one readiness and one client.
  const assistant = new AssistantService(keys);
  const agent = registerAgentFeature(context, services);
  // The chat gets the agent feature only as the AgentJobsService interface (src/common/jobs.ts).
  const chat = registerChatFeature(context, { ...services, assistant, jobs: agent.jobs, resolveHost: runtime.resolveHost });
  // VS Code's own Chat (@docs, #docs, the docs site's MCP server) gets the agent the same way.
  // and hands fixes to the docs agent (#fixDocs, /fix) through its one delegation interface (src/common/delegation.ts).
  const participant = registerParticipantFeature(context, { log, assistant, jobs: agent.jobs, delegation: agent.delegation });
  // Docs Health (reader signals) hands fixes to the agent as AgentJobsService, and feedback to the chat through its command.
  const health = registerHealthFeature(context, { ...services, jobs: agent.jobs });
  // Docs to Update (a code change's stale pages) asks through the one Assistant and hands fixes to the agent as AgentJobsService.
  const staleDocs = registerStaleDocsFeature({ ...services, jobs: agent.jobs, assistant });
  // The lightbulb's Docs actions reach the chat and the agent only through their commands (src/common/commandArgs.ts).
  context.subscriptions.push(assistant, agent, chat, participant, health, staleDocs, registerCodeActionsFeature());
  // Only an extension host started to run tests sees inside; installed from a .vsix, nothing is exported.
  return context.extensionMode === vscode.ExtensionMode.Test
    ? { agent: agent.feature, jobs: agent.jobs, chatView: chat.view, chat: chat.controller, keys, staleDocs: staleDocs.checker }
    : undefined;
}
