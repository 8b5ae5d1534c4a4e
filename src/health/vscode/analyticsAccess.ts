import { AnalyticsClient, ServiceError, type MissingOption } from '../../api';
import { Emitter } from '../../common/event';
import { Disposable } from '../../common/lifecycle';
import { onDidChangeConfig, readConfig } from '../../host/vscode/config';
import type { KeyStore } from '../../host/vscode/secrets';

// Docs Health's way to the service's reader analytics: the agent's settings (base URL, project)
// and the admin key from SecretStorage, as the agent feature's AgentAccess reads them; one client
// per settings and key, made again when a `docsAssistant` setting or the admin key changes, never
// one per call. The key goes into the client and nowhere else: not a log, not a message.

export class AnalyticsAccess extends Disposable {
  private client: AnalyticsClient | undefined;
  private readonly changed = this._register(new Emitter<void>());
  /** The settings or the admin key changed: the project (and its cache) may be another. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly keys: KeyStore) {
    super();
    this._register(onDidChangeConfig(() => this.renew()));
    this._register(keys.onDidChange((kind) => kind === 'admin' && this.renew()));
  }

  /** Which project the signals are of: snapshots are cached per project (and filter). */
  project(): string {
    const { baseUrl, projectId } = readConfig();
    return `${baseUrl}|${projectId}`;
  }

  /** The client, or a ServiceError (notConfigured) that says what to set first. */
  async calls(): Promise<AnalyticsClient> {
    if (this.client) return this.client;
    const { baseUrl, projectId, requestTimeoutMs, streamIdleTimeoutMs } = readConfig();
    const apiKey = await this.keys.get('admin');
    const missing: MissingOption | undefined = !baseUrl ? 'baseUrl' : !projectId ? 'projectId' : !apiKey ? 'apiKey' : undefined;
    if (missing || !apiKey) throw new ServiceError({ reason: { code: 'notConfigured', service: 'agent', missing } });
    this.client = new AnalyticsClient({ baseUrl, projectId, apiKey, requestTimeoutMs, streamIdleTimeoutMs });
    return this.client;
  }

  private renew(): void {
    this.client = undefined;
    this.changed.fire();
  }
}
