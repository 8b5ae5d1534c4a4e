import { mdText } from '../../common/markdown/escape';
import type * as l10n from '@vscode/l10n';
import type { JobRecord } from './jobStore';
import { pullRequestOfLink } from './pullRequestLink';

// What each job looks like in the Agent Jobs tree, as plain data, so that every state can be
// asserted in Node tests. jobsTreeProvider.ts maps this onto vscode.TreeItem.
// The words come in the display language from the translator passed in (vscode.l10n.t in the
// extension, `english` from src/common/l10n.ts in tests); see there for why `l10n.t` is called
// on a local object.

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

/** What Enter (or a click) on a row runs, with the row's job id as its one argument. */
export interface RowCommand {
  id: 'docsAssistant.agent.showJob' | 'docsAssistant.agent.openPullRequest';
  title: string;
}

export interface JobItemView {
  label: string;
  /** What a screen reader says for the row: its label first (the name contains what is seen), then its status. */
  accessibilityLabel: string;
  command: RowCommand;
  description: string;
  iconId: string;
  /** A ThemeColor id, or undefined for the default foreground. */
  iconColor?: string;
  /** `job` plus flags; package.json's when-clauses match these with regexes. */
  contextValue: string;
  tooltipMarkdown: string;
  statusText: string;
  /**
   * Whether the row opens by itself: its timeline has news (a pull request, a follow-up) of the
   * last day. VS Code asks for the children of every open row when the view fills, so old news
   * stays closed: 1,000 finished jobs would otherwise be 1,000 timelines built (bench/jobs.ts).
   */
  expanded: boolean;
}

/** How long news keeps a job's row open by itself. */
const NEWS_MS = 24 * 60 * 60 * 1000;

const LABEL_MAX = 80;

/** `https://github.com/owner/repo(.git)` → `owner/repo`; anything else as it came. */
export function shortRepository(repository: string): string {
  const m = /^https?:\/\/(?:www\.)?github\.com\/([^/]+\/[^/#?]+?)(?:\.git)?\/?$/i.exec(repository.trim());
  return m ? m[1]! : repository;
}

export function relativeAge(fromIso: string, now: number, t: Translate): string {
  const l10n = { t };
  const at = Date.parse(fromIso);
  if (!Number.isFinite(at)) return '';
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 45) return l10n.t('just now');
  const m = Math.round(s / 60);
  if (m < 60) return l10n.t('{0}m ago', m);
  const h = Math.round(m / 60);
  if (h < 24) return l10n.t('{0}h ago', h);
  return l10n.t('{0}d ago', Math.round(h / 24));
}

export function firstLine(text: string, t: Translate, max = LABEL_MAX): string {
  const l10n = { t };
  const line =
    text
      .split(/\r?\n/)
      .find((l) => l.trim() !== '')
      ?.trim() ?? l10n.t('(no instruction)');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** What a job is called everywhere it shows (tree, notifications, pickers, the chat's card). */
export function labelOf(r: Pick<JobRecord, 'label' | 'prompt'>, t: Translate, max = LABEL_MAX): string {
  return firstLine(r.label ?? instructionOf(r.prompt), t, max);
}

/** The instruction itself, without the selection we added around it (see prompt.ts). */
export function instructionOf(prompt: string): string {
  const m = /^Instruction:\s*(.+)$/m.exec(prompt);
  return m ? m[1]! : prompt;
}

export function statusText(r: JobRecord, t: Translate): string {
  const l10n = { t };
  if (r.notFound) return l10n.t('Not found on the service');
  switch (r.job.status) {
    case 'active':
      return l10n.t('Working');
    case 'completed':
      return r.job.prLink ? l10n.t('Pull request ready') : l10n.t('Finished without changes');
    case 'failed':
      return l10n.t('Failed');
    case 'archived':
      return l10n.t('Archived');
  }
}

function icon(r: JobRecord): { iconId: string; iconColor?: string } {
  if (r.notFound) return { iconId: 'question', iconColor: 'disabledForeground' };
  if (r.pollError) return { iconId: 'warning', iconColor: 'problemsWarningIcon.foreground' };
  switch (r.job.status) {
    case 'active':
      return { iconId: 'loading~spin' };
    case 'completed':
      return r.job.prLink ? { iconId: 'git-pull-request', iconColor: 'charts.green' } : { iconId: 'pass', iconColor: 'charts.blue' };
    case 'failed':
      return { iconId: 'error', iconColor: 'problemsErrorIcon.foreground' };
    case 'archived':
      return { iconId: 'archive', iconColor: 'disabledForeground' };
  }
}

export function contextValueOf(r: JobRecord): string {
  const flags = ['job', r.job.status];
  if (r.job.prLink) flags.push('pr');
  if (r.notFound) flags.push('notFound');
  return flags.join(' ');
}

/** "Pull request #12: acme/docs" from the link's path (pullRequestLink.ts), else just "Pull request". */
export function pullRequestLabel(url: string, t: Translate): string {
  const l10n = { t };
  const pr = pullRequestOfLink(url);
  return pr ? l10n.t('Pull request #{0}: {1}', pr.number, `${pr.owner}/${pr.repo}`) : l10n.t('Pull request');
}

export function presentJob(r: JobRecord, now: number, t: Translate): JobItemView {
  const l10n = { t };
  const { job } = r;
  const repo = shortRepository(job.source.repository);
  const where = job.source.ref ? `${repo}@${job.source.ref}` : repo;
  const description = [where, job.model, relativeAge(job.createdAt, now, t)].filter(Boolean).join(' · ');
  const rows: [string, string][] = [
    [l10n.t('Status'), statusText(r, t)],
    [l10n.t('Job ID'), job.id],
    [l10n.t('Repository'), job.source.repository],
    [l10n.t('Ref'), job.source.ref ?? '—'],
    [l10n.t('Model'), job.model],
    [l10n.t('Pull request'), job.prLink ?? '—'],
    [l10n.t('Created'), job.createdAt],
    [l10n.t('Archived'), job.archivedAt ?? '—'],
    [l10n.t('Follow-ups'), String(r.followUps.length)],
  ];
  const lines = [`**${mdText(labelOf(r, t, 200))}**`, '', ...rows.map(([k, v]) => `${k}: ${mdText(v)}  `)];
  if (r.pollError) lines.push('', `$(warning) ${mdText(r.pollError)}`);
  const label = labelOf(r, t);
  const status = r.pollError ? l10n.t('{0} (the last check for updates failed)', statusText(r, t)) : statusText(r, t);
  return {
    label,
    accessibilityLabel: l10n.t('{0}, {1}, {2}', label, status, description),
    // Enter on a job shows it: the tree reveals and expands it, so its pull request is one arrow away.
    command: { id: 'docsAssistant.agent.showJob', title: l10n.t('Show Job') },
    description,
    ...icon(r),
    contextValue: contextValueOf(r),
    tooltipMarkdown: lines.join('\n'),
    statusText: statusText(r, t),
    expanded: (!!job.prLink || r.followUps.length > 0) && now - Date.parse(r.updatedAt) < NEWS_MS,
  };
}
