import * as l10n from '@vscode/l10n';
import { applyPatches } from '../common/answerPatches';
import { chipLabel } from '../common/chips';
import type { AnswerPartView, AnswerPatch, AnswerView, ContextChip, ErrorAction, TurnView } from '../common/protocol';
import { renderJobs, renderNotices, renderSources } from './answerLists';
import { h, icon, iconButton } from './dom';
import { createIncrementalMarkdown, type MarkdownRenderer } from './incremental';
import { retryIsDue, retryText } from './retryText';

// One turn in the transcript: the question with its chips, and the answer, which is kept up to
// date by patches. Only the parts a patch touches are re-rendered. The words are looked up when
// they are rendered (l10n.t), after the page has read its bundle (l10nBundle.ts).

const ACTIONS: Record<ErrorAction, [icon: string, label: () => string]> = {
  retry: ['refresh', () => l10n.t('Retry')],
  setAssistantKey: ['key', () => l10n.t('Set Assistant Key')],
  newConversation: ['add', () => l10n.t('New Conversation')],
  openSettings: ['gear', () => l10n.t('Open Settings')],
};

const reasoningTitle = (done: boolean): string => (done ? l10n.t('Reasoning') : l10n.t('Reasoning…'));

export function chipElement(c: ContextChip, editable: boolean): HTMLElement {
  const el = h(
    'span',
    {
      class: 'chip',
      title: c.truncatedFrom ? l10n.t('Cut to {0} of {1} characters', c.value.length.toLocaleString(), c.truncatedFrom.toLocaleString()) : (c.path ?? ''),
    },
    icon(c.type === 'code' ? 'code' : 'note'),
    h('span', { class: 'chip-label' }, chipLabel(c)),
    c.truncatedFrom ? h('span', { class: 'chip-note' }, l10n.t('cut to {0} chars', c.value.length.toLocaleString())) : null,
  );
  if (editable) {
    el.append(
      h(
        'button',
        {
          type: 'button',
          class: 'chip-kind',
          'data-action': 'toggleChipType',
          'data-chip': c.id,
          title: l10n.t('Send as code or as text'),
          'aria-label': c.type === 'code' ? l10n.t('Sent as code; switch') : l10n.t('Sent as text; switch'),
        },
        c.type === 'code' ? l10n.t('code') : l10n.t('text'),
      ),
      iconButton('close', l10n.t('Remove {0}', chipLabel(c)), 'removeChip', { chip: c.id }),
    );
  }
  return el;
}

export class TurnElement {
  readonly root: HTMLElement;
  private view: AnswerView;
  private readonly partsEl = h('div', { class: 'answer-parts' });
  private readonly sourcesEl = h('div', { class: 'sources' });
  private readonly noticesEl = h('div', { class: 'notices' });
  private readonly statusEl = h('div', { class: 'answer-status' });
  private readonly jobsEl = h('div', { class: 'job-cards' });
  private readonly footerEl = h('div', { class: 'answer-footer' });
  private parts: { el: HTMLElement; md?: MarkdownRenderer }[] = [];
  private retryTimer: ReturnType<typeof setInterval> | undefined;

  constructor(
    readonly turn: TurnView,
    private agentAvailable: boolean,
    private readonly onTextRendered: () => void,
  ) {
    this.view = turn.answer;
    const question = h('div', { class: 'question' }, h('div', { class: 'question-text' }, turn.question));
    if (turn.context.length) question.prepend(h('div', { class: 'chips' }, ...turn.context.map((c) => chipElement(c, false))));
    const answer = h('div', { class: 'answer', 'data-turn': turn.id }, this.partsEl, this.statusEl, this.sourcesEl, this.noticesEl, this.jobsEl, this.footerEl);
    this.root = h('article', { class: 'turn', 'data-turn': turn.id, 'aria-label': l10n.t('Question: {0}', turn.question) }, question, answer);
    this.view.parts.forEach((p, i) => this.setPart(i, p));
    // An answer that has ended is checked as a whole once (see MarkdownRenderer.finish).
    const ended = !this.isStreaming();
    for (const md of this.parts) {
      if (ended) md.md?.finish();
      else md.md?.flush();
    }
    this.renderSources();
    this.renderNotices();
    this.renderStatus();
    this.renderJobs();
  }

  get answer(): AnswerView {
    return this.view;
  }

  setAgentAvailable(v: boolean): void {
    if (v === this.agentAvailable) return;
    this.agentAvailable = v;
    this.renderStatus();
  }

  apply(patches: AnswerPatch[]): void {
    this.view = applyPatches(this.view, patches);
    for (const p of patches) {
      if (p.op === 'appendText') {
        const part = this.parts[p.part];
        if (part?.md) part.md.append(p.text);
        else this.setPart(p.part, this.view.parts[p.part]!);
      } else if (p.op === 'setPart') this.setPart(p.part, p.value);
      else if (p.op === 'setSources') this.renderSources();
      else if (p.op === 'setNotices') this.renderNotices();
      else if (p.op === 'setJobs') this.renderJobs();
      else if (p.op === 'setStatus') this.renderStatus();
    }
    // Text renders at a streaming pace; once the answer has ended, what is left shows at once.
    if (!this.isStreaming()) for (const part of this.parts) part.md?.finish();
  }

  dispose(): void {
    if (this.retryTimer) clearInterval(this.retryTimer);
  }

