import type * as l10n from '@vscode/l10n';
import { MAX_SOURCES } from '../../api/limits';
import { sourcesOf as sourcesFrom, toolQuery, toolResults } from '../../api/sources';
import type { AssembledMessage, UIMessageChunk } from '../../api/types';
import type { AnswerPartView, AnswerPatch, AnswerView, SourceView } from '../../common/protocol';
export { applyPatches } from '../../common/answerPatches';

// Turns the client's assembled message into what the webview renders, and works out the
// smallest patch between two renderings: while an answer streams, only the new text travels.
// The notices are worded in the display language, by the translator the session was given.

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

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
 * links (src/api/sources.ts): checked here, before the webview ever sees them.
 */
export function sourcesOf(message: AssembledMessage): SourceView[] {
  return sourcesFrom(message);
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

/** The text of the answer, as earlier turns are sent back to the service. */
export function answerText(view: AnswerView): string {
  return view.parts
    .filter((p): p is Extract<AnswerPartView, { kind: 'text' }> => p.kind === 'text')
    .map((p) => p.text)
    .join('\n\n');
}

function samePart(a: AnswerPartView, b: AnswerPartView): boolean {
  if (a.kind !== b.kind) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Patches that turn `before` into `after` (same turn). Text that only grew becomes an
 * appendText of the new suffix, so a long answer costs the same per delta at any length.
 */
export function diffAnswer(before: AnswerView, after: AnswerView): AnswerPatch[] {
  const patches: AnswerPatch[] = [];
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
      if (part.text.length > old.text.length) patches.push({ op: 'appendText', part: i, text: part.text.slice(old.text.length) });
      if (part.kind === 'reasoning' && old.kind === 'reasoning' && part.done !== old.done) patches.push({ op: 'setPart', part: i, value: part });
      return;
    }
    if (!old || !samePart(old, part)) patches.push({ op: 'setPart', part: i, value: part });
  });
  if (JSON.stringify(before.sources) !== JSON.stringify(after.sources)) patches.push({ op: 'setSources', sources: after.sources });
  if (JSON.stringify(before.notices) !== JSON.stringify(after.notices)) patches.push({ op: 'setNotices', notices: after.notices });
  if (JSON.stringify(before.jobs) !== JSON.stringify(after.jobs)) patches.push({ op: 'setJobs', jobs: after.jobs });
  if (before.status !== after.status || JSON.stringify(before.error) !== JSON.stringify(after.error)) {
    patches.push(after.error ? { op: 'setStatus', status: after.status, error: after.error } : { op: 'setStatus', status: after.status });
  }
  return patches;
}

/**
 * Chunks that changed nothing the view shows: metadata, step marks, custom data and files, a tool
 * call's raw input as it streams (once the call has its part), and a source the reducer did not
 * take (past MAX_SOURCES).
 */
function leavesViewAlone(before: AnswerView, message: AssembledMessage, chunk: UIMessageChunk): boolean {
  switch (chunk.type) {
    case 'start':
    case 'start-step':
    case 'finish-step':
    case 'message-metadata':
    case 'file':
      return true;
    case 'tool-input-delta':
      return message.parts.length === before.parts.length;
    case 'source-url':
    case 'source-document':
      // Not taken: the sources are full, and the last one is another.
      return message.sources.length >= MAX_SOURCES && message.sources[message.sources.length - 1]!.sourceId !== chunk.sourceId;
    default:
      return chunk.type.startsWith('data-');
  }
}

/**
 * The view after a chunk, built without re-reading the whole message where that is not needed: a
 * text or reasoning delta gives the one part it grew the new text, and the patch is the delta
 * itself; a chunk that touches no part or source changes at most the notices. Undefined when the
 * chunk did anything else (a new part, say), for the full diffAnswer to work out. This is most
 * chunks of an answer, and keeps the host's work per chunk the same at any answer length.
 */
export function viewAfterDelta(
  before: AnswerView,
  message: AssembledMessage,
  chunk: UIMessageChunk,
  t: Translate,
): { view: AnswerView; patches: AnswerPatch[] } | undefined {
  if (leavesViewAlone(before, message, chunk)) return withNotices(before, message, [], t);
  if ((chunk.type !== 'text-delta' && chunk.type !== 'reasoning-delta') || message.parts.length !== before.parts.length) return undefined;
  const type = chunk.type === 'text-delta' ? 'text' : 'reasoning';
  let i = message.parts.length - 1;
  while (i >= 0 && !(message.parts[i]!.type === type && (message.parts[i] as { id: string }).id === chunk.id && !(message.parts[i] as { done: boolean }).done))
    i--;
  const part = message.parts[i];
  const old = before.parts[i];
  // The reducer only ever appends the delta, so the lengths tell whether that is all that changed.
  if (!part || part.type === 'tool' || !old || old.kind !== type || part.text.length !== old.text.length + chunk.delta.length) return undefined;
  const parts = before.parts.slice();
  parts[i] = { ...old, text: part.text };
  return withNotices({ ...before, parts }, message, [{ op: 'appendText', part: i, text: chunk.delta }], t);
}

/** `view` with the message's notices, plus a setNotices patch if they changed (chunks skipped since the last one). */
function withNotices(view: AnswerView, message: AssembledMessage, patches: AnswerPatch[], t: Translate): { view: AnswerView; patches: AnswerPatch[] } {
  const notices = noticesOf(message, t);
  if (notices.length === view.notices.length && notices.every((n, k) => n === view.notices[k])) return { view, patches };
  return { view: { ...view, notices }, patches: [...patches, { op: 'setNotices', notices }] };
}

export function emptyAnswer(): AnswerView {
  return { parts: [], sources: [], status: 'waiting', notices: [], jobs: [] };
}
