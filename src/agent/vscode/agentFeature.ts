import * as vscode from 'vscode';
import type { AgentClient, ServiceError } from '../../api';
import { Emitter } from '../../common/event';
import { Disposable, DisposableStore, MutableDisposable } from '../../common/lifecycle';
import { onDidChangeConfig, readConfig } from '../../host/vscode/config';
import { showServiceError } from '../../host/vscode/errorMessages';
import { describeForUser } from '../../host/core/errorWords';
import type { Log } from '../../host/vscode/log';
import type { KeyStore } from '../../host/vscode/secrets';
import { AgentAccess } from '../core/agentAccess';
import { AgentJobs } from '../core/agentJobs';
import type { JobRecord } from '../core/jobStore';
import { JobsTreeProvider } from './jobsTreeProvider';
import { loadGitApi, type GitApi } from '../../host/vscode/gitApi';
import { notifyJobFinished } from './notifications';
import { ActiveJobsStatusBar } from './statusBar';

export interface AgentServices {
  keys: KeyStore;
  log: Log;
}

/** What the agent asks of VS Code to open a link; the integration suite swaps these to see what opens. */
export interface AgentHost {
  openExternal(uri: vscode.Uri): Thenable<boolean>;
  /** Whether an extension is installed and enabled here. */
  hasExtension(id: string): boolean;
  /** The built-in Git extension's API, or undefined where there is no Git (src/host/vscode/gitApi.ts). */
  git(): Promise<GitApi | undefined>;
}

/**
 * Owns the agent feature: the jobs of the configured project, the tree, the status bar and the
 * commands. When the base URL or project changes, the jobs of the new project are loaded and
 * the old project's polling stops; nothing of either is lost.
 */
export class AgentFeature extends Disposable {
  readonly tree: JobsTreeProvider;
  readonly view: vscode.TreeView<import('./jobsTreeProvider').JobsTreeElement>;
  private jobs: AgentJobs | undefined;
  private jobsKey = '';
  /** The project's jobs and what listens to them: disposed together when another project takes their place. */
  private readonly project = new MutableDisposable<DisposableStore>();
  private readonly statusBar = this._register(new ActiveJobsStatusBar());
  /** Whether agent jobs can start, and the one client for the current settings and admin key. */
  readonly access: AgentAccess;
  private readonly jobsChanged = this._register(new Emitter<void>());
  /** The job list changed, or another project's list took its place. */
  readonly onDidChangeJobs = this.jobsChanged.event;
  /** Whether a finished job's notification offers Open Preview; set by the preview wiring (previewFeature.ts). */
  offersPreview: (record: JobRecord) => boolean = () => false;
  readonly host: AgentHost = {
    openExternal: (uri) => vscode.env.openExternal(uri),
    hasExtension: (id) => vscode.extensions.getExtension(id) !== undefined,
    git: loadGitApi,
  };

  constructor(
    readonly context: vscode.ExtensionContext,
    readonly services: AgentServices,
  ) {
    super();
    this.access = this._register(
      new AgentAccess(async () => {
        const { baseUrl, projectId, requestTimeoutMs, streamIdleTimeoutMs } = readConfig();
        return { baseUrl, projectId, requestTimeoutMs, streamIdleTimeoutMs, apiKey: await services.keys.get('admin') };
      }),
    );
    this.tree = this._register(new JobsTreeProvider(() => this.jobs?.store.all() ?? []));
    this.view = this._register(vscode.window.createTreeView('docsAssistant.jobsView', { treeDataProvider: this.tree, showCollapseAll: false }));
    // A new client for new settings or a new key (set here, in another window, or cleared); never one per call.
    this._register(
      onDidChangeConfig(() => {
        this.access.renew();
        this.reload();
      }),
    );
    this._register(
      services.keys.onDidChange((kind) => {
        if (kind === 'admin') this.access.renew();
        void this.updateContextKeys();
      }),
    );
    this._register(vscode.window.onDidChangeWindowState((s) => s.focused && this.jobs?.refresh()));
    this._register(this.project);
    this.reload();
  }

  /** The jobs of the configured project, or undefined while base URL or project id is missing. */
  get current(): AgentJobs | undefined {
    return this.jobs;
  }

  /** The client for the current settings and admin key (AgentAccess), or a ServiceError that says what is missing. */
  client(): Promise<AgentClient> {
    return this.access.client();
  }

  private reload(): void {
    const cfg = readConfig();
    const key = cfg.baseUrl && cfg.projectId ? `${cfg.baseUrl}|${cfg.projectId}` : '';
    if (key !== this.jobsKey) {
      this.jobs = undefined;
      this.project.clear();
      this.jobsKey = key;
      if (key) this.jobs = this.openProject(cfg.baseUrl, cfg.projectId);
    }
    this.onJobsChanged();
  }

  /** Loads a project's jobs from globalState and polls the active ones. */
  private openProject(baseUrl: string, projectId: string): AgentJobs {
    const scope = new DisposableStore();
    const jobs = scope.add(
      new AgentJobs({
        memento: this.context.globalState,
        baseUrl,
        projectId,
        client: () => this.client(),
        baseIntervalMs: () => readConfig().pollIntervalMs,
        isFocused: () => vscode.window.state.focused,
        describe: (e) => describeForUser(e, vscode.l10n.t).message,
      }),
    );
    scope.add(jobs.store.onDidChange(() => this.onJobsChanged()));
    scope.add(jobs.onDidFinishJob((r) => void notifyJobFinished(r, this.offersPreview(r))));
    scope.add(jobs.onDidFailAuth((e) => this.onAuthFailure(e)));
    this.project.value = scope;
    jobs.resumePolling();
    return jobs;
  }

  private onAuthFailure(error: ServiceError): void {
    this.services.log.warn(`Polling stopped: ${error.message}`);
    void showServiceError(error);
  }

  private onJobsChanged(): void {
    const records: readonly JobRecord[] = this.jobs?.store.all() ?? [];
    this.tree.refresh();
    this.statusBar.update(records.filter((r) => r.job.status === 'active' && !r.notFound).length);
    if (this.jobs) {
      const left = this.jobs.budget.remaining();
      this.view.description = left < this.jobs.budget.max ? vscode.l10n.t('{0}/{1} left this hour', left, this.jobs.budget.max) : undefined;
    } else {
      this.view.description = undefined;
    }
    void this.updateContextKeys();
    this.jobsChanged.fire();
  }

  private async updateContextKeys(): Promise<void> {
    const cfg = readConfig();
    const set = (k: string, v: boolean) => vscode.commands.executeCommand('setContext', `docsAssistant.${k}`, v);
    await Promise.all([
      set('baseUrlConfigured', !!cfg.baseUrl),
      set('projectConfigured', !!cfg.projectId),
      set('hasAdminKey', await this.services.keys.has('admin')),
      set('hasJobs', (this.jobs?.store.all().length ?? 0) > 0),
    ]);
  }
}
