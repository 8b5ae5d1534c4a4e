import * as vscode from 'vscode';
import type { AssistantConversationRecord, FeedbackEntry, SearchRecord } from '../../api';
import type { JobState } from '../../common/jobs';
import type { HealthSnapshot, PageSignals } from '../core/readerSignals';
import {
  feedbackDescription,
  feedbackLabel,
  feedbackTooltip,
  oneLine,
  pageDescription,
  pageLabel,
  questionDescription,
  questionLabel,
  questionTooltip,
  searchDescription,
  searchLabel,
  TOOLTIP_MAX_CHARS,
} from '../core/signalsWords';
import { fileUri } from './pageFiles';

// The Docs Health tree's rows. Everything in a row but our own words was written by a reader or
// the service: it is shown as plain text (a label, a description, a string tooltip: VS Code
// renders none of them as Markdown), worded by the core (src/health/core/signalsWords.ts): one
// line, cut short, without the characters that hide or reorder text. No row links anywhere but
// to a workspace file or an agent job this window knows.

/** What the tree shows of the jobs started from a page (src/health/core/pageJobs.ts and AgentJobsService). */
export interface PageJobsView {
  jobsFor(page: string): readonly string[];
  state(jobId: string): JobState | undefined;
}

/** The tree's groups. */
export type GroupId = 'pages' | 'unanswered' | 'clarifying' | 'searches';

const join = (...parts: (string | undefined)[]): string => parts.filter((p) => !!p).join(' · ');

export function groupItem(group: GroupId, s: HealthSnapshot | undefined): vscode.TreeItem {
  const [label, count, icon] =
    group === 'pages'
      ? [vscode.l10n.t('Pages'), s?.pages.length, 'file-text']
      : group === 'unanswered'
        ? [vscode.l10n.t('Unanswered questions'), s?.unanswered.length, 'question']
        : group === 'clarifying'
          ? [vscode.l10n.t('Clarifying questions'), s?.clarifying.length, 'comment-discussion']
          : [vscode.l10n.t('Searches with low click-through'), s?.searches.length, 'search'];
  const item = new vscode.TreeItem(label, group === 'pages' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `health:${group}`;
  item.description = String(count ?? 0);
  item.iconPath = new vscode.ThemeIcon(icon);
  item.contextValue = `healthGroup ${group}`;
  return item;
}

export function pageItem(p: PageSignals, jobs: PageJobsView): vscode.TreeItem {
  const started = jobs.jobsFor(p.page);
  const hasChildren = p.comments.length + p.snippets.length + p.unanswered.length + started.length > 0;
  const item = new vscode.TreeItem(pageLabel(p), hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  // Once a job started from this page has finished, the page says so (its row below names it).
  const answered = started.some((id) => jobs.state(id)?.status === 'completed');
  item.description = join(pageDescription(p, vscode.l10n.t), answered ? vscode.l10n.t('answered by an agent job') : undefined);
  item.tooltip = [
    vscode.l10n.t('Page: {0}', oneLine(p.page, TOOLTIP_MAX_CHARS)),
    p.file
      ? vscode.l10n.t('File: {0}', oneLine(p.file.path, TOOLTIP_MAX_CHARS))
      : vscode.l10n.t("No file in this workspace matches this page in the site's docs.json."),
  ].join('\n');
  item.iconPath = new vscode.ThemeIcon(p.file ? 'file' : 'warning');
  item.contextValue = 'healthPage';
  const uri = p.file && fileUri(p.file);
  if (uri) item.command = { command: 'vscode.open', title: vscode.l10n.t('Open Page'), arguments: [uri] };
  item.accessibilityInformation = { label: join(pageLabel(p), item.description) };
  return item;
}

export function entryItem(e: FeedbackEntry, snippet: boolean, page: string): vscode.TreeItem {
  const item = new vscode.TreeItem(feedbackLabel(e, vscode.l10n.t), vscode.TreeItemCollapsibleState.None);
  item.description = feedbackDescription(e, vscode.l10n.t);
  item.tooltip = feedbackTooltip(e, page, vscode.l10n.t);
  item.iconPath = new vscode.ThemeIcon(snippet ? 'code' : 'comment');
  item.contextValue = snippet ? 'healthSnippet' : 'healthComment';
  item.accessibilityInformation = { label: join(item.label as string, item.description) };
  return item;
}

/** A question's row; `onPage`: whether a page is known for it (Fix with Agent… needs one). */
export function questionItem(r: AssistantConversationRecord, clarifying: boolean, onPage: boolean): vscode.TreeItem {
  const item = new vscode.TreeItem(questionLabel(r) || vscode.l10n.t('(no question)'), vscode.TreeItemCollapsibleState.None);
  item.description = questionDescription(r);
  item.tooltip = questionTooltip(r, vscode.l10n.t);
  item.iconPath = new vscode.ThemeIcon(clarifying ? 'comment-discussion' : 'question');
  item.contextValue = clarifying ? 'healthClarifying' : onPage ? 'healthQuestion' : 'healthQuestionNoPage';
  item.accessibilityInformation = { label: join(item.label as string, item.description) };
  return item;
}

export function searchItem(r: SearchRecord): vscode.TreeItem {
  const item = new vscode.TreeItem(searchLabel(r) || vscode.l10n.t('(empty search)'), vscode.TreeItemCollapsibleState.None);
  item.description = searchDescription(r, vscode.l10n.t);
  item.tooltip = r.topClickedPage ? vscode.l10n.t('Most clicked: {0}', oneLine(r.topClickedPage, TOOLTIP_MAX_CHARS)) : vscode.l10n.t('No result was clicked.');
  item.iconPath = new vscode.ThemeIcon('search');
  item.contextValue = 'healthSearch';
  item.accessibilityInformation = { label: join(item.label as string, item.description) };
  return item;
}

export function jobItem(jobId: string, jobs: PageJobsView): vscode.TreeItem {
  const state = jobs.state(jobId);
  const item = new vscode.TreeItem(vscode.l10n.t('Agent job: {0}', oneLine(state?.label ?? jobId)), vscode.TreeItemCollapsibleState.None);
  const status = state?.status;
  item.description =
    status === 'completed'
      ? vscode.l10n.t('finished')
      : status === 'active'
        ? vscode.l10n.t('running')
        : status === 'failed'
          ? vscode.l10n.t('failed')
          : status
            ? vscode.l10n.t('archived')
            : vscode.l10n.t('not in this window');
  item.iconPath = new vscode.ThemeIcon(status === 'completed' ? 'pass' : status === 'active' ? 'sync' : 'circle-outline');
  item.contextValue = 'healthJob';
  // The job's own row in Agent Jobs; the agent's command takes its id and opens only what its store holds.
  if (state) item.command = { command: 'docsAssistant.agent.showJob', title: vscode.l10n.t('Show Job'), arguments: [jobId] };
  return item;
}
