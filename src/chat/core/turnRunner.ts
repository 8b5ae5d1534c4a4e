import { describeError, type ServiceError, type AssembledMessage } from '../../api';
import type { Answer } from '../../assistant/core/answer';
import type { Assistant } from '../../assistant/core/assistant';
import { ThreadStore } from '../../assistant/core/threads';
import type { Emitter } from '../../common/event';
import { english, type Translate } from '../../common/l10n';
import type { AnswerPatch, AnswerView, HostNotifications, JobCardView } from '../../common/protocol';
import { diffAnswer, emptyAnswer, patchOf } from './answerView';
import type { ChatStorage } from './chatStorage';
import { interrupted } from './storedChats';
import { PatchQueue } from './patchQueue';
import { postPacer } from './postPacer';
import { errorViewOf, finalView, questionFor } from './turnSteps';

// One answer at a time, streamed into the store: the turn's question asked through the one
// Assistant (src/assistant/core), each change it reports sent on as a patch (batched, see
// PatchQueue), the answer saved now and then while it streams, and how it ends (done, stopped, an
// error that keeps what arrived). While it streams, the answer is ask()'s one answer, updated in
// place; a view of it is made only for a snapshot, a save and the end. It knows nothing of VS Code.

export interface TurnRunnerDeps {
  /** Where conversations are kept: files (FileChatStore), or workspaceState without a workspace (ChatStore). */
  store: ChatStorage;
  /** Asks the docs: the one Assistant of the extension (its client, settings and readiness). */
  assistant: Pick<Assistant, 'ask'>;
  /** The workspace-relative path of the file being read, sent with the question. */
  currentPath?(): string | undefined;
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

/** The answer streaming now: ask()'s answer, and what the chat adds to it. */
interface Live {
  conversationId: string;
  turnId: string;
  answer: Answer;
  jobs: JobCardView[];
}

/** The live answer as the webview renders it, in a copy that later changes leave alone. */
function viewOf(live: Live): AnswerView {
  const { parts, sources, notices } = live.answer;
  return { parts: parts.slice(), sources, notices, status: 'streaming', jobs: live.jobs };
}

/** What the runner tells its session's views (ChatSession's events). */
export interface TurnEvents {
  /** Something structural changed: every view should take a fresh snapshot. */
  changed: Emitter<void>;
  /** Streaming updates for one turn, already batched. */
  patched: Emitter<HostNotifications['patch']>;
}

export class TurnRunner {
  private controller: AbortController | undefined;
  private live: Live | undefined;
  private readonly patches: PatchQueue;
  private readonly threads: ThreadStore;
  private lastSave = 0;
  private closed = false;
  private readonly now: () => number;
  private readonly t: Translate;

  constructor(
    private readonly deps: TurnRunnerDeps,
    private readonly events: TurnEvents,
  ) {
    this.t = deps.t ?? english;
    this.patches = new PatchQueue(deps.schedule ?? postPacer(), (turnId, patches) => events.patched.fire({ turnId, patches }));
    this.threads = new ThreadStore(deps.store);
    this.now = deps.now ?? (() => Date.now());
  }

  get busy(): boolean {
    return this.controller !== undefined;
  }

  /** The answer streaming in conversation `conversationId` right now, if one is. */
  liveAnswer(conversationId: string): { turnId: string; view: AnswerView } | undefined {
    const live = this.live;
    return live?.conversationId === conversationId ? { turnId: live.turnId, view: viewOf(live) } : undefined;
  }

  /**
   * The extension host is shutting down (window reload, VS Code closing) mid-answer: store all
   * that streamed so far, marked interrupted, before the request is aborted. Nothing is written
   * after this, so the abort cannot replace it.
   */
  close(): void {
    if (this.live) this.writeAnswer(this.live.conversationId, this.live.turnId, interrupted(viewOf(this.live), this.t));
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
    const conversation = this.deps.store.current;
    const owner = conversation.id;
    const turn = conversation.turns.find((t) => t.id === turnId)!;
    this.events.changed.fire();
    const waiting = emptyAnswer();
    const shown = (): AnswerView => (this.live ? viewOf(this.live) : waiting);
    try {
      const context = { selections: turn.context, currentPath: this.deps.currentPath?.() };
      for await (const ev of this.deps.assistant.ask(questionFor(conversation, turnId), context, { threads: this.threads, conversation: owner }, ctrl.signal)) {
        switch (ev.type) {
          case 'sending':
            this.queue(turnId, diffAnswer(waiting, { ...waiting, status: 'streaming' }));
            this.live = { conversationId: owner, turnId, answer: ev.answer, jobs: waiting.jobs };
            break;
          case 'text':
          case 'part':
          case 'sources':
          case 'notices':
            this.queue(turnId, [patchOf(ev)]);
            this.saveNowAndThen();
            break;
          case 'done':
            this.finish(owner, turnId, shown(), finalView(ev.message, shown(), 'done', this.t));
            break;
          case 'error':
            this.failed(owner, turnId, shown(), ev.error, ev.message);
            break;
        }
      }
    } catch (e) {
      // Not the service's: the chat's own work failed. Shown like any error, what arrived kept.
      this.failed(owner, turnId, shown(), describeError(e));
    } finally {
      this.live = undefined;
      if (this.controller === ctrl) {
        this.controller = undefined;
      }
      this.events.changed.fire();
    }
  }

  private failed(owner: string, turnId: string, before: AnswerView, err: ServiceError, partial?: AssembledMessage): void {
    if (err.kind === 'aborted') return this.finish(owner, turnId, before, finalView(partial, before, 'stopped', this.t));
    const error = errorViewOf(err, this.t, this.now());
    this.finish(owner, turnId, before, { ...finalView(partial, before, 'error', this.t), error });
  }

  /** Saved now and then mid-stream, so a reload keeps most of the answer. */
  private saveNowAndThen(): void {
    const live = this.live;
    if (!live || this.now() - this.lastSave <= SAVE_WHILE_STREAMING_MS) return;
    this.lastSave = this.now();
    this.writeAnswer(live.conversationId, live.turnId, interrupted(viewOf(live), this.t));
  }

  private finish(owner: string, turnId: string, before: AnswerView, after: AnswerView): void {
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
