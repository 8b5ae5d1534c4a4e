import type * as l10n from '@vscode/l10n';
import { safePreviewUrl } from '../../api';
import { mdText } from '../../common/markdown/escape';
import { visibleText } from '../../common/markdown/plainText';
import type { JobPreview, PreviewPhase } from './previewRunner';
import type { JobRecord } from './jobStore';
import type { TimelineEntry } from './timeline';

// How a job's preview shows, as plain data (Node-tested): a few words on the job's row, a line
// of its tooltip, and the build's logs as lines fit for an output channel. Everything here came
// from the service: the URL is shown only when it is still an http(s) address, and log lines
// lose the characters that could hide or reorder text.

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

/** The longest branch name sent for a preview (Git itself allows about this much). */
export const MAX_BRANCH_CHARS = 255;

/** The job's branch as it may go into a preview request, or undefined (none, too long, or with control characters). */
export function previewBranch(ref: string | null | undefined): string | undefined {
  if (!ref || ref.length > MAX_BRANCH_CHARS || ref.trim() !== ref) return undefined;
  // eslint-disable-next-line no-control-regex -- exactly what is refused
  return /[\u0000-\u001f\u007f]/.test(ref) ? undefined : ref;
}

/** The preview's address, when it has one that may be opened. */
export function previewUrlOf(p: JobPreview | undefined): string | undefined {
  return p?.previewUrl === undefined ? undefined : safePreviewUrl(p.previewUrl);
}

/** Where the preview is, in a few words: "Preview building", "Preview: https://…". */
export function previewWords(p: JobPreview, t: Translate): string {
  const l10n = { t };
  const url = p.phase === 'success' ? previewUrlOf(p) : undefined;
  if (url !== undefined) return l10n.t('Preview: {0}', url);
  const words: Record<PreviewPhase, string> = {
    requested: l10n.t('Preview requested'),
    queued: l10n.t('Preview queued'),
    in_progress: l10n.t('Preview building'),
    success: l10n.t('Preview ready'),
    failure: l10n.t('Preview failed'),
    error: l10n.t('Preview not available'),
  };
  return words[p.phase];
}

/** The tooltip's line for the preview: its words, escaped (a URL stays text, never a link). */
export function previewTooltipMarkdown(p: JobPreview, t: Translate): string {
  const summary = p.phase === 'failure' && p.summary ? ` (${p.summary})` : '';
  return mdText(`${previewWords(p, t)}${summary}`);
}

/** The build's logs, one visible line each: no control or bidi characters, no line breaks inside. */
export function previewLogLines(p: JobPreview): string[] {
  return (p.logs ?? []).map((line) => visibleText(line).replace(/[\r\n\u2028\u2029]+/g, ' '));
}

/**
 * What the job's timeline keeps of its preview: the request, then how it ended (with the URL on
 * success, "not offered" on a 403/404). Queued and building are left out: they would fill the
 * bounded timeline with polls. Undefined for a phase that is not kept.
 */
export function previewTimelineEntry(p: JobPreview, at: string): TimelineEntry | undefined {
  switch (p.phase) {
    case 'requested':
    case 'failure':
      return { at, kind: 'preview', state: p.phase };
    case 'success': {
      const url = previewUrlOf(p);
      return url === undefined ? { at, kind: 'preview', state: 'success' } : { at, kind: 'preview', state: 'success', url };
    }
    case 'error':
      return p.error?.reason.code === 'notOffered' ? { at, kind: 'preview', state: 'notOffered' } : undefined;
    default:
      return undefined;
  }
}

/**
 * The job's ready preview as its timeline kept it, for a window that has just loaded: the last
 * preview entry when it was a success with an address, and no follow-up came after it (the
 * branch has moved on since). Undefined otherwise: the row then offers Open Preview again.
 */
export function previewFromTimeline(record: JobRecord): JobPreview | undefined {
  const branch = previewBranch(record.job.source?.ref);
  if (branch === undefined) return undefined;
  for (let i = record.timeline.length - 1; i >= 0; i--) {
    const e = record.timeline[i]!;
    if (e.kind === 'followUp') return undefined;
    if (e.kind !== 'preview') continue;
    const url = e.state === 'success' && e.url !== undefined ? safePreviewUrl(e.url) : undefined;
    return url === undefined ? undefined : { jobId: record.job.id, branch, followUps: record.followUps.length, phase: 'success', previewUrl: url };
  }
  return undefined;
}
