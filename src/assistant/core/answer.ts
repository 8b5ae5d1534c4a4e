import type * as l10n from '@vscode/l10n';
import { sourcesOf as checkedSources, toolQuery, toolResults, type AssembledMessage } from '../../api';
import type { AnswerPartView, SourceView } from '../../common/protocol';

// The answer as every surface shows it, read from the client's assembled message: its parts
// (text, reasoning, the searches), its sources (only safe links), and the notices that say what
// went wrong on the way. Notices are worded in the display language, by the translator given.

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

/** What the answer shows. One per question: ask() updates it in place as the answer streams. */
export interface Answer {
  parts: AnswerPartView[];
  sources: SourceView[];
  notices: string[];
}

export function partsOf(message: AssembledMessage): AnswerPartView[] {
  return message.parts.map((p): AnswerPartView => {
    if (p.type === 'text') return { kind: 'text', text: p.text };
    if (p.type === 'reasoning') return { kind: 'reasoning', text: p.text, done: p.done };
    const state = p.state === 'output-available' ? 'done' : p.state === 'output-error' || p.state === 'input-error' ? 'error' : 'running';
    const view: AnswerPartView = { kind: 'tool', toolName: p.toolName, state };
    const query = toolQuery(p);
    if (query !== undefined) view.query = query;
    if (state === 'done') view.resultCount = toolResults(p).length;
    if (p.errorText) view.errorText = p.errorText;
    return view;
  });
}

/**
 * Sources from `source-url` chunks and from the search tool's results, once each, with only safe
 * links (src/api/sources.ts): checked here, before any surface shows them.
 */
export function sourcesOf(message: AssembledMessage): SourceView[] {
  return checkedSources(message);
}

export function noticesOf(message: AssembledMessage, t: Translate): string[] {
  const l10n = { t };
  const notices: string[] = [];
  const skipped = message.skippedChunks;
  if (skipped === 1) notices.push(l10n.t('1 part of the answer could not be read and was skipped.'));
  else if (skipped > 1) notices.push(l10n.t('{0} parts of the answer could not be read and were skipped.', skipped));
  for (const e of message.errors) notices.push(l10n.t('The service reported a problem: {0}', e));
  if (message.aborted)
    notices.push(message.abortReason ? l10n.t('The service stopped this answer ({0}).', message.abortReason) : l10n.t('The service stopped this answer.'));
  if (message.cutOff?.reason === 'size') {
    notices.push(
      l10n.t(
        'The answer was cut off after {0}, far longer than an answer should be. What arrived is kept; ask a narrower question for a shorter answer.',
        message.cutOff.limit,
      ),
    );
  }
  if (message.cutOff?.reason === 'time')
    notices.push(l10n.t('The answer was cut off after {0} of streaming. What arrived is kept; Retry to ask again.', message.cutOff.limit));
  return notices;
}

/** What changed in an answer, in the order a surface applies it. */
export type AnswerChange =
  /** Part `part` (text or reasoning) grew by `delta`. */
  | { type: 'text'; part: number; kind: 'text' | 'reasoning'; delta: string }
  /** Part `part` began, or changed other than by growing (a search's state, reasoning done). */
  | { type: 'part'; part: number; value: AnswerPartView }
  | { type: 'sources'; sources: SourceView[] }
  | { type: 'notices'; notices: string[] };

function samePart(a: AnswerPartView, b: AnswerPartView): boolean {
  if (a.kind !== b.kind) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The changes that turn `before` into `after`. Text that only grew is a `text` change of the new
 * suffix, so a long answer costs the same per delta at any length.
 */
export function answerChanges(before: Answer, after: Answer): AnswerChange[] {
  const changes: AnswerChange[] = [];
  after.parts.forEach((part, i) => {
    const old = before.parts[i];
    if (old === part) return;
    // The same string object (nothing was appended): compared in O(1), not character by character,
    // so that a chunk which does not touch the text costs nothing however long the text is.
    if (old && old.kind === 'text' && part.kind === 'text' && old.text === part.text) return;
    if (
      old &&
      (old.kind === 'text' || old.kind === 'reasoning') &&
      old.kind === part.kind &&
      part.text.length >= old.text.length &&
      part.text.startsWith(old.text)
    ) {
      if (part.text.length > old.text.length) changes.push({ type: 'text', part: i, kind: part.kind, delta: part.text.slice(old.text.length) });
      if (part.kind === 'reasoning' && old.kind === 'reasoning' && part.done !== old.done) changes.push({ type: 'part', part: i, value: part });
      return;
    }
    if (!old || !samePart(old, part)) changes.push({ type: 'part', part: i, value: part });
  });
  if (JSON.stringify(before.sources) !== JSON.stringify(after.sources)) changes.push({ type: 'sources', sources: after.sources });
  if (JSON.stringify(before.notices) !== JSON.stringify(after.notices)) changes.push({ type: 'notices', notices: after.notices });
  return changes;
}
