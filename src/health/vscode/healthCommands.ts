import * as vscode from 'vscode';
import { FEEDBACK_STATUSES, type FeedbackStatus } from '../../api';
import { ASK_ABOUT_FEEDBACK_COMMAND, type AskAboutFeedbackArgs } from '../../common/commandArgs';
import type { AgentJobsService } from '../../common/jobs';
import type { Guard } from '../../host/vscode/guarded';
import { RANGE_DAYS, type PageSignals, type ReaderSignals } from '../core/readerSignals';
import { feedbackDraft, type DraftFocus } from '../core/feedbackDraft';
import type { PageJobs } from '../core/pageJobs';
import { oneLine } from '../core/signalsWords';
import type { HealthElement } from './healthTree';
import { HEALTH_VIEW_ID, statusName, type HealthView } from './healthView';
import { fileUri } from './pageFiles';

// The Docs Health commands. The ones on a row act only on a row this view made (HealthTreeProvider
// owns it): anyone can run a command with any argument, so an argument that is not one of ours is
// never read; from the palette they ask which page. Fix with Agent… hands the core's draft to the
// agent feature's review (AgentJobsService.launch: nothing is sent without Send); Ask Docs About
// This Feedback hands the reader's words to the chat's command (src/common/commandArgs.ts).

export interface HealthCommandDeps {
  signals: ReaderSignals;
  view: HealthView;
  jobs: AgentJobsService;
  pageJobs: PageJobs;
  guarded: Guard;
}

/** The longest page path showPage takes. */
const MAX_PAGE_CHARS = 2048;

export function registerHealthCommands(d: HealthCommandDeps): vscode.Disposable {
  const { guarded, signals, view } = d;
  return vscode.Disposable.from(
    vscode.commands.registerCommand(
      'docsAssistant.health.refresh',
      guarded('Refresh Docs Health', () => view.fetch(true)),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.health.dateRange',
      guarded('Docs Health Date Range', async () => {
        const items = RANGE_DAYS.map((days) => ({ label: vscode.l10n.t('Last {0} days', days), days, picked: days === signals.filter.days }));
        const pick = await vscode.window.showQuickPick(items, {
          title: vscode.l10n.t('Docs Health: Date Range'),
          placeHolder: vscode.l10n.t('Show reader signals from the last…'),
        });
        if (pick && pick.days !== signals.filter.days) {
          signals.setFilter({ ...signals.filter, days: pick.days });
          await view.fetch(true);
        }
      }),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.health.statusFilter',
      guarded('Docs Health Feedback Status', async () => {
        const items = FEEDBACK_STATUSES.map((status) => ({ label: statusName(status), status, picked: signals.filter.statuses.includes(status) }));
        const picks = await vscode.window.showQuickPick(items, {
          title: vscode.l10n.t('Docs Health: Feedback Status'),
          placeHolder: vscode.l10n.t('Show feedback that is…'),
          canPickMany: true,
        });
        // None picked would show nothing: taken as a change of mind.
        if (!picks || picks.length === 0) return;
        const statuses: FeedbackStatus[] = picks.map((p) => p.status);
        signals.setFilter({ ...signals.filter, statuses });
        await view.fetch(true);
      }),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.health.showPage', // SHOW_PAGE_COMMAND, spelled out for scripts/check-commands.mjs
      // From the CodeLens: the page path; it is only looked up in the snapshot on screen.
      guarded('Show Page in Docs Health', async (page?: unknown) => {
        await vscode.commands.executeCommand(`${HEALTH_VIEW_ID}.focus`);
        const el = typeof page === 'string' && page.length <= MAX_PAGE_CHARS ? view.tree.pageElement(page) : undefined;
        if (el) await view.view.reveal(el, { select: true, focus: true, expand: true });
      }),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.health.fixWithAgent',
      guarded('Fix with Agent', (arg?: unknown) => fixWithAgent(d, arg)),
    ),
    vscode.commands.registerCommand(
      'docsAssistant.health.askAboutFeedback',
      guarded('Ask Docs About This Feedback', (arg?: unknown) => askAboutFeedback(d, arg)),
    ),
  );
}

/** The row the command runs on, or the page the user picks when it was not run from one of ours. */
async function targetOf(d: HealthCommandDeps, arg: unknown): Promise<HealthElement | undefined> {
  if (d.view.tree.owns(arg)) return arg;
  const pages = d.signals.snapshot?.pages ?? [];
  if (pages.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Docs Assistant: No page has reader signals to act on. Open Docs Health to fetch them.'));
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    pages.map((p) => ({ label: oneLine(p.file?.path ?? p.page, 120), description: oneLine(p.page, 120), page: p.page })),
    { title: vscode.l10n.t('Docs Health'), placeHolder: vscode.l10n.t('Which page?') },
  );
  return pick && d.view.tree.pageElement(pick.page);
}

/** The page a row is about: the page itself, the page it sits under, or the page an unanswered question names. */
function pageFor(d: HealthCommandDeps, el: HealthElement): PageSignals | undefined {
  return d.view.tree.pageOf(el) ?? (el.kind === 'question' ? d.view.tree.pageAsking(el.record) : undefined);
}

async function fixWithAgent(d: HealthCommandDeps, arg: unknown): Promise<void> {
  const el = await targetOf(d, arg);
  const page = el && pageFor(d, el);
  if (!el || !page) {
    if (el) void vscode.window.showInformationMessage(vscode.l10n.t('Docs Assistant: No docs page is known for this question, so there is no page to fix.'));
    return;
  }
  const focus: DraftFocus =
    el.kind === 'entry' ? { kind: 'feedback', entry: el.entry } : el.kind === 'question' ? { kind: 'question', question: el.record } : { kind: 'page' };
  // The draft is the agent's, in English like its other prompts; the label is the writer's.
  const { draft, label } = feedbackDraft(page, focus, d.signals.filter.days, vscode.l10n.t);
  const started = await d.jobs.launch({ draft, label });
  if (!started) return;
  await d.pageJobs.record(page.page, started.jobId);
  d.view.tree.refresh();
}

async function askAboutFeedback(d: HealthCommandDeps, arg: unknown): Promise<void> {
  const el = d.view.tree.owns(arg) ? arg : undefined;
  if (!el || (el.kind !== 'entry' && el.kind !== 'question')) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Docs Assistant: Pick a comment or a question in Docs Health to ask about it.'));
    return;
  }
  const page = pageFor(d, el);
  const text = el.kind === 'entry' ? [el.entry.comment ?? '', el.entry.code ?? ''].filter((x) => x).join('\n\n') : el.record.query;
  const uri = page?.file && fileUri(page.file);
  const args: AskAboutFeedbackArgs = {
    page: page?.page ?? '/',
    ...(uri ? { path: vscode.workspace.asRelativePath(uri, false) } : {}),
    text: text.slice(0, 20_000),
  };
  await vscode.commands.executeCommand(ASK_ABOUT_FEEDBACK_COMMAND, args);
}
