import type { ThreadRef, ThreadStorage } from '../../assistant/core/threads';
import type { ContextChip } from '../../common/protocol';
import { english, type Translate } from '../../common/l10n';
import { fresh, HISTORY_MAX, jsonChars, MAX_STORED_CHARS, newestTurnsWithin, safeTurn, settle, type StoredConversation } from './storedChats';
import type { Memento } from '../../common/memento';
export { historyNote, HISTORY_MAX, interrupted, MAX_STORED_CHARS, type StoredConversation } from './storedChats';

// Where the conversation lives between reloads: the host's workspaceState, so it survives a
// window reload and the view being hidden, per workspace. The thread key is kept as carefully
// as the id (notes.md): it stays here and in requests, and never reaches a log or the webview.
// This is where the one ThreadStore (src/assistant/core/threads.ts) keeps the chat's threads.
//
// Each conversation has a key of its own, beside one small index (which is current, the order of
// the history, the chips, the draft). A save writes only what changed: while an answer streams,
// that is its own conversation, never the whole history. What is stored stays within
// MAX_STORED_CHARS: the oldest conversations are dropped first, and counted, so the history list
// can say so.

interface StoredIndex {
  version: 2;
  current: string;
  /** Newest first. */
  history: string[];
  pendingContext: ContextChip[];
  inputHistory: string[];
  /** Conversations dropped so far to stay within the bounds. */
  dropped: number;
}

/** The layout before conversations had keys of their own: everything under one key. */
interface StoredStateV1 {
  version: 1;
  current: StoredConversation;
  history: StoredConversation[];
  pendingContext: ContextChip[];
  draft: string;
  inputHistory: string[];
}

const KEY = 'docsAssistant.chat';
/** The draft has a key of its own: it is saved as the user types, and nothing else need be. */
const DRAFT_KEY = 'docsAssistant.chat.draft';
const conversationKey = (id: string): string => `docsAssistant.chat.conversation.${id}`;
const INPUT_HISTORY_MAX = 50;
/** Characters of remembered questions (for ↑ in the input box). */
const INPUT_HISTORY_MAX_CHARS = 100_000;

function isConversation(v: unknown): v is StoredConversation {
  const c = v as StoredConversation;
  return !!c && typeof c === 'object' && typeof c.id === 'string' && Array.isArray(c.turns);
}

