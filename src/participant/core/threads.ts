import type { Memento } from '../../common/memento';

// One chat session in VS Code's Chat view is one thread of the service. VS Code keeps the
// session's history (and each result's metadata) in its own storage, which the user can export
// and share, so the history carries only an opaque session id. The thread id and key live here,
// in the extension's workspaceState beside the chat view's own conversations, and never reach
// the history, a log or the settings.

export interface ThreadRef {
  threadId: string;
  threadKey?: string;
}

interface StoredThread extends ThreadRef {
  usedAt: number;
}

/** The metadata key of a result that names its session. */
export const SESSION_KEY = 'docsSession';

const STORE_KEY = 'docsAssistant.participant.threads';
/** Sessions remembered; the least recently used go first. A session is a few hundred bytes. */
export const MAX_SESSIONS = 200;

/** The part of a ChatResponseTurn this reads (structural, so this file stays free of vscode). */
export interface ResponseTurnLike {
  readonly participant: string;
  readonly result: { readonly metadata?: { readonly [key: string]: unknown } };
}

/** The session of a chat, from the newest answer of `participant` in its history. */
export function sessionOf(history: readonly unknown[], participant: string): string | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i] as Partial<ResponseTurnLike> | undefined;
    if (turn?.participant !== participant || !turn.result) continue;
    const id = turn.result.metadata?.[SESSION_KEY];
    if (typeof id === 'string' && id.length > 0 && id.length <= 100) return id;
  }
  return undefined;
}

export class ParticipantThreads {
  constructor(
    private readonly memento: Memento,
    private readonly now: () => number = Date.now,
  ) {}

  get(session: string): ThreadRef | undefined {
    const t = this.all()[session];
    return t ? (t.threadKey ? { threadId: t.threadId, threadKey: t.threadKey } : { threadId: t.threadId }) : undefined;
  }

  /** Remembers the thread of `session`; a key handed out earlier is kept when the answer brings none. */
  async set(session: string, ref: ThreadRef): Promise<void> {
    const all = this.all();
    const before = all[session];
    const threadKey = ref.threadKey ?? (before?.threadId === ref.threadId ? before.threadKey : undefined);
    all[session] = threadKey ? { threadId: ref.threadId, threadKey, usedAt: this.now() } : { threadId: ref.threadId, usedAt: this.now() };
    const sessions = Object.keys(all);
    if (sessions.length > MAX_SESSIONS) {
      sessions.sort((a, b) => all[a]!.usedAt - all[b]!.usedAt);
      for (const old of sessions.slice(0, sessions.length - MAX_SESSIONS)) delete all[old];
    }
    await this.memento.update(STORE_KEY, all);
  }

  /** The service no longer knows the thread: the session starts a new one with its next question. */
  async forget(session: string): Promise<void> {
    const all = this.all();
    if (!(session in all)) return;
    delete all[session];
    await this.memento.update(STORE_KEY, all);
  }

  private all(): Record<string, StoredThread> {
    const raw = this.memento.get<unknown>(STORE_KEY);
    const out: Record<string, StoredThread> = {};
    if (!raw || typeof raw !== 'object') return out;
    // Stored by us, but read like anything else from disk: only well-formed entries count.
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
      const t = v as Partial<StoredThread> | null;
      if (typeof t?.threadId !== 'string' || typeof t.usedAt !== 'number') continue;
      out[k] =
        typeof t.threadKey === 'string' ? { threadId: t.threadId, threadKey: t.threadKey, usedAt: t.usedAt } : { threadId: t.threadId, usedAt: t.usedAt };
    }
    return out;
  }
}
