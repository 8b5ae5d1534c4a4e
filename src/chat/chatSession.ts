import { describeError, type ServiceError } from '../api/errors';
import { retryTime } from '../api/httpErrors';
import { clampRetryAfter, MAX_CHIPS, MAX_CONTEXT_CHARS, MAX_QUESTION_CHARS } from '../api/limits';
import type { AssembledMessage, AssistantRequest, AssistantStreamEvent, ChatMessage, ContextItem, SearchFilter, UIMessageChunk } from '../api/types';
import type { AnswerPatch, AnswerView, ChatSnapshot, ContextChip, ErrorView, JobCardView, TurnView } from '../common/protocol';
import { applyPatches } from '../common/answerPatches';
import { answerText, diffAnswer, emptyAnswer, noticesOf, partsOf, sourcesOf, viewAfterDelta } from './answerView';
import { ChatStore, interrupted, type StoredConversation } from './chatStore';
import { postPacer } from './postPacer';
import { chipLabel, isSameSelection, truncationPoint } from './selectionContext';

// The one conversation model. Views (the sidebar and the editor panel) only render what it
// sends; it knows nothing of VS Code, so it runs in Node tests with the real client.

/** The part of AssistantClient the session needs (the real one in production and tests). */
export interface AssistantLike {
  send(request: AssistantRequest, opts?: { signal?: AbortSignal }): AsyncGenerator<AssistantStreamEvent, AssembledMessage>;
}

