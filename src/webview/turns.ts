import * as l10n from '@vscode/l10n';
import type { AnswerPartView, AnswerPatch, AnswerStatus, AnswerView, ErrorAction, ErrorView, JobCardView, SourceView, TurnView } from '../common/protocol';
import { ListView, renderJobs, renderNotices, renderSources, sameValue } from './answerLists';
import { createPart, partShows, updatePart, type Part } from './answerParts';
import { h, icon, iconButton } from './dom';
import { retryIsDue, retryText } from './retryText';
import { spokenAnswer } from './spokenAnswer';
import { chipElement } from './chipElement';

// One turn in the transcript: the question with its chips, and the answer, which is kept up to
// date by patches. Only the parts a patch touches are re-rendered. The words are looked up when
// they are rendered (l10n.t), after the page has read its bundle (l10nBundle.ts).

const ACTIONS: Record<ErrorAction, [icon: string, label: () => string]> = {
  retry: ['refresh', () => l10n.t('Retry')],
  setAssistantKey: ['key', () => l10n.t('Set Assistant Key')],
  newConversation: ['add', () => l10n.t('New Conversation')],
  openSettings: ['gear', () => l10n.t('Open Settings')],
};

export class TurnElement {
  readonly root: HTMLElement;
  readonly id: string;
  // The answer, as patches leave it: each field is replaced or appended to in place. A text part's
  // text is in its renderer only (answerParts.ts).
  private status: AnswerStatus;
  private error: ErrorView | undefined;
  private readonly sources: ListView<SourceView>;
  private readonly notices: ListView<string>;
  private readonly jobs: ListView<JobCardView>;
  private readonly parts: Part[] = [];
  private readonly partsEl = h('div', { class: 'answer-parts' });
  private readonly statusEl = h('div', { class: 'answer-status' });
  private readonly footerEl = h('div', { class: 'answer-footer' });
  private readonly answerEl: HTMLElement;
  private retryTimer: ReturnType<typeof setInterval> | undefined;
  /**
   * An ended answer not drawn yet (a long conversation draws what is near the view first, see
   * lazyTurns.ts): it is kept as the snapshot gave it until draw(), then let go.
   */
  private waiting: AnswerView | undefined;

  /**
   * Keeps nothing of `turn` but what it shows: the page holds no second copy of the answer.
   * `later`: an ended answer waits to be drawn until draw() (the question shows at once).
   */
  constructor(
    turn: TurnView,
    private agentAvailable: boolean,
    private readonly onTextRendered: () => void,
    later = false,
  ) {
    const { answer } = turn;
    this.id = turn.id;
    this.status = answer.status;
    this.error = answer.error;
    const waits = later && !this.isStreaming();
    this.sources = new ListView(h('div', { class: 'sources' }), waits ? [] : answer.sources, renderSources);
    this.notices = new ListView(h('div', { class: 'notices' }), waits ? [] : answer.notices, renderNotices);
    this.jobs = new ListView(h('div', { class: 'job-cards' }), waits ? [] : answer.jobs, renderJobs);
    const question = h('div', { class: 'question' }, h('div', { class: 'question-text' }, turn.question));
    if (turn.context.length) question.prepend(h('div', { class: 'chips' }, ...turn.context.map((c) => chipElement(c, false))));
    this.answerEl = h(
      'div',
      { class: 'answer', 'data-turn': turn.id },
      this.partsEl,
      this.statusEl,
      this.sources.el,
      this.notices.el,
      this.jobs.el,
      this.footerEl,
    );
    this.root = h('article', { class: 'turn', 'data-turn': turn.id, 'aria-label': l10n.t('Question: {0}', turn.question) }, question, this.answerEl);
    // Out of view, a turn is not laid out (content-visibility, chat.css): until it has been, it
    // counts as about this tall, so a scroll position restored before layout still fits.
    this.root.style.setProperty('contain-intrinsic-block-size', `auto ${estimatedHeight(answer) + 60}px`);
    if (waits) {
      this.waiting = answer;
      // Space for it meanwhile, about as tall as it will be, so the scroll bar and position hold.
      this.answerEl.style.minHeight = `${estimatedHeight(answer)}px`;
      this.answerEl.classList.add('answer-waiting');
      return;
    }
    this.drawAnswer(answer);
  }

  /** Whether the answer waits to be drawn. */
  get isWaiting(): boolean {
    return this.waiting !== undefined;
  }

  /** Draws an answer that was waiting (nothing happens for one already drawn). */
  draw(): void {
    const answer = this.waiting;
    if (!answer) return;
    this.waiting = undefined;
    this.answerEl.style.minHeight = '';
    this.answerEl.classList.remove('answer-waiting');
    this.drawAnswer(answer);
  }

  private drawAnswer(answer: AnswerView): void {
    this.status = answer.status;
    this.error = answer.error;
    this.sources.set(answer.sources);
    this.notices.set(answer.notices);
    this.jobs.set(answer.jobs);
    answer.parts.forEach((p, i) => this.setPart(i, p));
    // An answer that has ended is checked as a whole once (see MarkdownRenderer.finish).
    const ended = !this.isStreaming();
    for (const part of this.parts) {
      if (part.kind === 'tool') continue;
      if (ended) part.md.finish();
      else part.md.flush();
    }
    this.renderStatus();
  }

