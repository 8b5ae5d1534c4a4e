import * as vscode from 'vscode';
import type { AssistantService } from '../../assistant/vscode/assistantService';
import type { AgentJobsService } from '../../common/jobs';
import type { Log } from '../../host/vscode/log';
import type { KeyStore } from '../../host/vscode/secrets';
import { registerAccessibleViews } from './accessibleView';
import { ChatController } from './chatController';
import type { ResolveHost } from '../core/imagePolicy';
import { ChatPanels, ChatViewProvider } from './chatViews';
import { registerChatCommands } from './commands';

/**
 * `assistant` is the one Assistant every surface asks through; `jobs` is the agent feature as the
 * chat may use it; both are handed over by activation.ts. `resolveHost` is the Node host's DNS, if any.
 */
export function registerChatFeature(
  context: vscode.ExtensionContext,
  services: { keys: KeyStore; log: Log; assistant: AssistantService; jobs: AgentJobsService; resolveHost?: ResolveHost },
): vscode.Disposable & { readonly view: ChatViewProvider; readonly controller: ChatController } {
  const controller = new ChatController(context, services.assistant, services.log, services.jobs, services.resolveHost);
  const view = new ChatViewProvider(controller);
  const panels = new ChatPanels(controller);
  const commands = registerChatCommands(controller, view, panels, services);
  const accessibleViews = registerAccessibleViews(controller.accessibleViews);
  return Object.assign(vscode.Disposable.from(controller, view, panels, commands, accessibleViews), { view, controller });
}
