import * as vscode from 'vscode';
import type { AgentJobsService } from '../../common/jobs';
import type { Log } from '../../host/vscode/log';
import type { KeyStore } from '../../host/vscode/secrets';
import { ChatController } from './chatController';
import type { ResolveHost } from '../core/imagePolicy';
import { ChatPanels, ChatViewProvider } from './chatViews';
import { registerChatCommands } from './commands';

/** `jobs` is the agent feature as the chat may use it, handed over by extension.ts; `resolveHost` the Node host's DNS, if any. */
export function registerChatFeature(
  context: vscode.ExtensionContext,
  services: { keys: KeyStore; log: Log; jobs: AgentJobsService; resolveHost?: ResolveHost },
): vscode.Disposable & { readonly view: ChatViewProvider; readonly controller: ChatController } {
  const controller = new ChatController(context, services.keys, services.log, services.jobs, services.resolveHost);
  const view = new ChatViewProvider(controller);
  const panels = new ChatPanels(controller);
  return Object.assign(vscode.Disposable.from(controller, view, panels, registerChatCommands(controller, view, panels, services)), { view, controller });
}
