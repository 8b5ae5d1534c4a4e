import { describeError } from '../api/errors';
import { MAX_QUESTION_CHARS } from '../api/limits';
import type { AssembledMessage, AssistantRequest, AssistantStreamEvent, UIMessageChunk } from '../api/types';
import { newId } from '../common/ids';
import type { AnswerPatch, AnswerView, ChatSnapshot, ContextChip, JobCardView, TurnView } from '../common/protocol';
import { diffAnswer, emptyAnswer, noticesOf, partsOf, sourcesOf, viewAfterDelta } from './answerView';
import { ChatStore, interrupted, type StoredConversation } from './chatStore';
import { postPacer } from './postPacer';
import { fitChip } from './selectionContext';
import { PatchQueue } from './patchQueue';
import { errorViewOf, finalView, requestFor, type RequestSettings } from './turnRequest';
export type { RequestSettings } from './turnRequest';

// The one conversation model. Views (the sidebar and the editor panel) only render what it
// sends; it knows nothing of VS Code, so it runs in Node tests with the real client.

/** The part of AssistantClient the session needs (the real one in production and tests). */
export interface AssistantLike {
  send(request: AssistantRequest, opts?: { signal?: AbortSignal }): AsyncGenerator<AssistantStreamEvent, AssembledMessage>;
}

export interface ChatSessionDeps {
  store: ChatStore;
  /** A client with the current settings and key, or a sentence saying what is missing. */
  client(): Promise<AssistantLike | { problem: string; action: 'setAssistantKey' | 'openSettings' }>;
  settings(): RequestSettings;
  /** Something structural changed: every view should take a fresh snapshot. */
  onSnapshot(): void;
  /** Streaming updates for one turn, already batched. */
  onPatch(turnId: string, patches: AnswerPatch[]): void;
  /** Runs `fn` when the queued patches should go out (postPacer by default). */
  schedule?(fn: () => void): void;
  now?(): number;
  newId?(): string;
}

// In a browser (code-server, vscode.dev) a reload gives the host no chance to save on the way out, so
// the stored copy may lag the screen by at most this much.
const SAVE_WHILE_STREAMING_MS = 250;

