import type { AnswerChange } from '../../assistant/core/answer';
import { answerChanges } from '../../assistant/core/answer';
import type { AnswerPartView, AnswerPatch, AnswerView } from '../../common/protocol';
export { applyPatches } from '../../common/answerPatches';

// The chat's answer: what the webview renders (the answer ask() keeps, src/assistant/core/answer.ts,
// with the chat's status and job cards), and the smallest patch between two renderings: while an
// answer streams, only the new text travels.

/** The text of the answer, as earlier turns are sent back to the service. */
export function answerText(view: AnswerView): string {
  return view.parts
    .filter((p): p is Extract<AnswerPartView, { kind: 'text' }> => p.kind === 'text')
    .map((p) => p.text)
    .join('\n\n');
}

/** A change to the answer, as the patch that makes it in the webview's copy. */
export function patchOf(change: AnswerChange): AnswerPatch {
  switch (change.type) {
    case 'text':
      return { op: 'appendText', part: change.part, text: change.delta };
    case 'part':
      return { op: 'setPart', part: change.part, value: change.value };
    case 'sources':
      return { op: 'setSources', sources: change.sources };
    case 'notices':
      return { op: 'setNotices', notices: change.notices };
  }
}

/**
 * Patches that turn `before` into `after` (same turn). Text that only grew becomes an
 * appendText of the new suffix, so a long answer costs the same per delta at any length.
 */
export function diffAnswer(before: AnswerView, after: AnswerView): AnswerPatch[] {
  const patches = answerChanges(before, after).map(patchOf);
  if (JSON.stringify(before.jobs) !== JSON.stringify(after.jobs)) patches.push({ op: 'setJobs', jobs: after.jobs });
  if (before.status !== after.status || JSON.stringify(before.error) !== JSON.stringify(after.error)) {
    patches.push(after.error ? { op: 'setStatus', status: after.status, error: after.error } : { op: 'setStatus', status: after.status });
  }
  return patches;
}

export function emptyAnswer(): AnswerView {
  return { parts: [], sources: [], status: 'waiting', notices: [], jobs: [] };
}
