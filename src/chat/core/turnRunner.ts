import { describeError } from '../../api/errors';
import type { AssembledMessage, AssistantRequest, AssistantStreamEvent, UIMessageChunk } from '../../api/types';
import { english, type Translate } from '../../common/l10n';
import type { AnswerPatch, AnswerView } from '../../common/protocol';
import type { ClientProblem } from '../../common/setup';
export type { ClientProblem };
import { diffAnswer, emptyAnswer, noticesOf, partsOf, sourcesOf, viewAfterDelta } from './answerView';
import { interrupted, type ChatStore } from './chatStore';
import { PatchQueue } from './patchQueue';
import { postPacer } from './postPacer';
import { errorViewOf, finalView, requestFor, type RequestSettings } from './turnRequest';

// One answer at a time, streamed into the store: the request for a turn, the stream read chunk
// by chunk into the answer's view, the patches that bring the views up to date (batched, see
// PatchQueue), the answer saved now and then while it streams, and how it ends (done, stopped,
// an error that keeps what arrived). It knows nothing of VS Code.

/** The part of AssistantClient a turn needs (the real one in production and tests). */
export interface AssistantLike {
  send(request: AssistantRequest, opts?: { signal?: AbortSignal }): AsyncGenerator<AssistantStreamEvent, AssembledMessage>;
}

export interface TurnRunnerDeps {
  store: ChatStore;
  /** A client with the current settings and key, or a sentence saying what is missing. */
  client(): Promise<AssistantLike | ClientProblem>;
  settings(): RequestSettings | Promise<RequestSettings>;
  /** Something structural changed: every view should take a fresh snapshot. */
  onSnapshot(): void;
  /** Streaming updates for one turn, already batched. */
  onPatch(turnId: string, patches: AnswerPatch[]): void;
  /**
   * What the user reads is worded by this: vscode.l10n.t in the extension. `english` (src/common/l10n.ts)
   * when not given, as in the tests and the benchmark.
   */
  t?: Translate;
  /** Runs `fn` when the queued patches should go out (postPacer by default). */
  schedule?(fn: () => void): void;
  now?(): number;
}

// In a browser (code-server, vscode.dev) a reload gives the host no chance to save on the way out, so
// the stored copy may lag the screen by at most this much.
const SAVE_WHILE_STREAMING_MS = 250;

export class TurnRunner {
  private controller: AbortController | undefined;
  /** The answer as it streams; the stored copy is only saved now and then (see advance). */
  private live: { conversationId: string; turnId: string; view: AnswerView } | undefined;
  private readonly patches: PatchQueue;
  private lastSave = 0;
  private closed = false;
  private readonly now: () => number;
  private readonly t: Translate;

  constructor(private readonly deps: TurnRunnerDeps) {
    this.t = deps.t ?? english;
    this.patches = new PatchQueue(deps.schedule ?? postPacer(), (turnId, patches) => deps.onPatch(turnId, patches));
    this.now = deps.now ?? (() => Date.now());
  }

  get busy(): boolean {
    return this.controller !== undefined;
  }

  /** The answer streaming in conversation `conversationId` right now, if one is. */
  liveAnswer(conversationId: string): { turnId: string; view: AnswerView } | undefined {
    return this.live?.conversationId === conversationId ? this.live : undefined;
  }

  /**
   * The extension host is shutting down (window reload, VS Code closing) mid-answer: store all
   * that streamed so far, marked interrupted, before the request is aborted. Nothing is written
   * after this, so the abort cannot replace it.
   */
  close(): void {
    if (this.live) this.writeAnswer(this.live.conversationId, this.live.turnId, interrupted(this.live.view, this.t));
    this.closed = true;
    this.live = undefined;
    this.stop();
  }

  stop(): void {
    this.controller?.abort();
  }

  /** Changes a stored answer of the current conversation (the job cards under it) and patches the views. */
  updateAnswer(turnId: string, fn: (a: AnswerView) => AnswerView): void {
    const c = this.deps.store.current;
    const turn = c.turns.find((t) => t.id === turnId);
    if (!turn) return;
    const next = fn(turn.answer);
    this.writeAnswer(c.id, turnId, next);
    this.queue(turnId, diffAnswer(turn.answer, next));
  }

  /** Streams the answer to `turnId` of the current conversation into the store, patching the views as it grows. */
  async run(turnId: string): Promise<void> {
    // Busy from the first moment: a second send while the client is being prepared is refused.
    const ctrl = new AbortController();
    this.controller = ctrl;
    // The answer belongs to the conversation it was asked in, even if the user moves on meanwhile.
    const owner = this.deps.store.current.id;
    this.deps.onSnapshot();
    let view: AnswerView = emptyAnswer();
    let last: AssembledMessage | undefined;
    try {
      const client = await this.deps.client();
      if ('problem' in client) {
        this.finish(owner, turnId, view, {
          ...emptyAnswer(),
          status: 'error',
          error: {
            message: client.problem,
            kind: 'invalidInput',
            actions: [client.action === 'setAssistantKey' ? 'setAssistantKey' : 'openSettings', 'retry'],
          },
        });
        return;
      }
      const settings = await this.deps.settings();
      const conversation = this.deps.store.find(owner);
      if (ctrl.signal.aborted || !conversation) {
        this.finish(owner, turnId, view, { ...view, status: 'stopped' });
        return;
      }
      const request = requestFor(conversation, turnId, settings);
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
      const done = finalView(last, view, 'done', this.t);
      this.finish(owner, turnId, view, done, last);
    } catch (e) {
      const err = describeError(e);
      const partial = err.partial ?? last;
      if (err.kind === 'aborted') {
        this.finish(owner, turnId, view, finalView(partial, view, 'stopped', this.t), partial);
      } else {
        // The service forgot the thread the question continued: the next question starts a new one.
        if (err.reason.code === 'threadGone') this.deps.store.updateConversation(owner, { threadId: null, threadKey: null });
        const error = errorViewOf(err, this.t, this.now());
        this.finish(owner, turnId, view, { ...finalView(partial, view, 'error', this.t), error }, partial);
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
    const delta = viewAfterDelta(before, message, chunk, this.t);
    if (delta) {
      after = delta.view;
      if (delta.patches.length) this.queue(turnId, delta.patches);
    } else {
      after = { parts: partsOf(message), sources: sourcesOf(message), notices: noticesOf(message, this.t), status: 'streaming', jobs: before.jobs };
      const patches = diffAnswer(before, after);
      if (patches.length) this.queue(turnId, patches);
    }
    if (this.now() - this.lastSave > SAVE_WHILE_STREAMING_MS) {
      // Saved now and then mid-stream, so a reload keeps most of the answer.
      this.lastSave = this.now();
      this.writeAnswer(owner, turnId, interrupted(after, this.t));
    }
    return after;
  }

  private finish(owner: string, turnId: string, before: AnswerView, after: AnswerView, message?: AssembledMessage): void {
    const c = this.deps.store.find(owner);
    if (message?.threadId && c) {
      const sameThread = message.threadId === c.threadId;
      this.deps.store.updateConversation(owner, { threadId: message.threadId, threadKey: message.threadKey ?? (sameThread ? (c.threadKey ?? null) : null) });
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

  private queue(turnId: string, patches: AnswerPatch[]): void {
    this.patches.add(turnId, patches);
  }

  /** Sends everything queued. Consecutive appends to one part are merged into one. */
  flush(): void {
    this.patches.flush();
  }
}