/** A conversation as read back: only well-formed, and safe to show (see safeTurn). */
function restored(v: unknown): StoredConversation | undefined {
  if (!isConversation(v)) return undefined;
  return { ...v, turns: v.turns.map(safeTurn) };
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

export class ChatStore implements ThreadStorage {
  private cur: StoredConversation;
  /** Newest first. */
  private past: StoredConversation[] = [];
  private chips: ContextChip[] = [];
  private draftText = '';
  private asked: string[] = [];
  private dropped = 0;
  /** Stored size of each conversation, as of its last save. */
  private readonly sizes = new Map<string, number>();

  constructor(
    private readonly memento: Memento,
    newId: () => string,
    /** Words what the store adds (a new conversation's title, notices): vscode.l10n.t in the extension. */
    private readonly t: Translate = english,
    private readonly now: () => number = Date.now,
  ) {
    const saved = memento.get<StoredIndex | StoredStateV1>(KEY);
    let migrated = false;
    if (saved && saved.version === 2 && typeof saved.current === 'string') {
      this.cur = restored(memento.get(conversationKey(saved.current))) ?? fresh(newId(), now(), t);
      this.past = strings(saved.history).flatMap((id) => restored(memento.get(conversationKey(id))) ?? []);
      this.readIndex(saved);
      this.dropped = typeof saved.dropped === 'number' && saved.dropped >= 0 ? saved.dropped : 0;
    } else if (saved && saved.version === 1 && isConversation(saved.current)) {
      this.cur = restored(saved.current)!;
      this.past = Array.isArray(saved.history) ? saved.history.flatMap((c) => restored(c) ?? []) : [];
      this.readIndex(saved);
      migrated = true;
    } else {
      this.cur = fresh(newId(), now(), t);
    }
    this.cur = settle(this.cur, t);
    this.past = this.past.filter((c) => c.id !== this.cur.id);
    for (const c of [this.cur, ...this.past]) this.sizes.set(c.id, jsonChars(c));
    this.enforceBounds();
    // The older layout is replaced by this one at once; otherwise only the conversation on screen
    // is written (settling an interrupted answer changed it), and the index, which names it.
    for (const c of migrated ? [this.cur, ...this.past] : [this.cur]) this.write(c);
    if (migrated && this.draftText) this.put(DRAFT_KEY, this.draftText);
    this.saveIndex();
  }

  get current(): StoredConversation {
    return this.cur;
  }
  get history(): readonly StoredConversation[] {
    return this.past;
  }
  get pendingContext(): ContextChip[] {
    return this.chips;
  }
  get draft(): string {
    return this.draftText;
  }
  get inputHistory(): string[] {
    return this.asked;
  }
  /** Conversations dropped so far to stay within HISTORY_MAX and MAX_STORED_CHARS. */
  get droppedConversations(): number {
    return this.dropped;
  }

  updateCurrent(patch: Partial<StoredConversation>): void {
    this.cur = { ...this.cur, ...patch, id: this.cur.id };
    this.saveConversation(this.cur);
  }

  /** The conversation on screen or in the history. */
  find(id: string): StoredConversation | undefined {
    return this.cur.id === id ? this.cur : this.past.find((h) => h.id === id);
  }

  /**
   * Updates a conversation wherever it is now. An answer can end after the user moved on to a
   * new conversation; its text and thread belong to the one it was asked in.
   */
  updateConversation(id: string, patch: Partial<StoredConversation>): void {
    if (this.cur.id === id) return this.updateCurrent(patch);
    const i = this.past.findIndex((h) => h.id === id);
    if (i < 0) return;
    const updated = { ...this.past[i]!, ...patch, id };
    this.past = this.past.map((h, k) => (k === i ? updated : h));
    this.saveConversation(updated);
  }

  threadOf(id: string): ThreadRef | undefined {
    const c = this.find(id);
    if (!c?.threadId) return undefined;
    return c.threadKey ? { threadId: c.threadId, threadKey: c.threadKey } : { threadId: c.threadId };
  }

  setThread(id: string, ref: ThreadRef | undefined): void {
    this.updateConversation(id, { threadId: ref?.threadId ?? null, threadKey: ref?.threadKey ?? null });
  }

  setPendingContext(chips: ContextChip[]): void {
    this.chips = chips;
    this.saveIndex();
  }

  setDraft(text: string): void {
    if (text === this.draftText) return;
    this.draftText = text;
    this.put(DRAFT_KEY, text);
  }

  pushInputHistory(question: string): void {
    const list = [...this.asked.filter((q) => q !== question), question].slice(-INPUT_HISTORY_MAX);
    let chars = 0;
    let from = list.length;
    while (from > 0 && chars + list[from - 1]!.length <= INPUT_HISTORY_MAX_CHARS) chars += list[--from]!.length;
    this.asked = list.slice(Math.min(from, list.length - 1));
    this.saveIndex();
  }

  /** The current conversation goes to the history (if it has anything in it). */
  startNewConversation(id: string): void {
    this.leaveCurrent(this.past);
    this.cur = fresh(id, this.now(), this.t);
    this.saveConversation(this.cur);
    this.saveIndex();
  }

  /** Reopens a past conversation; the one on screen goes to the history. */
  open(id: string): boolean {
    const found = this.past.find((h) => h.id === id);
    if (!found) return false;
    this.leaveCurrent(this.past.filter((h) => h.id !== id));
    this.cur = settle(found, this.t);
    this.saveConversation(this.cur);
    this.saveIndex();
    return true;
  }

  /** Puts the current conversation at the head of `rest` (or forgets it if empty): the new history. */
  private leaveCurrent(rest: StoredConversation[]): void {
    const { cur } = this;
    if (cur.turns.length) {
      this.past = [cur, ...rest.filter((h) => h.id !== cur.id)];
    } else {
      this.past = rest;
      this.forget(cur.id);
    }
    while (this.past.length > HISTORY_MAX) this.drop(this.past[this.past.length - 1]!.id);
  }

  private saveConversation(c: StoredConversation): void {
    this.sizes.set(c.id, jsonChars(c));
    if (this.enforceBounds()) this.saveIndex();
    // What the bounds left of it (the one on screen may have lost its oldest questions), unless
    // they dropped it altogether (an old conversation whose answer ended after the user moved on).
    const kept = this.find(c.id);
    if (kept) this.write(kept);
  }

  /**
   * Drops the oldest conversations until the stored ones fit in MAX_STORED_CHARS; if the one on
   * screen alone does not, its oldest questions. True when the history changed.
   */
  private enforceBounds(): boolean {
    let total = 0;
    for (const size of this.sizes.values()) total += size;
    let changed = false;
    while (total > MAX_STORED_CHARS && this.past.length > 0) {
      const oldest = this.past[this.past.length - 1]!;
      total -= this.sizes.get(oldest.id) ?? 0;
      this.drop(oldest.id);
      changed = true;
    }
    if (total > MAX_STORED_CHARS) {
      const turns = newestTurnsWithin(this.cur.turns, MAX_STORED_CHARS - 1024, this.t);
      if (turns) {
        this.cur = { ...this.cur, turns };
        this.sizes.set(this.cur.id, jsonChars(this.cur));
      }
    }
    return changed;
  }

  private drop(id: string): void {
    this.past = this.past.filter((h) => h.id !== id);
    this.forget(id);
    this.dropped++;
  }

  private forget(id: string): void {
    this.sizes.delete(id);
    this.put(conversationKey(id), undefined);
  }

  private write(c: StoredConversation): void {
    this.put(conversationKey(c.id), c);
  }

  private saveIndex(): void {
    const index: StoredIndex = {
      version: 2,
      current: this.cur.id,
      history: this.past.map((h) => h.id),
      pendingContext: this.chips,
      inputHistory: this.asked,
      dropped: this.dropped,
    };
    this.put(KEY, index);
  }

  private readIndex(saved: Partial<StoredIndex> | Partial<StoredStateV1>): void {
    this.chips = Array.isArray(saved.pendingContext) ? saved.pendingContext : [];
    const draft = 'draft' in saved ? saved.draft : this.memento.get<unknown>(DRAFT_KEY);
    this.draftText = typeof draft === 'string' ? draft : '';
    this.asked = strings(saved.inputHistory);
  }

  private put(key: string, value: unknown): void {
    void Promise.resolve(this.memento.update(key, value)).catch(() => {
      // Only fails while the host shuts down; the state in memory is still right.
    });
  }
}