  /**
   * Whether this turn shows `answer` as it is (a snapshot's copy of it), so that its DOM can stay.
   * A turn still waiting takes the snapshot's answer as its own: it has drawn nothing to keep.
   */
  shows(answer: AnswerView): boolean {
    if (this.waiting && answer.status !== 'streaming' && answer.status !== 'waiting') {
      this.waiting = answer;
      this.status = answer.status;
      return true;
    }
    return (
      answer.status === this.status &&
      sameValue(answer.error, this.error) &&
      sameValue(answer.sources, this.sources.items) &&
      sameValue(answer.notices, this.notices.items) &&
      sameValue(answer.jobs, this.jobs.items) &&
      answer.parts.length === this.parts.length &&
      answer.parts.every((p, i) => partShows(this.parts[i]!, p))
    );
  }

  get answerStatus(): AnswerStatus {
    return this.status;
  }

  /**
   * What a screen reader hears once this answer has ended (main.ts says it once): the answer as
   * rendered, its code summarised; that it stopped; an error with the buttons it offers.
   */
  spokenEnd(): string {
    this.draw();
    const text = spokenAnswer(this.parts.flatMap((p) => (p.kind === 'text' ? [p.el] : [])));
    if (this.status === 'stopped') return `${l10n.t('Answer stopped.')} ${text}`;
    if (this.status === 'error' && this.error) {
      const actions = this.error.actions.map((a) => ACTIONS[a][1]()).join(', ');
      return actions ? l10n.t('Error: {0} Actions: {1}.', this.error.message, actions) : l10n.t('Error: {0}', this.error.message);
    }
    return text;
  }

  setAgentAvailable(v: boolean): void {
    if (v === this.agentAvailable) return;
    this.agentAvailable = v;
    if (!this.waiting) this.renderStatus();
  }

  apply(patches: readonly AnswerPatch[]): void {
    // A patch (a job card's new state, say) changes the answer as drawn.
    this.draw();
    for (const p of patches) {
      switch (p.op) {
        case 'appendText': {
          // The one place the text grows: in the renderer that holds it.
          const part = this.parts[p.part];
          if (part && part.kind !== 'tool') part.md.append(p.text);
          break;
        }
        case 'setPart':
          this.setPart(p.part, p.value);
          break;
        case 'setSources':
          this.sources.set(p.sources);
          break;
        case 'setNotices':
          this.notices.set(p.notices);
          break;
        case 'setJobs':
          this.jobs.set(p.jobs);
          break;
        case 'setStatus':
          this.status = p.status;
          this.error = p.error;
          this.renderStatus();
          break;
      }
    }
    // Text renders at a streaming pace; once the answer has ended, what is left shows at once.
    if (!this.isStreaming()) for (const part of this.parts) if (part.kind !== 'tool') part.md.finish();
  }

  dispose(): void {
    if (this.retryTimer) clearInterval(this.retryTimer);
  }

  private setPart(i: number, view: AnswerPartView): void {
    const existing = this.parts[i];
    if (existing && updatePart(existing, view)) return;
    const part = createPart(view, this.isStreaming(), this.onTextRendered);
    if (existing) existing.el.replaceWith(part.el);
    else this.partsEl.append(part.el);
    this.parts[i] = part;
  }

  private isStreaming(): boolean {
    return this.status === 'streaming' || this.status === 'waiting';
  }

  private renderStatus(): void {
    const { status, error } = this;
    if (this.retryTimer) clearInterval(this.retryTimer);
    this.retryTimer = undefined;
    this.root.classList.toggle('streaming', this.isStreaming());
    // A screen reader waits for a busy answer to settle rather than follow each render (VS Code's Chat does the same).
    this.answerEl.setAttribute('aria-busy', String(this.isStreaming()));
    this.parts.forEach((p, i) => {
      if (p.kind === 'tool' && p.view.state === 'running') this.setPart(i, p.view);
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
        iconButton('refresh', l10n.t('Ask again'), 'runAction', { action_name: 'retry', turn: this.id }, l10n.t('Retry')),
      );
    if (status === 'error' && error) {
      // Not an alert: main.ts announces the error once, and its countdown below changes every second.
      const box = h('div', { class: 'error' }, icon('error'), h('span', { class: 'error-message' }, error.message));
      const actions = h('div', { class: 'error-actions' });
      for (const a of error.actions) {
        const [ic, labelOf] = ACTIONS[a];
        const label = labelOf();
        actions.append(iconButton(ic, label, 'runAction', { action_name: a, turn: this.id }, label));
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
      const hasText = this.parts.some((p) => p.kind === 'text' && /\S/.test(p.md.text));
      if (hasText) this.footerEl.append(iconButton('copy', l10n.t('Copy the answer as Markdown'), 'copyAnswer', { turn: this.id }, l10n.t('Copy')));
      if (hasText)
        this.footerEl.append(
          iconButton('book', l10n.t('Open the answer in the Accessible View'), 'accessibleView', { turn: this.id }, l10n.t('Accessible View')),
        );
      if (this.agentAvailable && status === 'done')
        this.footerEl.append(iconButton('wand', l10n.t('Fix this in the docs with the agent'), 'fixInDocs', { turn: this.id }, l10n.t('Fix This in the Docs')));
    }
  }
}

/** About how tall an answer will be in a side bar, from its text: its place while it waits. */
export function estimatedHeight(answer: AnswerView): number {
  const chars = answer.parts.reduce((n, p) => n + (p.kind === 'text' ? p.text.length : 40), 0);
  // About 45 characters a line at the side bar's usual width, 21 px a line, plus its footer.
  return Math.min(20_000, Math.round(chars / 45) * 21 + 32);
}
