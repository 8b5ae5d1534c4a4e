import * as vscode from 'vscode';
import type { AgentJobsService } from '../../common/jobs';
import { DocsSiteMap } from '../../host/core/docsSiteMap';
import { DocsSiteFiles } from '../../host/vscode/docsSiteFiles';
import { commandGuard } from '../../host/vscode/guarded';
import type { Log } from '../../host/vscode/log';
import type { KeyStore } from '../../host/vscode/secrets';
import { PageJobs } from '../core/pageJobs';
import { ReaderSignalsStore } from '../core/readerSignalsStore';
import { AnalyticsAccess } from './analyticsAccess';
import { registerHealthCommands } from './healthCommands';
import { DOCS_SELECTOR, HealthLensProvider } from './healthLens';
import { HealthView } from './healthView';

// Docs Health (issue 31): what readers said about the docs, in the editor. The store (the core's
// ReaderSignalsStore) fetches, bounds, groups and maps the signals to this workspace's files; the
// view decides when it fetches (only while visible); the CodeLens and the tree read its snapshot.
// The agent reaches it only as AgentJobsService, and the chat only through its command.

export interface HealthServices {
  keys: KeyStore;
  log: Log;
  jobs: AgentJobsService;
}

export function registerHealthFeature(context: vscode.ExtensionContext, services: HealthServices): vscode.Disposable {
  const access = new AnalyticsAccess(services.keys);
  const sites = new DocsSiteFiles();
  const signals = new ReaderSignalsStore({ projectId: () => access.project(), calls: () => access.calls() });
  // Another docs.json, or pages added or removed: the snapshots are mapped again, without a fetch.
  sites.onDidChange(() => signals.setSites(new DocsSiteMap(sites.sites)));
  const pageJobs = new PageJobs(context.workspaceState);
  const jobsView = {
    jobsFor: (page: string) => pageJobs.jobsFor(page),
    state: (id: string) => services.jobs.state(id),
    onDidChange: services.jobs.onDidChange,
  };
  const view = new HealthView(signals, jobsView, services.log);
  const lens = new HealthLensProvider(signals);
  // Other settings or another admin key: what was read with the old ones goes, a fetch running
  // with them stops, and the view fetches afresh (when it is visible).
  access.onDidChange(async () => {
    signals.invalidate();
    view.tree.refresh();
    await view.fetch();
  });
  void sites.scan();
  return vscode.Disposable.from(
    access,
    sites,
    signals,
    view,
    lens,
    vscode.languages.registerCodeLensProvider(DOCS_SELECTOR, lens),
    registerHealthCommands({ signals, view, jobs: services.jobs, pageJobs, guarded: commandGuard(services) }),
  );
}
