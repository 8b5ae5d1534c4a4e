import { AgentClient, PreviewClient, type AgentClientOptions, type MissingOption, ServiceError } from '../../api';
import { Emitter } from '../../common/event';
import type { IDisposable } from '../../common/lifecycle';

// The agent's one way to the service, as the assistant layer is the chat's: whether agent jobs
// can start (one readiness: every surface asks here, and src/host/core/errorWords.ts words what is
// missing once), and one client per settings and key instead of one per call. The VS Code wiring
// (src/agent/vscode/agentFeature.ts) reads the settings and the key, and calls renew() when either
// changes; nothing here knows VS Code, so it is tested in Node against the emulator.

/** What agent jobs are made from, as the settings and the key store hold them now. */
export interface AgentSettings {
  baseUrl: string;
  projectId: string;
  apiKey: string | undefined;
  requestTimeoutMs?: number;
  streamIdleTimeoutMs?: number;
}

/** What agent jobs still need: the first of these that is not set. */
export type AgentMissing = MissingOption;

export function agentMissing(s: AgentSettings): AgentMissing | undefined {
  if (!s.baseUrl) return 'baseUrl';
  if (!s.projectId) return 'projectId';
  if (!s.apiKey) return 'apiKey';
  return undefined;
}

/** The error that says what agent jobs still need, in errorWords.ts's words (notConfigured). */
export function notReadyError(missing: AgentMissing): ServiceError {
  return new ServiceError({ reason: { code: 'notConfigured', service: 'agent', missing } });
}

export type AgentClientFactory = (options: AgentClientOptions) => AgentClient;

export class AgentAccess implements IDisposable {
  /** The clients of the settings and key as they were at the last renew(): built once, shared by every call. */
  private current: Promise<{ agent: AgentClient; preview: PreviewClient }> | undefined;
  private isReady = false;
  /** Reads are numbered, so a slow one never overwrites what a later one found. */
  private reads = 0;
  private readonly readinessChanged = new Emitter<void>();
  /** `ready` changed. */
  readonly onDidChangeReadiness = this.readinessChanged.event;

  constructor(
    private readonly read: () => Promise<AgentSettings>,
    private readonly create: AgentClientFactory = (options) => new AgentClient(options),
  ) {
    this.readAgain();
  }

  /** Whether agent jobs could start at the last read (false until the first read is done). */
  get ready(): boolean {
    return this.isReady;
  }

  /** What agent jobs still need, read afresh; undefined when they can start. */
  async missing(): Promise<AgentMissing | undefined> {
    return agentMissing(await this.readNow());
  }

  /**
   * The client for the current settings and key, or a ServiceError (notConfigured) that says what
   * is missing. Not being ready is never kept: the next call reads the settings and the key again.
   */
  client(): Promise<AgentClient> {
    return this.clients().then((c) => c.agent);
  }

  /** The preview deployments' client (same settings and key, same readiness), built with the agent's. */
  previewClient(): Promise<PreviewClient> {
    return this.clients().then((c) => c.preview);
  }

  private clients(): Promise<{ agent: AgentClient; preview: PreviewClient }> {
    if (!this.current) {
      const building = this.build();
      this.current = building;
      building.catch(() => {
        if (this.current === building) this.current = undefined;
      });
    }
    return this.current;
  }

  /** The settings or the key changed: the next call builds a new client, and `ready` is read again. */
  renew(): void {
    this.current = undefined;
    this.readAgain();
  }

  dispose(): void {
    this.current = undefined;
    this.readinessChanged.dispose();
  }

  /** Reads for `ready` alone. The reader does not throw (a broken keyring reads as no key); if it did, `ready` stays as it was and the next client() says why. */
  private readAgain(): void {
    this.missing().catch(() => undefined);
  }

  private async build(): Promise<{ agent: AgentClient; preview: PreviewClient }> {
    const s = await this.readNow();
    const missing = agentMissing(s);
    if (missing) throw notReadyError(missing);
    const options: AgentClientOptions = {
      baseUrl: s.baseUrl,
      projectId: s.projectId,
      apiKey: s.apiKey!,
      requestTimeoutMs: s.requestTimeoutMs,
      streamIdleTimeoutMs: s.streamIdleTimeoutMs,
    };
    return { agent: this.create(options), preview: new PreviewClient(options) };
  }

  private async readNow(): Promise<AgentSettings> {
    const n = ++this.reads;
    const s = await this.read();
    const ready = agentMissing(s) === undefined;
    if (n === this.reads && ready !== this.isReady) {
      this.isReady = ready;
      this.readinessChanged.fire();
    }
    return s;
  }
}
