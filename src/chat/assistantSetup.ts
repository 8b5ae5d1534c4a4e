import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { AssistantClient } from '../api/assistantClient';
import { ASSISTANT_KEY_PREFIX } from '../api/keys';
import type { AgentJobsService } from '../common/jobs';
import { Disposable } from '../common/lifecycle';
import type { ChatSnapshot } from '../common/protocol';
import { onDidChangeConfig, readConfig } from '../host/config';
import type { KeyStore } from '../host/secrets';
import type { AssistantLike } from './chatSession';
import type { ClientProblem } from './turnRunner';
import type { RequestSettings } from './turnRequest';

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

  /** A client with the current settings and key, or a sentence saying what is missing. */
  async client(): Promise<AssistantLike | ClientProblem> {
    const cfg = readConfig();
    if (!cfg.baseUrl) return { problem: vscode.l10n.t('The service address is not set ({0}).', 'docsAssistant.baseUrl'), action: 'openSettings' };
    if (!cfg.domain) return { problem: vscode.l10n.t('The documentation domain is not set ({0}).', 'docsAssistant.domain'), action: 'openSettings' };
    const apiKey = await this.keys.get('assistant');
    if (!apiKey) return { problem: vscode.l10n.t('The assistant API key is not set. It starts with "{0}".', ASSISTANT_KEY_PREFIX), action: 'setAssistantKey' };
    return new AssistantClient({
      baseUrl: cfg.baseUrl,
      domain: cfg.domain,
      apiKey,
      apiVersion: cfg.assistantApiVersion,
      requestTimeoutMs: cfg.requestTimeoutMs,
      streamIdleTimeoutMs: cfg.streamIdleTimeoutMs,
    });
  }

  /** What a question carries from the settings, with the path of the file being read. */
  requestSettings(currentPath: string | undefined): RequestSettings {
    const cfg = readConfig();
    const fp =
      cfg.fingerprint === 'machine' ? createHash('sha256').update(`docs-assistant:${vscode.env.machineId}`).digest('hex').slice(0, 32) : cfg.fingerprint;
    const settings: RequestSettings = { fp, retrievalPageSize: cfg.retrievalPageSize, filter: cfg.filter };
    if (currentPath !== undefined) settings.currentPath = currentPath;
    return settings;
  }
}
