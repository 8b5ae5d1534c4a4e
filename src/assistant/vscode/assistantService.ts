import * as vscode from 'vscode';
import { AssistantClient, type AssistantClientOptions, type ServiceError, type RequestSettings } from '../../api';
import { Disposable } from '../../common/lifecycle';
import { machineFingerprint } from '../../host/core/machineFingerprint';
import { onDidChangeConfig, readConfig } from '../../host/vscode/config';
import type { KeyStore } from '../../host/vscode/secrets';
import { Assistant, type AssistantLike } from '../core/assistant';
import { notSetUpError, SetupState } from '../core/setupState';

// The assistant as the settings and the assistant key make it, for every surface that asks (the
// chat view, @docs, #docs): the one SetupState, fed from the settings and SecretStorage as they
// change, and one client, built again only when the settings or the key it was made from changed.

/** The options a client is made from; a client is made again only when one of them changed. */
type Options = Pick<AssistantClientOptions, 'baseUrl' | 'domain' | 'apiKey' | 'apiVersion' | 'requestTimeoutMs' | 'streamIdleTimeoutMs'>;

function sameOptions(a: Options, b: Options): boolean {
  return (Object.keys(b) as (keyof Options)[]).every((k) => a[k] === b[k]);
}

/** What every question carries from the settings. */
async function requestSettings(): Promise<RequestSettings> {
  const cfg = readConfig();
  // "machine" is a stable, anonymous id: a hash, never the machine id itself.
  const fp = cfg.fingerprint === 'machine' ? await machineFingerprint(vscode.env.machineId) : cfg.fingerprint;
  return { fp, retrievalPageSize: cfg.retrievalPageSize, filter: cfg.filter };
}

export class AssistantService extends Disposable {
  readonly setup: SetupState;
  /** The one Assistant every surface asks through. */
  readonly assistant: Assistant;
  private made: { options: Options; client: AssistantClient } | undefined;

  constructor(private readonly keys: KeyStore) {
    super();
    this.setup = this._register(new SetupState());
    this.assistant = new Assistant({ client: () => this.client(), settings: requestSettings, t: vscode.l10n.t });
    this._register(onDidChangeConfig(() => void this.read()));
    this._register(keys.onDidChange((kind) => kind === 'assistant' && void this.read()));
    void this.read();
  }

  /** What the settings and the key store say now, handed to SetupState. */
  private async read(): Promise<Options> {
    const cfg = readConfig();
    const apiKey = (await this.keys.get('assistant')) ?? '';
    this.setup.update({ baseUrl: cfg.baseUrl, domain: cfg.domain, hasAssistantKey: apiKey !== '' });
    return {
      baseUrl: cfg.baseUrl,
      domain: cfg.domain,
      apiKey,
      apiVersion: cfg.assistantApiVersion,
      requestTimeoutMs: cfg.requestTimeoutMs,
      streamIdleTimeoutMs: cfg.streamIdleTimeoutMs,
    };
  }

  /**
   * The client, or what is not set up. Read again when asked, not only on a change event: a
   * question sent right after a setting or the key changed is sent with the new one.
   */
  private async client(): Promise<AssistantLike | ServiceError> {
    const options = await this.read();
    const problem = notSetUpError(this.setup.current!);
    if (problem) return problem;
    if (!this.made || !sameOptions(this.made.options, options)) this.made = { options, client: new AssistantClient(options) };
    return this.made.client;
  }
}
