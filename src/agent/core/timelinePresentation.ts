import type * as l10n from '@vscode/l10n';
import type { AgentJobStatus } from '../../api';
import type { JobRecord } from './jobStore';
import { firstLine, instructionOf, pullRequestLabel, relativeAge, type RowCommand } from './jobPresentation';
import type { TimelineEntry } from './timeline';

// A job's children in the Agent Jobs tree: its timeline (timeline.ts), oldest first, as plain data
// so that every row can be asserted in Node tests; jobsTreeProvider.ts maps it onto tree items.
// Each row shows what happened as its label and when as its description; its name, read aloud,
// starts with the label. The pull request row is named for what it is ("Pull request #12:
// acme/docs"), not for its address: the link shows only in its tooltip.

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

export interface ChildView {
  /** The entry's kind; the pull request's row keeps the name it had before timelines, `prLink`. */
  kind: Exclude<TimelineEntry['kind'], 'pullRequest'> | 'prLink';
  label: string;
  /** When it happened, relative to now. */
  description: string;
  accessibilityLabel: string;
  /** The whole text and the time (the pull request's: the link it opens). */
  tooltip: string;
  /**
   * The kind (`prLink` for the pull request), then ` last` on the newest entry (Follow Up… is
   * offered there) and ` notFound` when the job is gone from the service: package.json's
   * when-clauses match these.
   */
  contextValue: string;
  iconId: string;
  /** Enter on the row; only the pull request's has one. */
  command?: RowCommand;
  /** Its place in the timeline. */
  index: number;
}

/** An ISO time in words for a tooltip: the extension passes the display language's. */
export type FormatTime = (iso: string) => string;

/** `2026-11-23 11:58 UTC`: the same for every reader, for tests and the log. */
export const utcTime: FormatTime = (iso) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

export function presentChildren(r: JobRecord, now: number, t: Translate, formatTime: FormatTime = utcTime): ChildView[] {
  return r.timeline.map((entry, index) => {
    const { text, tooltip, accessibilityLabel, ...row } = entryRow(entry, t);
    const description = relativeAge(entry.at, now, t);
    const flags = [row.kind, index === r.timeline.length - 1 ? 'last' : '', r.notFound ? 'notFound' : ''];
    return {
      ...row,
      description,
      accessibilityLabel: accessibilityLabel ?? spoken(row.label, row.kind, description, t),
      tooltip: tooltip ?? `${text ?? row.label}\n\n${formatTime(entry.at)}`,
      contextValue: flags.filter(Boolean).join(' '),
      index,
    };
  });
}

interface EntryRow {
  kind: ChildView['kind'];
  label: string;
  iconId: string;
  /** The whole text, for the tooltip, when the label is only its first line. */
  text?: string;
  tooltip?: string;
  accessibilityLabel?: string;
  command?: RowCommand;
}

function entryRow(entry: TimelineEntry, t: Translate): EntryRow {
  const l10n = { t };
  switch (entry.kind) {
    case 'prompt':
      // The instruction it carried (a prompt from the chat quotes the question, which is the job's label).
      return { kind: 'prompt', label: firstLine(instructionOf(entry.text), t), text: entry.text, iconId: 'comment' };
    case 'followUp':
      return { kind: 'followUp', label: firstLine(entry.text, t), text: entry.text, iconId: 'comment' };
    case 'status':
      return { kind: 'status', ...statusRow(entry.status, t) };
    case 'pullRequest': {
      const label = pullRequestLabel(entry.url, t);
      // The job, not the URL, goes to the command (actions.ts): it opens only a link the store holds.
      const command: RowCommand = { id: 'docsAssistant.agent.openPullRequest', title: l10n.t('Open Pull Request') };
      return { kind: 'prLink', label, accessibilityLabel: label, tooltip: l10n.t('Open {0}', entry.url), iconId: 'git-pull-request', command };
    }
    case 'preview': {
      const { label, iconId } = previewRow(entry.state, t);
      return { kind: 'preview', label, iconId, text: entry.url ? `${label}: ${entry.url}` : label };
    }
    case 'review':
      if (entry.action === 'checkout') return { kind: 'review', label: l10n.t('Checked out the agent branch'), iconId: 'git-branch' };
      return {
        kind: 'review',
        label: entry.files === undefined ? l10n.t('Reviewed the changes') : l10n.t('Reviewed the changes ({0} files)', entry.files),
        iconId: 'diff-multiple',
      };
  }
}

/** A status in words; the job's own row says more (jobPresentation.ts statusText), this says what changed. */
function statusRow(status: AgentJobStatus, t: Translate): { label: string; iconId: string } {
  const l10n = { t };
  const rows: Record<AgentJobStatus, { label: string; iconId: string }> = {
    active: { label: l10n.t('Working'), iconId: 'sync' },
    completed: { label: l10n.t('Completed'), iconId: 'pass' },
    failed: { label: l10n.t('Failed'), iconId: 'error' },
    archived: { label: l10n.t('Archived'), iconId: 'archive' },
  };
  return rows[status];
}

function previewRow(state: (TimelineEntry & { kind: 'preview' })['state'], t: Translate): { label: string; iconId: string } {
  const l10n = { t };
  const labels: Record<typeof state, string> = {
    requested: l10n.t('Preview requested'),
    queued: l10n.t('Preview queued'),
    in_progress: l10n.t('Preview building'),
    success: l10n.t('Preview ready'),
    failure: l10n.t('Preview failed'),
    notOffered: l10n.t('Previews are not on this plan'),
  };
  const iconId = state === 'failure' ? 'error' : state === 'notOffered' ? 'circle-slash' : 'globe';
  return { label: labels[state], iconId };
}

/** What a screen reader says: the row's label first (the name contains what is seen), then what it is and when. */
function spoken(label: string, kind: ChildView['kind'], when: string, t: Translate): string {
  const l10n = { t };
  switch (kind) {
    case 'prompt':
      return when ? l10n.t('{0}, prompt, sent {1}', label, when) : l10n.t('{0}, prompt', label);
    case 'followUp':
      return when ? l10n.t('{0}, follow-up, sent {1}', label, when) : l10n.t('{0}, follow-up', label);
    case 'status':
      return when ? l10n.t('{0}, status, {1}', label, when) : l10n.t('{0}, status', label);
    default:
      return when ? l10n.t('{0}, {1}', label, when) : label;
  }
}
