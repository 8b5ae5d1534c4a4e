import * as l10n from '@vscode/l10n';
import type { ChatSnapshot } from '../common/protocol';
import { h, icon } from './dom';
import { reasonOf } from './pendingRequests';
import { chipElement } from './chipElement';

// The input area: attached chips, a multi-line box and a Send button that turns into Stop while
// an answer streams. Enter sends, Shift+Enter adds a line, ↑/↓ in an empty box walk through
// earlier questions. The draft goes to the host, so it survives a reload.

export class Composer {
  readonly root: HTMLElement;
  private readonly chips = h('div', { class: 'chips composer-chips' });
  private readonly input = h('textarea', {
    class: 'input',
    rows: 1,
    placeholder: l10n.t('Ask the docs…'),
    'aria-label': l10n.t('Ask the docs'),
    spellcheck: 'true',
  });
  private readonly button = h('button', { type: 'button', class: 'send', 'aria-label': l10n.t('Send') });
  // Not live: main.ts says its reasons through the page's one announcer (announcer.ts).
  private readonly hint = h('div', { class: 'composer-hint' });
  private busy = false;
  private history: string[] = [];
  private historyIndex = -1;
  private draftTimer: ReturnType<typeof setTimeout> | undefined;
  private hydrated = false;

  constructor(
    private readonly send: (text: string) => Promise<{ accepted: boolean; reason?: string }>,
    private readonly stop: () => void,
    private readonly saveDraft: (text: string) => void,
  ) {
    this.root = h('div', { class: 'composer' }, this.chips, h('div', { class: 'input-row' }, this.input, this.button), this.hint);
    this.input.addEventListener('keydown', (e) => this.onKey(e));
    this.input.addEventListener('input', () => {
      this.historyIndex = -1;
      this.autosize();
      this.refreshButton();
      clearTimeout(this.draftTimer);
      this.draftTimer = setTimeout(() => this.saveDraft(this.input.value), 300);
    });
    this.button.addEventListener('click', () => {
      // Stop turns this button into a disabled Send, which would drop focus to the page: the
      // input box takes it, as after Send, ready for the next question.
      if (this.busy) this.stop();
      else void this.submit();
      this.input.focus();
    });
    this.refreshButton();
  }

  update(s: ChatSnapshot): void {
    this.busy = s.busy;
    this.history = s.inputHistory;
    this.chips.replaceChildren(...s.pendingContext.map((c) => chipElement(c, true)));
    this.chips.hidden = s.pendingContext.length === 0;
    // The host's draft wins only on first load; afterwards the box is the source of truth.
    if (!this.hydrated) {
      this.hydrated = true;
      if (s.draft && !this.input.value) this.setText(s.draft);
    }
    this.refreshButton();
  }

  focus(): void {
    this.input.focus();
  }

  /** The input box, for the keys that move between it and the answers (turnNavigation.ts). */
  get inputElement(): HTMLTextAreaElement {
    return this.input;
  }

  /** A line under the input box: why something did not happen (main.ts also says it). */
  showHint(text: string): void {
    this.hint.textContent = text;
  }

  setText(text: string): void {
    this.input.value = text;
    this.autosize();
    this.refreshButton();
    this.input.focus();
  }

  private refreshButton(): void {
    this.button.replaceChildren(icon(this.busy ? 'debug-stop' : 'send'));
    this.button.setAttribute('aria-label', this.busy ? l10n.t('Stop') : l10n.t('Send'));
    this.button.title = this.busy ? l10n.t('Stop the answer (keeps what arrived)') : l10n.t('Send (Enter)');
    this.button.classList.toggle('stop', this.busy);
    this.button.disabled = !this.busy && this.input.value.trim() === '';
  }

  private autosize(): void {
    this.input.style.height = 'auto';
    this.input.style.height = `${Math.min(this.input.scrollHeight, 200)}px`;
  }

  private async submit(): Promise<void> {
    const text = this.input.value;
    if (text.trim() === '' || this.busy) return;
    // The question stays in the box when it was not taken: refused, or the host did not answer.
    const res = await this.send(text).catch((e: unknown) => ({ accepted: false, reason: reasonOf(e) }));
    if (res.accepted) {
      this.input.value = '';
      this.hint.textContent = '';
      this.autosize();
    } else {
      this.hint.textContent = res.reason ?? '';
    }
    this.refreshButton();
  }

  private onKey(e: KeyboardEvent): void {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void this.submit();
      return;
    }
    // A plain Up/Down recalls earlier questions; with Ctrl/Cmd it moves between the answers (turnNavigation.ts).
    const plain = !e.ctrlKey && !e.metaKey && !e.altKey && !e.shiftKey;
    if (plain && (e.key === 'ArrowUp' || e.key === 'ArrowDown') && (this.input.value === '' || this.historyIndex >= 0) && this.history.length) {
      e.preventDefault();
      const last = this.history.length - 1;
      if (e.key === 'ArrowUp') this.historyIndex = this.historyIndex < 0 ? last : Math.max(0, this.historyIndex - 1);
      else this.historyIndex = this.historyIndex < 0 || this.historyIndex >= last ? -1 : this.historyIndex + 1;
      this.input.value = this.historyIndex < 0 ? '' : this.history[this.historyIndex]!;
      this.autosize();
      this.refreshButton();
    }
  }
}
