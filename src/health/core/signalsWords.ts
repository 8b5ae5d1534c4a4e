import type * as l10n from '@vscode/l10n';
import type { AssistantConversationRecord, FeedbackEntry, SearchRecord } from '../../api';
import { visibleLine } from '../../common/markdown/plainText';
import type { PageSignals } from './readerSignals';

// The words Docs Health shows: the CodeLens title on a page, the tree's labels and descriptions,
// and the plain tooltips. Reader text is untrusted: it is shown only as plain text (a CodeLens
// title, a TreeItem label or a string tooltip render no Markdown), on one line, without the
// characters that hide or reorder text, and bounded, so a 100 KB comment is a line, not a page.

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

/** A label or a description: what fits in a tree row or a lens. */
export const LABEL_MAX_CHARS = 120;
/** A tooltip: the whole comment in most cases, never a wall. */
export const TOOLTIP_MAX_CHARS = 1000;

/** `text` on one line, visible characters only, at most `max` characters (an ellipsis marks a cut). */
export function oneLine(text: string, max = LABEL_MAX_CHARS): string {
  return visibleLine(text, max);
}

/** A date as YYYY-MM-DD, or '' when the service sent none (or not a date). */
export function dayOf(date: string | null | undefined): string {
  const t = date ? Date.parse(date) : NaN;
  return Number.isFinite(t) ? new Date(t).toISOString().slice(0, 10) : '';
}

export interface LensCounts {
  thumbsDown: number;
  thumbsUp: number;
  comments: number;
  /** Code-snippet feedback not placed on a code block of the file. */
  snippets: number;
  unanswered: number;
}

/** A page's counts for its lens; `placedSnippets` of its snippets sit on their code blocks instead. */
export function pageCounts(p: PageSignals, placedSnippets = 0): LensCounts {
  return {
    thumbsDown: p.thumbsDown,
    thumbsUp: p.thumbsUp,
    comments: p.comments.length,
    snippets: Math.max(0, p.snippets.length - placedSnippets),
    unanswered: p.unanswered.length,
  };
}

/** "👎 7 · 👍 12 · 3 comments" (parts that are zero left out), or '' when all are. */
export function countWords(c: LensCounts, t: Translate): string {
  const l10n = { t };
  const parts: string[] = [];
  if (c.thumbsDown) parts.push(l10n.t('👎 {0}', c.thumbsDown));
  if (c.thumbsUp) parts.push(l10n.t('👍 {0}', c.thumbsUp));
  if (c.comments) parts.push(c.comments === 1 ? l10n.t('1 comment') : l10n.t('{0} comments', c.comments));
  if (c.snippets) parts.push(c.snippets === 1 ? l10n.t('1 code snippet comment') : l10n.t('{0} code snippet comments', c.snippets));
  if (c.unanswered) parts.push(c.unanswered === 1 ? l10n.t('1 unanswered question') : l10n.t('{0} unanswered questions', c.unanswered));
  return parts.join(' · ');
}

/** The CodeLens title at the top of a page: "👎 7 · 👍 12 · 3 comments · 2 unanswered questions (last 30 days)", or '' (no lens). */
export function lensTitle(c: LensCounts, days: number, t: Translate): string {
  const l10n = { t };
  const counts = countWords(c, t);
  return counts ? l10n.t('{0} (last {1} days)', counts, days) : '';
}

/** The CodeLens title on a code block that readers commented on. */
export function snippetLensTitle(count: number, days: number, t: Translate): string {
  const l10n = { t };
  return count === 1
    ? l10n.t('💬 1 reader comment on this code (last {0} days)', days)
    : l10n.t('💬 {0} reader comments on this code (last {1} days)', count, days);
}

/** A page's row: its path as a label; its numbers, the newest date, and whether it has a file, as the description. */
export function pageLabel(p: PageSignals): string {
  return oneLine(p.page);
}

export function pageDescription(p: PageSignals, t: Translate): string {
  const l10n = { t };
  const parts = [countWords(pageCounts(p), t)];
  const newest = dayOf([...p.comments, ...p.snippets].map((e) => e.createdAt).find(Boolean));
  if (newest) parts.push(l10n.t('latest {0}', newest));
  if (!p.file) parts.push(l10n.t('no file in the workspace'));
  return parts.filter(Boolean).join(' · ');
}

/** A comment's row: the reader's words (or, for a snippet without words, its file or code). */
export function feedbackLabel(e: FeedbackEntry, t: Translate): string {
  const l10n = { t };
  const words = e.comment?.trim() ? e.comment : e.source === 'code_snippet' ? (e.filename ?? e.code ?? '') : '';
  return oneLine(words) || l10n.t('(no comment)');
}

function statusWords(status: FeedbackEntry['status'], t: Translate): string {
  const l10n = { t };
  const words: Record<FeedbackEntry['status'], string> = {
    pending: l10n.t('pending'),
    in_progress: l10n.t('in progress'),
    resolved: l10n.t('resolved'),
    dismissed: l10n.t('dismissed'),
  };
  return words[status];
}

export function feedbackDescription(e: FeedbackEntry, t: Translate): string {
  const l10n = { t };
  const parts: string[] = [];
  if (e.helpful === false) parts.push('👎');
  if (e.helpful === true) parts.push('👍');
  if (e.source === 'code_snippet') parts.push(l10n.t('code snippet'));
  const day = dayOf(e.createdAt);
  if (day) parts.push(day);
  parts.push(statusWords(e.status, t));
  return parts.join(' · ');
}

/** A comment's tooltip: the reader's words, longer than the row, and the page they are about. */
export function feedbackTooltip(e: FeedbackEntry, page: string, t: Translate): string {
  const l10n = { t };
  const words = e.comment?.trim() ? e.comment : (e.code ?? '');
  return l10n.t('{0} (on {1})', oneLine(words, TOOLTIP_MAX_CHARS), oneLine(page));
}

/** A question's row (unanswered or clarifying): the reader's question, its date and category. */
export function questionLabel(c: AssistantConversationRecord): string {
  return oneLine(c.query);
}

export function questionDescription(c: AssistantConversationRecord): string {
  return [dayOf(c.timestamp), c.queryCategory ? oneLine(c.queryCategory, 40) : ''].filter(Boolean).join(' · ');
}

/** A question's tooltip: the question, and for a clarifying turn what the assistant asked back. */
export function questionTooltip(c: AssistantConversationRecord, t: Translate): string {
  const l10n = { t };
  const q = oneLine(c.query, TOOLTIP_MAX_CHARS);
  return c.responseType === 'clarifying_question' && c.response.trim()
    ? l10n.t('{0} — the assistant asked: {1}', q, oneLine(c.response, TOOLTIP_MAX_CHARS))
    : q;
}

/** A search's row: the query, then "120 searches · 4% clicked through · last 2026-11-20". */
export function searchLabel(s: SearchRecord): string {
  return oneLine(s.searchQuery);
}

export function searchDescription(s: SearchRecord, t: Translate): string {
  const l10n = { t };
  const parts = [l10n.t('{0} searches', s.hits), l10n.t('{0}% clicked through', Math.round(s.ctr * 100))];
  const day = dayOf(s.lastSearchedAt);
  if (day) parts.push(l10n.t('last {0}', day));
  return parts.join(' · ');
}
