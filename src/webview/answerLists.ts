import * as l10n from '@vscode/l10n';
import type { JobCardView, SourceView } from '../common/protocol';
import { h, icon, iconButton } from './dom';

// The lists under an answer (its sources, notices and job cards), each built whole from the list
// a patch brings, and only when it differs from the one shown: a host that sends an unchanged list
// with every chunk costs the page no DOM work.

/** One list under an answer, and the element that shows it. */
export class ListView<T> {
  constructor(
    readonly el: HTMLElement,
    private shown: readonly T[],
    private readonly build: (el: HTMLElement, items: readonly T[]) => void,
  ) {
    build(el, shown);
  }

  get items(): readonly T[] {
    return this.shown;
  }

  set(items: readonly T[]): void {
    if (sameValue(items, this.shown)) return;
    this.shown = items;
    this.build(this.el, items);
  }
}

/** What a job card says of its job. */
const JOB_STATUS: Record<JobCardView['status'] | 'noChanges', () => string> = {
  active: () => l10n.t('active'),
  completed: () => l10n.t('completed'),
  noChanges: () => l10n.t('no changes'),
  failed: () => l10n.t('failed'),
  archived: () => l10n.t('archived'),
  unknown: () => l10n.t('unknown'),
};

/** The word a job card shows for its job's state (main.ts announces it when it changes). */
export const jobStatusText = (j: JobCardView): string => JOB_STATUS[j.status === 'completed' && !j.prLink ? 'noChanges' : j.status]();

/** Whether two of the small values a patch carries (a list, an error, a tool part) say the same. */
export function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

const JOB_ICONS: Record<JobCardView['status'], string> = {
  active: 'loading codicon-modifier-spin',
  completed: 'git-pull-request',
  failed: 'error',
  archived: 'archive',
  unknown: 'question',
};

export function renderSources(el: HTMLElement, sources: readonly SourceView[]): void {
  el.replaceChildren();
  if (!sources.length) return;
  const list = h('ol', { class: 'source-list' });
  // The host keeps only http(s) source URLs; this page holds to that too (defence in depth).
  for (const s of sources)
    list.append(
      h('li', {}, s.url && /^https?:\/\//i.test(s.url) ? h('a', { href: s.url, title: s.url }, icon('link-external'), ' ', s.title) : h('span', {}, s.title)),
    );
  el.append(h('div', { class: 'sources-title' }, l10n.t('Sources')), list);
}

export function renderNotices(el: HTMLElement, notices: readonly string[]): void {
  el.replaceChildren(...notices.map((n) => h('div', { class: 'notice' }, icon('info'), h('span', {}, n))));
}

export function renderJobs(el: HTMLElement, jobs: readonly JobCardView[]): void {
  el.replaceChildren(
    ...jobs.map((j) =>
      h(
        'div',
        { class: `job-card job-${j.status}`, 'data-job': j.jobId },
        icon(JOB_ICONS[j.status]),
        h('span', { class: 'job-label' }, j.label),
        h('span', { class: 'job-status' }, jobStatusText(j)),
        j.prLink
          ? iconButton('git-pull-request', l10n.t('Open pull request'), 'jobAction', { job: j.jobId, job_action: 'openPullRequest' }, l10n.t('Open PR'))
          : null,
        // A finished job's branch is what the agent changed: reviewed in the editor (issue 30).
        j.status === 'completed'
          ? iconButton(
              'diff-multiple',
              l10n.t('Review the agent’s changes in the editor'),
              'jobAction',
              { job: j.jobId, job_action: 'reviewChanges' },
              l10n.t('Review Changes'),
            )
          : null,
        // The address is text to read; the button asks the host, which opens the one it keeps.
        j.previewUrl ? h('span', { class: 'job-preview' }, l10n.t('Preview: {0}', j.previewUrl)) : null,
        j.previewUrl
          ? iconButton(
              'globe',
              l10n.t('Open the preview of the agent’s changes'),
              'jobAction',
              { job: j.jobId, job_action: 'openPreview' },
              l10n.t('Open Preview'),
            )
          : null,
        j.status !== 'unknown' ? iconButton('comment-discussion', l10n.t('Send follow-up'), 'jobAction', { job: j.jobId, job_action: 'followUp' }) : null,
        iconButton('list-tree', l10n.t('Show in Agent Jobs'), 'jobAction', { job: j.jobId, job_action: 'showJob' }),
      ),
    ),
  );
}
