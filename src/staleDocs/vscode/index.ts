import * as vscode from 'vscode';
import type { AssistantService } from '../../assistant/vscode/assistantService';
import type { AgentJobsService } from '../../common/jobs';
import { readConfig } from '../../host/vscode/config';
import { DocsSiteFiles } from '../../host/vscode/docsSiteFiles';
import { commandGuard } from '../../host/vscode/guarded';
import type { Log } from '../../host/vscode/log';
import type { KeyStore } from '../../host/vscode/secrets';
import { extractChanges } from '../core/changeExtractor';
import { staleDocsDraft } from '../core/fixDraft';
import { findStalePages } from '../core/staleSearch';
import { PageReader } from './pageReader';
import { SearchAccess } from './searchAccess';
import { registerStaleCommands } from './staleCommands';
import { StaleChecker } from './staleChecker';
import { StaleView } from './staleView';

// Docs to Update (issue 32): the docs a code change makes wrong, found before the merge. The change
// is read through the built-in Git extension, the extractor and the search are the cores'
// (src/staleDocs/core), the pages are shown in their own view, and fixes go to the agent as
// AgentJobsService (handed over by src/activation.ts). Asking the docs is the shared assistant's.

export interface StaleDocsServices {
  keys: KeyStore;
  log: Log;
  jobs: AgentJobsService;
  assistant: AssistantService;
}

/** The feature, for activation to dispose, and its checker for the integration suite (src/activation.ts's test hooks). */
export interface StaleDocsFeature extends vscode.Disposable {
  readonly checker: StaleChecker;
}

export function registerStaleDocsFeature(services: StaleDocsServices): StaleDocsFeature {
  const sites = new DocsSiteFiles();
  const pages = new PageReader(sites);
  const search = new SearchAccess(services.keys, services.assistant, services.log);
  const checker = new StaleChecker(
    {
      extract: extractChanges,
      searcher: () => search.searcher(),
      readPage: pages.reader(search.pageEndpoint),
      // The site's address is read per check: the setting may change between checks.
      find: (items, searcher, opts) => findStalePages(items, searcher, { ...opts, docsSiteUrl: readConfig().docsSiteUrl }),
    },
    services.log,
  );
  const view = new StaleView(checker, pages);
  const all = vscode.Disposable.from(
    sites,
    search,
    checker,
    view,
    registerStaleCommands({
      checker,
      view,
      jobs: services.jobs,
      guarded: commandGuard(services),
      draft: (check, change) => staleDocsDraft(check, change, vscode.l10n.t),
    }),
  );
  return { checker, dispose: () => all.dispose() };
}
