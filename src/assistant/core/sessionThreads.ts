import type { Memento } from '../../common/memento';
import type { ThreadRef, ThreadStorage } from './threads';

// Where the threads of `@docs` chat sessions live. VS Code keeps a session's history (and each
// result's metadata) in its own storage, which the user can export and share, so the history
// carries only an opaque session id; the thread id and key live here, in the extension's
// workspaceState beside the chat view's own conversations, and never reach the history, a log or
// the settings. The least recently used sessions are dropped past MAX_SESSIONS.

interface StoredThread extends ThreadRef {
  usedAt: number;
}

const STORE_KEY = 'docsAssistant.participant.threads';
/** Sessions remembered; the least recently used go first. A session is a few hundred bytes. */
export const MAX_SESSIONS = 200;

export class SessionThreads implements ThreadStorage {
  constructor(
    private readonly memento: Memento,
    private readonly now: () => number = Date.now,
  ) {}

  threadOf(session: string): ThreadRef | undefined {
    const t = this.all()[session];
    return t ? (t.threadKey ? { threadId: t.threadId, threadKey: t.threadKey } : { threadId: t.threadId }) : undefined;
  }

  async setThread(session: string, ref: ThreadRef | undefined): Promise<void> {
    const all = this.all();
    if (!ref) {
      delete all[session];
    } else {
      all[session] = ref.threadKey ? { threadId: ref.threadId, threadKey: ref.threadKey, usedAt: this.now() } : { threadId: ref.threadId, usedAt: this.now() };
      const sessions = Object.keys(all);
      if (sessions.length > MAX_SESSIONS) {
        sessions.sort((a, b) => all[a]!.usedAt - all[b]!.usedAt);
        for (const old of sessions.slice(0, sessions.length - MAX_SESSIONS)) delete all[old];
      }
    }
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
