import type { AnswerPatch, AnswerView } from './protocol';

// Applying AnswerPatch ops, shared by the host (its tests check that the patches it sends
// rebuild the answer exactly) and the webview (which keeps its own copy of each answer).

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
