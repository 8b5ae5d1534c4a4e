import type { ChatStorage, HistoryEntry } from './chatStorage';
import { english, type Translate } from '../../common/l10n';
import { fresh, historyNote, HISTORY_MAX, jsonChars, MAX_STORED_CHARS, newestTurnsWithin, settle, type StoredConversation } from './storedChats';
import { conversationKey, DRAFT_KEY, KEY, readMementoChats, type StoredIndex } from './mementoLayout';
import type { Memento } from '../../common/memento';
import { StoredChatState } from './storedChatState';
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

export class ChatStore extends StoredChatState implements ChatStorage {
  /** Everything is read in the constructor. */
  readonly ready: Promise<void> = Promise.resolve();
  readonly loaded = true;
  /** Newest first. */
  private past: StoredConversation[] = [];
  private dropped = 0;
  /** Stored size of each conversation, as of its last save. */
  private readonly sizes = new Map<string, number>();

  constructor(
    memento: Memento,
    private readonly newId: () => string,
    /** Words what the store adds (a new conversation's title, notices): vscode.l10n.t in the extension. */
    private readonly t: Translate = english,
    private readonly now: () => number = Date.now,
  ) {
    super(memento);
    const saved = readMementoChats(memento);
    const migrated = saved?.layout === 1;
    this.cur = saved?.current ?? fresh(newId(), now(), t);
    if (saved) {
      this.past = saved.history;
      this.chips = saved.pendingContext;
      this.draftText = saved.draft;
      this.asked = saved.inputHistory;
      this.dropped = saved.dropped;
    }
    this.cur = settle(this.cur, t);
    this.past = this.past.filter((c) => c.id !== this.cur.id);
    for (const c of [this.cur, ...this.past]) this.sizes.set(c.id, jsonChars(c));
    this.enforceBounds();
    // The older layout is replaced by this one at once; otherwise only the conversation on screen
    // is written (settling an interrupted answer changed it), and the index, which names it.
    for (const c of migrated ? [this.cur, ...this.past] : [this.cur]) this.write(c);
    if (migrated && this.draftText) void this.put(DRAFT_KEY, this.draftText);
    this.saveIndex();
  }

  get history(): readonly StoredConversation[] {
    return this.past;
  }
  /** Conversations dropped so far to stay within HISTORY_MAX and MAX_STORED_CHARS. */
  get droppedConversations(): number {
    return this.dropped;
  }

  entries(): readonly HistoryEntry[] {
    return this.past.map((c) => ({ id: c.id, title: c.title, createdAt: c.createdAt, questions: c.turns.length }));
  }

  historyNote(): string | undefined {
    return historyNote(this.dropped, this.t);
  }

  read(id: string): Promise<StoredConversation | undefined> {
    return Promise.resolve(this.find(id));
  }

  /** Deletes a conversation; the one on screen is replaced by a new one. */
  remove(id: string): Promise<boolean> {
    if (id === this.cur.id) {
      this.forget(id);
      this.cur = fresh(this.newId(), this.now(), this.t);
    } else if (this.past.some((h) => h.id === id)) {
      this.past = this.past.filter((h) => h.id !== id);
      this.forget(id);
    } else {
      return Promise.resolve(false);
    }
    this.saveIndex();
    return Promise.resolve(true);
  }

  clear(): Promise<void> {
    for (const c of [this.cur, ...this.past]) this.forget(c.id);
    this.past = [];
    this.dropped = 0;
    this.cur = fresh(this.newId(), this.now(), this.t);
    this.saveIndex();
    return Promise.resolve();
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

  /** The current conversation goes to the history (if it has anything in it). */
  startNewConversation(id: string): void {
    this.leaveCurrent(this.past);
    this.cur = fresh(id, this.now(), this.t);
    this.saveConversation(this.cur);
    this.saveIndex();
  }

  /** Reopens a past conversation; the one on screen goes to the history. */
  open(id: string): Promise<boolean> {
    const found = this.past.find((h) => h.id === id);
    if (!found) return Promise.resolve(false);
    this.leaveCurrent(this.past.filter((h) => h.id !== id));
    this.cur = settle(found, this.t);
    this.saveConversation(this.cur);
    this.saveIndex();
    return Promise.resolve(true);
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
    void this.put(conversationKey(id), undefined);
  }

  private write(c: StoredConversation): void {
    void this.put(conversationKey(c.id), c);
  }

  protected saveIndex(): void {
    const index: StoredIndex = {
      version: 2,
      current: this.cur.id,
      history: this.past.map((h) => h.id),
      pendingContext: this.chips,
      inputHistory: this.asked,
      dropped: this.dropped,
    };
    void this.put(KEY, index);
  }
}
