import type { AnswerView, ContextChip, TurnView } from '../common/protocol';

// Where the conversation lives between reloads: the host's workspaceState, so it survives a
// window reload and the view being hidden, per workspace. The thread key is kept as carefully
// as the id (notes.md): it stays here and in requests, and never reaches a log or the webview.

export interface Memento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

export interface StoredConversation {
  id: string;
  title: string;
  createdAt: number;
  turns: TurnView[];
  threadId?: string | null;
  threadKey?: string | null;
}

interface StoredState {
  version: 1;
  current: StoredConversation;
  history: StoredConversation[];
  pendingContext: ContextChip[];
  draft: string;
  inputHistory: string[];
}

const KEY = 'docsAssistant.chat';
export const HISTORY_MAX = 20;
const INPUT_HISTORY_MAX = 50;

function fresh(id: string, now: number): StoredConversation {
  return { id, title: 'New conversation', createdAt: now, turns: [], threadId: null, threadKey: null };
}

/** An answer cut off by the window going away: stopped, its text kept, and saying why. */
export function interrupted(answer: AnswerView): AnswerView {
  return { ...answer, status: 'stopped', notices: [...answer.notices.filter((n) => !n.startsWith('Interrupted')), 'Interrupted: the window was reloaded while this answer was streaming.'] };
}

/** A turn that was streaming when the window went away comes back stopped, its text kept. */
function settle(c: StoredConversation): StoredConversation {
  return {
    ...c,
    turns: c.turns.map((t) => (t.answer.status === 'streaming' || t.answer.status === 'waiting' ? { ...t, answer: interrupted(t.answer) } : t)),
  };
}

function isConversation(v: unknown): v is StoredConversation {
  const c = v as StoredConversation;
  return !!c && typeof c === 'object' && typeof c.id === 'string' && Array.isArray(c.turns);
}

export class ChatStore {
  private state: StoredState;

  constructor(
    private readonly memento: Memento,
    newId: () => string,
    private readonly now: () => number = Date.now,
  ) {
    const saved = memento.get<StoredState>(KEY);
    if (saved && saved.version === 1 && isConversation(saved.current)) {
      this.state = {
        ...saved,
        current: settle(saved.current),
        history: Array.isArray(saved.history) ? saved.history.filter(isConversation) : [],
        pendingContext: Array.isArray(saved.pendingContext) ? saved.pendingContext : [],
        draft: typeof saved.draft === 'string' ? saved.draft : '',
        inputHistory: Array.isArray(saved.inputHistory) ? saved.inputHistory.filter((s) => typeof s === 'string') : [],
      };
    } else {
      this.state = { version: 1, current: fresh(newId(), now()), history: [], pendingContext: [], draft: '', inputHistory: [] };
    }
  }

  get current(): StoredConversation {
    return this.state.current;
  }
  get history(): readonly StoredConversation[] {
    return this.state.history;
  }
  get pendingContext(): ContextChip[] {
    return this.state.pendingContext;
  }
  get draft(): string {
    return this.state.draft;
  }
  get inputHistory(): string[] {
    return this.state.inputHistory;
  }

  updateCurrent(patch: Partial<StoredConversation>): void {
    this.state = { ...this.state, current: { ...this.state.current, ...patch } };
    this.save();
  }

  /** The conversation on screen or in the history. */
  find(id: string): StoredConversation | undefined {
    return this.state.current.id === id ? this.state.current : this.state.history.find((h) => h.id === id);
  }

  /**
   * Updates a conversation wherever it is now. An answer can end after the user moved on to a
   * new conversation; its text and thread belong to the one it was asked in.
   */
  updateConversation(id: string, patch: Partial<StoredConversation>): void {
    if (this.state.current.id === id) return this.updateCurrent(patch);
    const i = this.state.history.findIndex((h) => h.id === id);
    if (i < 0) return;
    const history = [...this.state.history];
    history[i] = { ...history[i]!, ...patch };
    this.state = { ...this.state, history };
    this.save();
  }

  setPendingContext(chips: ContextChip[]): void {
    this.state = { ...this.state, pendingContext: chips };
    this.save();
  }

  setDraft(text: string): void {
    if (text === this.state.draft) return;
    this.state = { ...this.state, draft: text };
    this.save();
  }

  pushInputHistory(question: string): void {
    const list = this.state.inputHistory.filter((q) => q !== question);
    this.state = { ...this.state, inputHistory: [...list, question].slice(-INPUT_HISTORY_MAX) };
    this.save();
  }

  /** The current conversation goes to the history (if it has anything in it). */
  startNewConversation(id: string): void {
    const { current } = this.state;
    const history = current.turns.length ? [current, ...this.state.history.filter((h) => h.id !== current.id)].slice(0, HISTORY_MAX) : this.state.history;
    this.state = { ...this.state, history, current: fresh(id, this.now()) };
    this.save();
  }

  /** Reopens a past conversation; the one on screen goes to the history. */
  open(id: string): boolean {
    const found = this.state.history.find((h) => h.id === id);
    if (!found) return false;
    const { current } = this.state;
    const rest = this.state.history.filter((h) => h.id !== id);
    const history = current.turns.length ? [current, ...rest].slice(0, HISTORY_MAX) : rest;
    this.state = { ...this.state, current: settle(found), history };
    this.save();
    return true;
  }

  private save(): void {
    void Promise.resolve(this.memento.update(KEY, this.state)).catch(() => {
      // Only fails while the host shuts down; the state in memory is still right.
    });
  }
}
