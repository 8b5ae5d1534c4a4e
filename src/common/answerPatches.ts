import type { AnswerPatch, AnswerView } from './protocol';

// Applying AnswerPatch ops to a whole AnswerView: what the host's tests use to check that the
// patches it sends rebuild the answer exactly. The webview does not use it: it applies each patch
// in place to the one model it keeps of a turn (src/webview/turns.ts), a text delta to the text's
// renderer, and copies no view per patch.

/** Applies patches to a view, returning a new view; the input is left as it was. */
export function applyPatches(view: AnswerView, patches: readonly AnswerPatch[]): AnswerView {
  const next: AnswerView = { ...view, parts: [...view.parts] };
  for (const p of patches) {
    switch (p.op) {
      case 'appendText': {
        const part = next.parts[p.part];
        if (part && (part.kind === 'text' || part.kind === 'reasoning')) next.parts[p.part] = { ...part, text: part.text + p.text };
        break;
      }
      case 'setPart':
        next.parts[p.part] = p.value;
        break;
      case 'setSources':
      case 'setNotices':
      case 'setJobs':
        setList(next, p);
        break;
      case 'setStatus':
        next.status = p.status;
        if (p.error) next.error = p.error;
        else delete next.error;
        break;
    }
  }
  return next;
}

type ListPatch = Extract<AnswerPatch, { op: 'setSources' | 'setNotices' | 'setJobs' }>;

/** The three patches that replace one of the answer's lists whole. */
function setList(view: AnswerView, p: ListPatch): void {
  if (p.op === 'setSources') view.sources = p.sources;
  else if (p.op === 'setNotices') view.notices = p.notices;
  else view.jobs = p.jobs;
}