export interface RequestSettings {
  fp: string;
  retrievalPageSize: number;
  filter: SearchFilter | null;
  currentPath?: string;
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
  private pending = new Map<string, AnswerPatch[]>();
  private flushScheduled = false;
  private lastSave = 0;
  private closed = false;
  private readonly schedule: (fn: () => void) => void;
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly deps: ChatSessionDeps) {
    this.schedule = deps.schedule ?? postPacer();
    this.now = deps.now ?? (() => Date.now());
    let n = 0;
    this.newId = deps.newId ?? (() => `${Date.now().toString(36)}-${(n++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`);
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
    const chips = this.deps.store.pendingContext;
    if (chips.some((c) => isSameSelection(c, chip))) return { added: false, reason: `${chipLabel(chip)} is already attached.` };
    if (chips.length >= MAX_CHIPS) return { added: false, reason: `The question already carries ${MAX_CHIPS} selections, the most one question can. Remove one to attach another.` };
    const left = MAX_CONTEXT_CHARS - chips.reduce((n, c) => n + c.value.length, 0);
    if (left <= 0) {
      return { added: false, reason: `The question already carries ${MAX_CONTEXT_CHARS.toLocaleString('en-US')} characters of selections, the most one question can. Remove a selection to attach another.` };
    }
    const fitted = chip.value.length > left ? { ...chip, value: chip.value.slice(0, truncationPoint(chip.value, left)), truncatedFrom: chip.truncatedFrom ?? chip.value.length } : chip;
    this.deps.store.setPendingContext([...chips, fitted]);
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

  private buildRequest(c: StoredConversation, turnId: string, settings: RequestSettings): AssistantRequest {
    const messages: ChatMessage[] = [];
    for (const t of c.turns) {
      messages.push({ id: `${t.id}-q`, role: 'user', parts: [{ type: 'text', text: t.question }] });
      if (t.id === turnId) break;
      const text = answerText(t.answer);
      if (text) messages.push({ id: `${t.id}-a`, role: 'assistant', parts: [{ type: 'text', text }] });
    }
    const turn = c.turns.find((t) => t.id === turnId)!;
    const context: ContextItem[] = turn.context.map((chip) => (chip.path ? { type: chip.type, value: chip.value, path: chip.path } : { type: chip.type, value: chip.value }));
    const request: AssistantRequest = { fp: settings.fp, messages, threadId: c.threadId ?? null, retrievalPageSize: settings.retrievalPageSize, filter: settings.filter };
    if (c.threadKey) request.threadKey = c.threadKey;
    if (context.length) request.context = context;
    if (settings.currentPath) request.currentPath = settings.currentPath;
    return request;
  }

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
      const request = this.buildRequest(conversation, turnId, this.deps.settings());
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
      const done = this.viewOf(last, view, 'done');
      this.finish(owner, turnId, view, done, last);
    } catch (e) {
      const err = describeError(e);
      const partial = err.partial ?? last;
      if (err.kind === 'aborted') {
        this.finish(owner, turnId, view, this.viewOf(partial, view, 'stopped'), partial);
      } else {
        if (err.kind === 'notFound' && sentThread) this.deps.store.updateConversation(owner, { threadId: null, threadKey: null });
        this.finish(owner, turnId, view, { ...this.viewOf(partial, view, 'error'), error: this.errorView(err, !!sentThread) }, partial);
      }
    } finally {
      this.live = undefined;
      if (this.controller === ctrl) {
        this.controller = undefined;
      }
      this.deps.onSnapshot();
    }
  }

  private viewOf(message: AssembledMessage | undefined, current: AnswerView, status: AnswerView['status']): AnswerView {
    const base = message ? { parts: partsOf(message), sources: sourcesOf(message), notices: noticesOf(message) } : { parts: current.parts, sources: current.sources, notices: current.notices };
    const view: AnswerView = { ...base, status, jobs: current.jobs };
    if (status === 'done' && message && message.errors.length > 0) {
      // An `error` chunk ends the answer (as in the SDK): what came before it stays, with Retry.
      const said = message.errors.join(' ');
      view.status = 'error';
      view.error = {
        message: message.parts.length === 0 ? `The service could not answer: ${said} Retry to ask again.` : `The service broke off the answer: ${said} What arrived is kept; Retry to ask again.`,
        kind: 'server',
        actions: ['retry'],
      };
    } else if (status === 'done' && (message?.aborted || message?.cutOff)) {
      // The service stopped the answer itself, or the client did at one of its bounds: shown like
      // a Stop (why is in the notices), with Retry; what arrived stays.
      view.status = 'stopped';
    }
    return view;
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

  private errorView(err: ServiceError, hadThread: boolean): ErrorView {
    const view: ErrorView = { message: err.message, kind: err.kind, actions: ['retry'] };
    if (err.kind === 'unauthorized' || err.kind === 'forbidden') view.actions = ['setAssistantKey', 'retry'];
    if (err.kind === 'notFound' && hadThread) view.actions = ['newConversation', 'retry'];
    if (err.kind === 'rateLimited' && err.retryAfterMs !== undefined) {
      // Finite and at most an hour away, whatever the error carries: the webview counts down to it.
      const wait = clampRetryAfter(err.retryAfterMs);
      view.retryAt = this.now() + wait;
      if (!/try again/i.test(view.message)) view.message += ` Try again after ${retryTime(wait, this.now())}.`;
    }
    if (err.kind === 'invalidInput') view.actions = ['openSettings', 'retry'];
    return view;
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
    if (!patches.length) return;
    const list = this.pending.get(turnId);
    if (list) list.push(...patches);
    else this.pending.set(turnId, [...patches]);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      this.schedule(() => this.flush());
    }
  }

  /** Sends everything queued. Consecutive appends to one part are merged into one. */
  flush(): void {
    this.flushScheduled = false;
    const pending = this.pending;
    this.pending = new Map();
    for (const [turnId, patches] of pending) this.deps.onPatch(turnId, mergeAppends(patches));
  }

  /** For tests: the view a webview would have after applying every patch sent so far. */
  static apply(view: AnswerView, patches: AnswerPatch[]): AnswerView {
    return applyPatches(view, patches);
  }
}

function mergeAppends(patches: AnswerPatch[]): AnswerPatch[] {
  const out: AnswerPatch[] = [];
  for (const p of patches) {
    const prev = out[out.length - 1];
    if (p.op === 'appendText' && prev?.op === 'appendText' && prev.part === p.part) out[out.length - 1] = { ...prev, text: prev.text + p.text };
    else out.push(p);
  }
  return out;
}
