import type * as l10n from '@vscode/l10n';
import { MAX_QUESTION_CHARS } from '../../api';
import { Emitter, type Event } from '../../common/event';
import { newId } from '../../common/ids';
import { english } from '../../common/l10n';
import type { ChatSnapshot, ContextChip, HostNotifications, JobCardView, ResponsePayload, TurnView } from '../../common/protocol';
import { emptyAnswer } from './answerView';
import type { StoredConversation } from './storedChats';
import { fitChip, isSameSelection } from '../../host/core/selectionContext';
import { TurnRunner, type TurnRunnerDeps } from './turnRunner';

// The one conversation model: what the user does to the conversation (attach and remove
// selections, keep a draft, ask, retry, stop, start over, reopen one) and the snapshot every
// view renders. The answers themselves stream in through TurnRunner, which asks the one Assistant
// (src/assistant/core). Views (the sidebar and the editor panel) only render what it sends; it
// knows nothing of VS Code, so it runs in Node tests with the real client.

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

export interface ChatSessionDeps extends TurnRunnerDeps {
  newId?(): string;
}

export class ChatSession {
  private readonly turns: TurnRunner;
  private readonly newId: () => string;
  private readonly changed = new Emitter<void>();
  private readonly patched = new Emitter<HostNotifications['patch']>();
  /** Something structural changed: every view should take a fresh snapshot. */
  readonly onDidChange: Event<void> = this.changed.event;
  /** Streaming updates for one turn's answer, already batched. */
  readonly onDidPatch: Event<HostNotifications['patch']> = this.patched.event;

  constructor(private readonly deps: ChatSessionDeps) {
    this.turns = new TurnRunner(deps, { changed: this.changed, patched: this.patched });
    this.newId = deps.newId ?? newId;
  }

  /**
   * The extension host is shutting down (window reload, VS Code closing) mid-answer: all that
   * streamed so far is stored, marked interrupted, before the request is aborted.
   */
  close(): void {
    this.turns.close();
    this.changed.dispose();
    this.patched.dispose();
  }

  get busy(): boolean {
    return this.turns.busy;
  }

  get conversation(): StoredConversation {
    return this.deps.store.current;
  }

  snapshot(extra: Pick<ChatSnapshot, 'agentAvailable' | 'setupHint'>): ChatSnapshot {
    // The snapshot holds the live answer with every queued patch in it. Those patches go out
    // first, so no view applies them on top of a snapshot that already has them (doubled text).
    this.flush();
    const c = this.conversation;
    const live = this.turns.liveAnswer(c.id);
    return {
      conversationId: c.id,
      title: c.title,
      turns: live ? c.turns.map((t) => (t.id === live.turnId ? { ...t, answer: live.view } : t)) : c.turns,
      pendingContext: this.deps.store.pendingContext,
      draft: this.deps.store.draft,
      busy: this.busy,
      inputHistory: this.deps.store.inputHistory,
      ...extra,
    };
  }

  /** Attaches a selection unless it cannot be (see attachChip). Returns false when it was not. */
  attach(chip: ContextChip): boolean {
    return this.attachChip(chip).added;
  }

  /**
   * Attaches a selection, within what one question may carry: not the same one twice, at most
   * MAX_CHIPS, and at most MAX_CONTEXT_CHARS in all, so a chip past that is cut to what is left
   * (its note says so). When nothing can be attached, `reason` says why, in words for the user.
   */
  attachChip(chip: ContextChip): { added: boolean; reason?: string } {
    const fitted = fitChip(this.deps.store.pendingContext, chip, this.deps.t ?? english);
    if ('reason' in fitted) return { added: false, reason: fitted.reason };
    this.deps.store.setPendingContext([...this.deps.store.pendingContext, fitted.chip]);
    this.changed.fire();
    return { added: true };
  }

  removeChip(chipId: string): void {
    this.deps.store.setPendingContext(this.deps.store.pendingContext.filter((c) => c.id !== chipId));
    this.changed.fire();
  }

  toggleChipType(chipId: string): void {
    this.deps.store.setPendingContext(
      this.deps.store.pendingContext.map((c) => (c.id === chipId ? { ...c, type: c.type === 'code' ? 'textSelection' : 'code' } : c)),
    );
    this.changed.fire();
  }

