import * as vscode from 'vscode';
import type { AgentJobsService } from '../../common/jobs';
import { readConfig } from '../../host/vscode/config';
import type { Guard } from '../../host/vscode/guarded';
import type { StaleCheck } from '../core/staleDocs';
import { pageUrl, rowText } from '../core/staleWords';
import type { StaleChecker } from './staleChecker';
import { STALE_VIEW_ID, type StaleView } from './staleView';

// The Docs to Update commands. Check Docs for My Changes runs from the palette, the Source Control
// view's title (its argument: that repository) and a changed file's menu (that file); the argument
// is only a hint that changeSource.ts checks against the Git extension's own repositories. Fix
// with Agent… on a page row (that page) or the view's title (every page) hands the core's draft to
// the agent feature's review: nothing is sent without Send. Open Page takes a page of the result
// on screen, never an address from its argument.

export interface StaleCommandDeps {
  checker: StaleChecker;
  view: StaleView;
  jobs: AgentJobsService;
  guarded: Guard;
  draft(check: StaleCheck, change: { title: string }): { draft: string; label: string };
}

export function registerStaleCommands(d: StaleCommandDeps): vscode.Disposable {
  const { guarded } = d;
  return vscode.Disposable.from(
    vscode.commands.registerCommand(
      'docsAssistant.checkDocsForChanges',
      guarded('Check Docs for My Changes', async (arg?: unknown) => {
        await d.checker.check(arg);
        await say(d);
      }),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.staleDocs.fixWithAgent',
      guarded('Fix Stale Docs with Agent', (arg?: unknown) => fixWithAgent(d, arg)),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.staleDocs.openPage', // OPEN_PAGE_COMMAND, spelled out for scripts/check-commands.mjs
      guarded('Open Stale Page', (arg?: unknown) => openPage(d, arg)),
    ),
  );
}

/** After a check: the view shows the result, or says plainly why there is none. */
async function say(d: StaleCommandDeps): Promise<void> {
  const state = d.checker.state;
  const words: Partial<Record<typeof state, string>> = {
    noGit: vscode.l10n.t('Docs Assistant: Git is not available here (a browser, or Git is turned off), so there is no change to check.'),
    noRepository: vscode.l10n.t('Docs Assistant: No Git repository is open in this workspace.'),
    noChange: vscode.l10n.t('Docs Assistant: There is no change to check.'),
    noItems: vscode.l10n.t('Docs Assistant: Your change renames or removes nothing the docs describe (flags, settings, exported names, routes, messages).'),
    noBase: vscode.l10n.t('Docs Assistant: This branch has no upstream and shares no history with a default branch, so there is nothing to compare it with.'),
  };
  const said = words[state];
  if (said) void vscode.window.showInformationMessage(said);
  if (state === 'ready' || state === 'empty' || said) await vscode.commands.executeCommand(`${STALE_VIEW_ID}.focus`);
}

async function fixWithAgent(d: StaleCommandDeps, arg: unknown): Promise<void> {
  const result = d.checker.result;
  const all = d.view.tree.pageElements();
  if (!result || all.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Docs Assistant: No page to update. Run Check Docs for My Changes first.'));
    return;
  }
  // A page row: that page; the view's title or the palette: every page.
  const el = d.view.tree.owns(arg) ? arg : undefined;
  const page = el && (el.kind === 'page' ? el : el.kind === 'line' ? el.parent : el.parent.parent);
  const pages = page ? [page.page] : result.check.pages;
  const { draft, label } = d.draft({ ...result.check, pages }, { title: result.title });
  await d.jobs.launch({ draft, label });
}

async function openPage(d: StaleCommandDeps, arg: unknown): Promise<void> {
  // Only a page of the result on screen, by its path: the address is made here, never taken.
  const page = typeof arg === 'string' ? d.checker.result?.check.pages.find((p) => p.path === arg) : undefined;
  if (!page) return;
  const url = pageUrl(page.path, readConfig().docsSiteUrl);
  if (!url) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Docs Assistant: {0} is not in this workspace, and docsAssistant.docsSiteUrl is not set to open it on the site.', rowText(page.path, 200)),
    );
    return;
  }
  await vscode.env.openExternal(vscode.Uri.parse(url, true));
}