export class ChatSession {
  private controller: AbortController | undefined;
  /** The answer as it streams; the stored copy is only saved now and then (see advance). */
  private live: { conversationId: string; turnId: string; view: AnswerView } | undefined;
  private readonly patches: PatchQueue;
  private lastSave = 0;
  private closed = false;
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly deps: ChatSessionDeps) {
    this.patches = new PatchQueue(deps.schedule ?? postPacer(), (turnId, patches) => deps.onPatch(turnId, patches));
    this.now = deps.now ?? (() => Date.now());
    this.newId = deps.newId ?? newId;
  }

  /**
   * The extension host is shutting down (window reload, VS Code closing) mid-answer: store all
   * that streamed so far, marked interrupted, before the request is aborted. Nothing is written
   * after this, so the abort cannot replace it.
   */
  close(): void {
    if (this.live) this.writeAnswer(this.live.conversationId, this.live.turnId, interrupted(this.live.view));
    this.closed = true;
    this.live = undefined;
    this.stop();
  }

  get busy(): boolean {
    return this.controller !== undefined;
  }

  get conversation(): StoredConversation {
    return this.deps.store.current;
  }

  snapshot(extra: Pick<ChatSnapshot, 'agentAvailable' | 'setupHint'>): ChatSnapshot {
    // The snapshot holds the live answer with every queued patch in it. Those patches go out
    // first, so no view applies them on top of a snapshot that already has them (doubled text).
    this.flush();
    const c = this.conversation;
    const live = this.live?.conversationId === c.id ? this.live : undefined;
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

  // ---- input and context -------------------------------------------------------------------

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
    const fitted = fitChip(this.deps.store.pendingContext, chip);
    if ('reason' in fitted) return { added: false, reason: fitted.reason };
    this.deps.store.setPendingContext([...this.deps.store.pendingContext, fitted.chip]);
    this.deps.onSnapshot();
    return { added: true };
  }

  removeChip(chipId: string): void {
    this.deps.store.setPendingContext(this.deps.store.pendingContext.filter((c) => c.id !== chipId));
    this.deps.onSnapshot();
  }

  toggleChipType(chipId: string): void {
    this.deps.store.setPendingContext(this.deps.store.pendingContext.map((c) => (c.id === chipId ? { ...c, type: c.type === 'code' ? 'textSelection' : 'code' } : c)));
    this.deps.onSnapshot();
  }

  saveDraft(text: string): void {
    this.deps.store.setDraft(text);
  }

  // ---- asking ------------------------------------------------------------------------------

  async ask(text: string): Promise<{ accepted: boolean; reason?: string }> {
    const question = text.trim();
    if (!question) return { accepted: false, reason: 'Type a question first.' };
    if (question.length > MAX_QUESTION_CHARS) {
      const n = (x: number): string => x.toLocaleString('en-US');
      return { accepted: false, reason: `The question is ${n(question.length)} characters long; the most is ${n(MAX_QUESTION_CHARS)}. Shorten it, or select the text in an editor and attach it with "Ask Docs About Selection".` };
    }
    if (this.busy) return { accepted: false, reason: 'Wait for the current answer, or stop it.' };
    const turn: TurnView = { id: this.newId(), question, context: this.deps.store.pendingContext, answer: emptyAnswer() };
    const c = this.conversation;
    this.deps.store.updateCurrent({ turns: [...c.turns, turn], title: c.turns.length === 0 ? question.slice(0, 80) : c.title });
    this.deps.store.setPendingContext([]);
    this.deps.store.setDraft('');
    this.deps.store.pushInputHistory(question);
    void this.run(turn.id); // takes the snapshot, synchronously
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
    await this.run(turn.id);
  }

  stop(): void {
    this.controller?.abort();
  }

  newConversation(): void {
    this.stop();
    this.deps.store.startNewConversation(this.newId());
    this.deps.onSnapshot();
  }

  openConversation(id: string): boolean {
    if (this.busy) this.stop();
    const ok = this.deps.store.open(id);
    if (ok) this.deps.onSnapshot();
    return ok;
  }

  /** Adds (or updates) the live agent job cards under an answer. */
  setJobs(turnId: string, jobs: JobCardView[]): void {
    this.mutateAnswer(turnId, (a) => ({ ...a, jobs }));
  }

  // ---- the stream --------------------------------------------------------------------------

  private async run(turnId: string): Promise<void> {
    // Busy from the first moment: a second send while the client is being prepared is refused.
    const ctrl = new AbortController();
    this.controller = ctrl;
    // The answer belongs to the conversation it was asked in, even if the user moves on meanwhile.
    const owner = this.conversation.id;
    this.deps.onSnapshot();
    let view: AnswerView = emptyAnswer();
    let last: AssembledMessage | undefined;
    let sentThread: string | null = null;
    try {
      const client = await this.deps.client();
      if ('problem' in client) {
        this.finish(owner, turnId, view, { ...emptyAnswer(), status: 'error', error: { message: client.problem, kind: 'invalidInput', actions: [client.action === 'setAssistantKey' ? 'setAssistantKey' : 'openSettings', 'retry'] } });
        return;
      }
      const conversation = this.deps.store.find(owner);
      if (ctrl.signal.aborted || !conversation) {
        this.finish(owner, turnId, view, { ...view, status: 'stopped' });
        return;
      }
      const request = requestFor(conversation, turnId, this.deps.settings());
      sentThread = request.threadId ?? null;
      const streaming: AnswerView = { ...view, status: 'streaming' };
      this.queue(turnId, diffAnswer(view, streaming));
      view = streaming;
      this.live = { conversationId: owner, turnId, view };
      const stream = client.send(request, { signal: ctrl.signal });
      for (;;) {
        const step = await stream.next();
        if (step.done) {
          last = step.value;
          break;
        }
        const ev = step.value;
        if (ev.type === 'chunk') {
          last = ev.message;
          view = this.advance(owner, turnId, view, ev.message, ev.chunk);
          this.live = { conversationId: owner, turnId, view };
        }
      }
      const done = finalView(last, view, 'done');
      this.finish(owner, turnId, view, done, last);
    } catch (e) {
      const err = describeError(e);
      const partial = err.partial ?? last;
      if (err.kind === 'aborted') {
        this.finish(owner, turnId, view, finalView(partial, view, 'stopped'), partial);
      } else {
        if (err.kind === 'notFound' && sentThread) this.deps.store.updateConversation(owner, { threadId: null, threadKey: null });
        this.finish(owner, turnId, view, { ...finalView(partial, view, 'error'), error: errorViewOf(err, !!sentThread, this.now()) }, partial);
      }
    } finally {
      this.live = undefined;
      if (this.controller === ctrl) {
        this.controller = undefined;
      }
      this.deps.onSnapshot();
    }
  }

  private advance(owner: string, turnId: string, before: AnswerView, message: AssembledMessage, chunk: UIMessageChunk): AnswerView {
    let after: AnswerView;
    const delta = viewAfterDelta(before, message, chunk);
    if (delta) {
      after = delta.view;
      if (delta.patches.length) this.queue(turnId, delta.patches);
    } else {
      after = { parts: partsOf(message), sources: sourcesOf(message), notices: noticesOf(message), status: 'streaming', jobs: before.jobs };
      const patches = diffAnswer(before, after);
      if (patches.length) this.queue(turnId, patches);
    }
    if (this.now() - this.lastSave > SAVE_WHILE_STREAMING_MS) {
      // Saved now and then mid-stream, so a reload keeps most of the answer.
      this.lastSave = this.now();
      this.writeAnswer(owner, turnId, interrupted(after));
    }
    return after;
  }

  private finish(owner: string, turnId: string, before: AnswerView, after: AnswerView, message?: AssembledMessage): void {
    const c = this.deps.store.find(owner);
    if (message?.threadId && c) {
      const sameThread = message.threadId === c.threadId;
      this.deps.store.updateConversation(owner, { threadId: message.threadId, threadKey: message.threadKey ?? (sameThread ? c.threadKey ?? null : null) });
    }
    this.queue(turnId, diffAnswer(before, after));
    this.flush();
    this.writeAnswer(owner, turnId, after);
  }

  private writeAnswer(owner: string, turnId: string, answer: AnswerView): void {
    if (this.closed) return;
    const c = this.deps.store.find(owner);
    if (!c) return;
    this.deps.store.updateConversation(owner, { turns: c.turns.map((t) => (t.id === turnId ? { ...t, answer } : t)) });
  }

  private mutateAnswer(turnId: string, fn: (a: AnswerView) => AnswerView): void {
    const turn = this.conversation.turns.find((t) => t.id === turnId);
    if (!turn) return;
    const next = fn(turn.answer);
    this.writeAnswer(this.conversation.id, turnId, next);
    this.queue(turnId, diffAnswer(turn.answer, next));
  }

  private queue(turnId: string, patches: AnswerPatch[]): void {
    this.patches.add(turnId, patches);
  }

  /** Sends everything queued. Consecutive appends to one part are merged into one. */
  flush(): void {
    this.patches.flush();
  }
}