  private setPart(i: number, part: AnswerPartView): void {
    const existing = this.parts[i];
    if (existing?.md && (part.kind === 'text' || part.kind === 'reasoning') && existing.el.dataset.kind === part.kind) {
      existing.md.setText(part.text);
      if (part.kind === 'reasoning') existing.el.querySelector('summary')!.textContent = reasoningTitle(part.done);
      return;
    }
    let entry: { el: HTMLElement; md?: MarkdownRenderer };
    if (part.kind === 'text') {
      const el = h('div', { class: 'markdown', 'data-kind': 'text' });
      entry = { el, md: createIncrementalMarkdown(el, this.onTextRendered) };
      entry.md!.setText(part.text);
    } else if (part.kind === 'reasoning') {
      const body = h('div', { class: 'markdown reasoning-body' });
      const el = h('details', { class: 'reasoning', 'data-kind': 'reasoning' }, h('summary', {}, reasoningTitle(part.done)), body);
      entry = { el, md: createIncrementalMarkdown(body, this.onTextRendered) };
      entry.md!.setText(part.text);
    } else {
      const what = part.query ? l10n.t('Searched the docs for “{0}”', part.query) : l10n.t('Used {0}', part.toolName);
      // A search still running when the answer stopped will never finish: no spinner for it.
      const running = part.state === 'running' && this.isStreaming();
      const result =
        part.state === 'done' && part.resultCount !== undefined
          ? ` · ${part.resultCount === 1 ? l10n.t('1 result') : l10n.t('{0} results', part.resultCount)}`
          : part.state === 'error'
            ? ` · ${part.errorText ? l10n.t('failed: {0}', part.errorText) : l10n.t('failed')}`
            : running
              ? '…'
              : '';
      entry = {
        el: h(
          'div',
          { class: `tool tool-${part.state}`, 'data-kind': 'tool' },
          icon(running ? 'loading codicon-modifier-spin' : part.state === 'error' ? 'warning' : 'search'),
          h('span', {}, what + result),
        ),
      };
    }
    if (existing) existing.el.replaceWith(entry.el);
    else this.partsEl.append(entry.el);
    this.parts[i] = entry;
  }

  private renderSources(): void {
    renderSources(this.sourcesEl, this.view.sources);
  }

  private renderNotices(): void {
    renderNotices(this.noticesEl, this.view.notices);
  }

  private renderJobs(): void {
    renderJobs(this.jobsEl, this.view.jobs);
  }

  private isStreaming(): boolean {
    return this.view.status === 'streaming' || this.view.status === 'waiting';
  }

  private renderStatus(): void {
    const { status, error } = this.view;
    if (this.retryTimer) clearInterval(this.retryTimer);
    this.retryTimer = undefined;
    this.root.classList.toggle('streaming', this.isStreaming());
    this.view.parts.forEach((p, i) => {
      if (p.kind === 'tool' && p.state === 'running') this.setPart(i, p);
    });
    // Where the turn stands, for styles and for tests that drive the real workbench.
    this.root.dataset.status = status;
    this.statusEl.replaceChildren();
    this.footerEl.replaceChildren();
    if (status === 'waiting') this.statusEl.append(h('span', { class: 'waiting' }, icon('loading codicon-modifier-spin'), ` ${l10n.t('Searching the docs…')}`));
    if (status === 'streaming') this.statusEl.append(h('span', { class: 'streaming-indicator', 'aria-hidden': 'true' }));
    if (status === 'stopped')
      this.statusEl.append(
        h('span', { class: 'stopped' }, icon('debug-stop'), ` ${l10n.t('Stopped')}`),
        iconButton('refresh', l10n.t('Ask again'), 'runAction', { action_name: 'retry', turn: this.turn.id }, l10n.t('Retry')),
      );
    if (status === 'error' && error) {
      const box = h('div', { class: 'error', role: 'alert' }, icon('error'), h('span', { class: 'error-message' }, error.message));
      const actions = h('div', { class: 'error-actions' });
      for (const a of error.actions) {
        const [ic, labelOf] = ACTIONS[a];
        const label = labelOf();
        actions.append(iconButton(ic, label, 'runAction', { action_name: a, turn: this.turn.id }, label));
      }
      if (error.retryAt) {
        const countdown = h('span', { class: 'retry-countdown' });
        const tick = () => {
          const now = Date.now();
          countdown.textContent = retryText(error.retryAt!, now);
          if (retryIsDue(error.retryAt!, now) && this.retryTimer) clearInterval(this.retryTimer);
        };
        tick();
        this.retryTimer = setInterval(tick, 1000);
        actions.append(countdown);
      }
      box.append(actions);
      this.statusEl.append(box);
    }
    if (status === 'done' || status === 'stopped' || status === 'error') {
      const hasText = this.view.parts.some((p) => p.kind === 'text' && p.text.trim());
      if (hasText) this.footerEl.append(iconButton('copy', l10n.t('Copy the answer as Markdown'), 'copyAnswer', { turn: this.turn.id }, l10n.t('Copy')));
      if (this.agentAvailable && status === 'done')
        this.footerEl.append(
          iconButton('wand', l10n.t('Fix this in the docs with the agent'), 'fixInDocs', { turn: this.turn.id }, l10n.t('Fix This in the Docs')),
        );
    }
  }
}
