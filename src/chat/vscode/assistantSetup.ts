import * as vscode from 'vscode';
import { ASSISTANT_KEY_PREFIX } from '../../api/keys';
import type { AgentJobsService } from '../../common/jobs';
import { Disposable } from '../../common/lifecycle';
import type { ChatSnapshot } from '../../common/protocol';
import { onDidChangeConfig, readConfig } from '../../host/vscode/config';
import type { KeyStore } from '../../host/vscode/secrets';
import type { AssistantLike } from '../core/chatSession';
import type { RequestSettings } from '../../api/types';
import type { ClientProblem } from '../../common/setup';
import { assistantClient, requestSettings } from '../../host/vscode/assistantAccess';

// Whether the chat can ask, and with what: the settings and the assistant key make the client
// for each question and what the request carries; when one is missing, the chat says which
// (the setup banner), and whether "Fix This in the Docs" is offered follows the agent's setup.

export type ChatExtras = Pick<ChatSnapshot, 'agentAvailable' | 'setupHint'>;

export class AssistantSetup extends Disposable {
  private current: ChatExtras = { agentAvailable: false };

  constructor(
    private readonly keys: KeyStore,
    private readonly agent: Pick<AgentJobsService, 'available' | 'onDidChange'>,
    /** The extras changed: the views need a fresh snapshot. */
    private readonly onDidChange: () => void,
  ) {
    super();
    // The agent's availability (service, project, admin key) decides whether the answer offers Fix This.
    this._register(agent.onDidChange(() => void this.refresh()));
    this._register(onDidChangeConfig(() => void this.refresh()));
    this._register(keys.onDidChange(() => void this.refresh()));
    void this.refresh();
  }

  /** What the snapshot adds to the conversation: the setup banner and whether Fix This is offered. */
  get extras(): ChatExtras {
    return this.current;
  }

  private async refresh(): Promise<void> {
    const cfg = readConfig();
    const hasAssistantKey = await this.keys.has('assistant');
    const agentAvailable = this.agent.available;
    let setupHint: ChatSnapshot['setupHint'];
    if (!cfg.baseUrl) setupHint = { message: vscode.l10n.t("Set the service's base URL to start asking."), action: 'openSettings' };
    else if (!cfg.domain) setupHint = { message: vscode.l10n.t("Set the service's domain to start asking."), action: 'openSettings' };
    else if (!hasAssistantKey)
      setupHint = {
        message: vscode.l10n.t('Set the assistant API key (it starts with "{0}") to start asking.', ASSISTANT_KEY_PREFIX),
        action: 'setAssistantKey',
      };
    this.current = setupHint ? { agentAvailable, setupHint } : { agentAvailable };
    this.onDidChange();
  }

  /** A client with the current settings and key, or what is missing (src/host/vscode/assistantAccess.ts). */
  client(): Promise<AssistantLike | ClientProblem> {
    return assistantClient(this.keys);
  }

  /** What a question carries from the settings, with the path of the file being read. */
  requestSettings(currentPath: string | undefined): Promise<RequestSettings> {
    return requestSettings(currentPath);
  }
}
