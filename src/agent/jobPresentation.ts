import type { JobRecord } from './jobStore';

// What each job looks like in the Agent Jobs tree, as plain data, so that every state can be
// asserted in Node tests. jobsTreeProvider.ts maps this onto vscode.TreeItem.

export interface JobItemView {
  label: string;
  description: string;
  iconId: string;
  /** A ThemeColor id, or undefined for the default foreground. */
  iconColor?: string;
  /** `job` plus flags; package.json's when-clauses match these with regexes. */
  contextValue: string;
  tooltipMarkdown: string;
  statusText: string;
}

export type ChildView =
  | { kind: 'prLink'; label: string; url: string; contextValue: 'prLink'; iconId: 'git-pull-request' }
  | { kind: 'followUp'; label: string; description: string; contextValue: 'followUp'; iconId: 'comment'; index: number };

const LABEL_MAX = 80;

/** `https://github.com/owner/repo(.git)` → `owner/repo`; anything else as it came. */
export function shortRepository(repository: string): string {
  const m = /^https?:\/\/(?:www\.)?github\.com\/([^/]+\/[^/#?]+?)(?:\.git)?\/?$/i.exec(repository.trim());
  return m ? m[1]! : repository;
}

export function relativeAge(fromIso: string, now: number): string {
  const t = Date.parse(fromIso);
  if (!Number.isFinite(t)) return '';
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m}m ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h}h ago`;
  return `${Math.round(h / 24)}d ago`;
}

export function firstLine(text: string, max = LABEL_MAX): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== '')?.trim() ?? '(no instruction)';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** What a job is called everywhere it shows (tree, notifications, pickers, the chat's card). */
export function labelOf(r: Pick<JobRecord, 'label' | 'prompt'>, max = LABEL_MAX): string {
  return firstLine(r.label ?? instructionOf(r.prompt), max);
}

/** The instruction itself, without the selection we added around it (see prompt.ts). */
export function instructionOf(prompt: string): string {
  const m = /^Instruction:\s*(.+)$/m.exec(prompt);
  return m ? m[1]! : prompt;
}

export function statusText(r: JobRecord): string {
  if (r.notFound) return 'Not found on the service';
  switch (r.job.status) {
    case 'active':
      return 'Working';
    case 'completed':
      return r.job.prLink ? 'Pull request ready' : 'Finished without changes';
    case 'failed':
      return 'Failed';
    case 'archived':
      return 'Archived';
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

/** Markdown-escapes text from the service or the user, so the tooltip shows it as written. */
function md(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

export function presentJob(r: JobRecord, now: number): JobItemView {
  const { job } = r;
  const repo = shortRepository(job.source.repository);
  const where = job.source.ref ? `${repo}@${job.source.ref}` : repo;
  const description = [where, job.model, relativeAge(job.createdAt, now)].filter(Boolean).join(' · ');
  const rows: [string, string][] = [
    ['Status', statusText(r)],
    ['Job ID', job.id],
    ['Repository', job.source.repository],
    ['Ref', job.source.ref ?? '—'],
    ['Model', job.model],
    ['Pull request', job.prLink ?? '—'],
    ['Created', job.createdAt],
    ['Archived', job.archivedAt ?? '—'],
    ['Follow-ups', String(r.followUps.length)],
  ];
  const lines = [`**${md(labelOf(r, 200))}**`, '', ...rows.map(([k, v]) => `${k}: ${md(v)}  `)];
  if (r.pollError) lines.push('', `$(warning) ${md(r.pollError)}`);
  return {
    label: labelOf(r),
    description,
    ...icon(r),
    contextValue: contextValueOf(r),
    tooltipMarkdown: lines.join('\n'),
    statusText: statusText(r),
  };
}

export function presentChildren(r: JobRecord, now: number): ChildView[] {
  const children: ChildView[] = [];
  if (r.job.prLink) children.push({ kind: 'prLink', label: r.job.prLink, url: r.job.prLink, contextValue: 'prLink', iconId: 'git-pull-request' });
  r.followUps.forEach((f, index) =>
    children.push({ kind: 'followUp', label: firstLine(f.prompt), description: relativeAge(f.sentAt, now), contextValue: 'followUp', iconId: 'comment', index }),
  );
  return children;
}