  saveDraft(text: string): void {
    this.deps.store.setDraft(text);
  }

  /**
   * A command run with arguments (the lightbulb, another extension, a `command:` link): the
   * selection joins the composer as a chip and the question becomes the input's text. Nothing is
   * sent: the user reads both and presses Send. Returns why the chip is not in the composer, or
   * undefined when it is (added now, or the same selection attached before).
   */
  fillComposer(chip: ContextChip, question: string): string | undefined {
    const there = this.deps.store.pendingContext.some((c) => isSameSelection(c, chip));
    const attached = there ? { added: true } : this.attachChip(chip);
    this.deps.store.setDraft(question);
    this.changed.fire();
    return attached.added ? undefined : attached.reason;
  }

  async ask(text: string): Promise<ResponsePayload<'send'>> {
    const l10n: { t: Translate } = { t: this.deps.t ?? english };
    const question = text.trim();
    if (!question) return { accepted: false, reason: l10n.t('Type a question first.') };
    if (question.length > MAX_QUESTION_CHARS) {
      const n = (x: number): string => x.toLocaleString('en-US');
      return {
        accepted: false,
        reason: l10n.t(
          'The question is {0} characters long; the most is {1}. Shorten it, or select the text in an editor and attach it with "Ask Docs About Selection".',
          n(question.length),
          n(MAX_QUESTION_CHARS),
        ),
      };
    }
    if (!this.deps.store.loaded) await this.deps.store.ready;
    if (this.busy) return { accepted: false, reason: l10n.t('Wait for the current answer, or stop it.') };
    const turn: TurnView = { id: this.newId(), question, context: this.deps.store.pendingContext, answer: emptyAnswer() };
    const c = this.conversation;
    this.deps.store.updateCurrent({ turns: [...c.turns, turn], title: c.turns.length === 0 ? question.slice(0, 80) : c.title });
    this.deps.store.setPendingContext([]);
    this.deps.store.setDraft('');
    this.deps.store.pushInputHistory(question);
    void this.turns.run(turn.id); // takes the snapshot, synchronously
    return { accepted: true };
  }

  /** Asks the same question again, in place of the turn that failed or was stopped. */
  async retry(turnId: string): Promise<void> {
    if (this.busy) return;
    const c = this.conversation;
    const i = c.turns.findIndex((t) => t.id === turnId);
    if (i < 0) return;
    const turn = { ...c.turns[i]!, answer: emptyAnswer() };
    // Later turns were built on the failed one; retrying it starts the story over from there.
    this.deps.store.updateCurrent({ turns: [...c.turns.slice(0, i), turn] });
    await this.turns.run(turn.id);
  }

  stop(): void {
    this.turns.stop();
  }

  /** At once when the store has read the conversation on screen back, else once it has. */
  newConversation(): Promise<void> {
    if (!this.deps.store.loaded) return this.deps.store.ready.then(() => this.newConversation());
    this.stop();
    this.deps.store.startNewConversation(this.newId());
    this.changed.fire();
    return Promise.resolve();
  }

  async openConversation(id: string): Promise<boolean> {
    await this.deps.store.ready;
    if (this.busy) this.stop();
    const ok = await this.deps.store.open(id);
    if (ok) this.changed.fire();
    return ok;
  }

  /** Deletes a conversation and its file; deleting the one on screen stops its answer and starts a new one. */
  async deleteConversation(id: string): Promise<boolean> {
    await this.deps.store.ready;
    if (id === this.conversation.id) this.stop();
    const ok = await this.deps.store.remove(id);
    if (ok) this.changed.fire();
    return ok;
  }

  /** Deletes every conversation, the one on screen included. */
  async clearHistory(): Promise<void> {
    await this.deps.store.ready;
    this.stop();
    await this.deps.store.clear();
    this.changed.fire();
  }

  /** Adds (or updates) the live agent job cards under an answer. */
  setJobs(turnId: string, jobs: JobCardView[]): void {
    this.turns.updateAnswer(turnId, (a) => ({ ...a, jobs }));
  }

  /** Sends everything queued. Consecutive appends to one part are merged into one. */
  flush(): void {
    this.turns.flush();
  }
}
