import * as l10n from '@vscode/l10n';
import type { AnswerPartView } from '../common/protocol';
import { sameValue } from './answerLists';
import { h, icon } from './dom';
import { createIncrementalMarkdown, type MarkdownRenderer } from './incremental';

// One part of an answer as the page holds it: what it is and the element that shows it. A text or
// reasoning part's text is held by its renderer and nowhere else on this side (`md.text`): a delta
// is appended there (MarkdownRenderer.append), and no copy of the text, of the part or of the
// list of parts is made for it.

type ToolView = Extract<AnswerPartView, { kind: 'tool' }>;

export type Part =
  | { kind: 'text'; el: HTMLElement; md: MarkdownRenderer }
  | { kind: 'reasoning'; done: boolean; el: HTMLElement; md: MarkdownRenderer }
  | { kind: 'tool'; el: HTMLElement; view: ToolView };

const reasoningTitle = (done: boolean): string => (done ? l10n.t('Reasoning') : l10n.t('Reasoning…'));

/** A new part showing `view`. `streaming`: the answer is still arriving (a running search shows a spinner only then). */
export function createPart(view: AnswerPartView, streaming: boolean, onTextRendered: () => void): Part {
  if (view.kind === 'tool') return { kind: 'tool', el: toolElement(view, streaming), view };
  let part: Part;
  if (view.kind === 'text') {
    const el = h('div', { class: 'markdown', 'data-kind': 'text' });
    part = { kind: 'text', el, md: createIncrementalMarkdown(el, onTextRendered) };
  } else {
    const body = h('div', { class: 'markdown reasoning-body' });
    const el = h('details', { class: 'reasoning', 'data-kind': 'reasoning' }, h('summary', {}, reasoningTitle(view.done)), body);
    part = { kind: 'reasoning', done: view.done, el, md: createIncrementalMarkdown(body, onTextRendered) };
  }
  part.md.setText(view.text);
  return part;
}

/** Brings a text or reasoning part to `view` of the same kind, in place; false when it must be built again. */
export function updatePart(part: Part, view: AnswerPartView): boolean {
  if (part.kind === 'tool' || view.kind !== part.kind) return false;
  part.md.setText(view.text);
  if (part.kind === 'reasoning' && view.kind === 'reasoning') {
    part.done = view.done;
    part.el.querySelector('summary')!.textContent = reasoningTitle(view.done);
  }
  return true;
}

/** Whether `part` shows `view`: its text is the renderer's (compared, not copied), the rest field by field. */
export function partShows(part: Part, view: AnswerPartView): boolean {
  if (part.kind === 'tool') return sameValue(part.view, view);
  if (view.kind === 'tool') return false;
  if (part.kind !== view.kind || part.md.text !== view.text) return false;
  return part.kind !== 'reasoning' || view.kind !== 'reasoning' || part.done === view.done;
}

function toolElement(part: ToolView, streaming: boolean): HTMLElement {
  const what = part.query ? l10n.t('Searched the docs for “{0}”', part.query) : l10n.t('Used {0}', part.toolName);
  // A search still running when the answer stopped will never finish: no spinner for it.
  const running = part.state === 'running' && streaming;
  const result =
    part.state === 'done' && part.resultCount !== undefined
      ? ` · ${part.resultCount === 1 ? l10n.t('1 result') : l10n.t('{0} results', part.resultCount)}`
      : part.state === 'error'
        ? ` · ${part.errorText ? l10n.t('failed: {0}', part.errorText) : l10n.t('failed')}`
        : running
          ? '…'
          : '';
  return h(
    'div',
    { class: `tool tool-${part.state}`, 'data-kind': 'tool' },
    icon(running ? 'loading codicon-modifier-spin' : part.state === 'error' ? 'warning' : 'search'),
    h('span', {}, what + result),
  );
}
