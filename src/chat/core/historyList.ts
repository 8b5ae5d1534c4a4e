import type { HistoryEntry } from './chatStorage';
import { fileHistoryNote, HISTORY_LIMIT_DEFAULT, MAX_HISTORY_CHARS } from './historyLimits';
import type { StoredConversation } from './storedChats';

// The file store's list of past conversations, as its index in workspaceState keeps it: newest
// first, each with its size on disk, and how many left it without the user deleting them (removed
// past the limit, or unreadable). It decides which go when the limit is passed; the store deletes
// their files.

export interface IndexEntry extends HistoryEntry {
  /** Characters of its file. */
  size: number;
}

/** What the index in workspaceState holds of the list. */
export interface HistoryListState {
  history: IndexEntry[];
  /** Conversations removed by the limit so far. */
  dropped: number;
  /** Files that could not be read so far. */
  unreadable: number;
}

function isEntry(v: unknown): v is IndexEntry {
  const e = v as IndexEntry;
  return (
    !!e && typeof e === 'object' && typeof e.id === 'string' && typeof e.title === 'string' && typeof e.createdAt === 'number' && typeof e.size === 'number'
  );
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

export const entryOf = (c: StoredConversation, size: number): IndexEntry => ({
  id: c.id,
  title: c.title,
  createdAt: c.createdAt,
  questions: c.turns.length,
  size,
});

export class HistoryList {
  private list: IndexEntry[] = [];
  private dropped = 0;
  private unreadable = 0;

  constructor(
    public limit = HISTORY_LIMIT_DEFAULT,
    private readonly maxChars = MAX_HISTORY_CHARS,
  ) {}

  /** Takes what an index read back from workspaceState holds, well-formed parts only. */
  restore(saved: Partial<HistoryListState>): void {
    this.list = Array.isArray(saved.history) ? saved.history.filter(isEntry) : [];
    this.dropped = count(saved.dropped);
    this.unreadable = count(saved.unreadable);
  }

  state(): HistoryListState {
    return { history: this.list, dropped: this.dropped, unreadable: this.unreadable };
  }

  get entries(): readonly IndexEntry[] {
    return this.list;
  }

  has(id: string): boolean {
    return this.list.some((e) => e.id === id);
  }

  /** Puts the entry first (the newest), in place of any with its id. */
  addNewest(entry: IndexEntry): void {
    this.list = [entry, ...this.list.filter((e) => e.id !== entry.id)];
  }

  /** Adds entries found besides the index, each where its time puts it. */
  addFound(entries: readonly IndexEntry[]): void {
    if (entries.length) this.list = [...this.list, ...entries].sort((a, b) => b.createdAt - a.createdAt);
  }

  /** Adds older entries after the rest (moved from workspaceState, already newest first). */
  addOlder(entries: readonly IndexEntry[]): void {
    this.list = [...this.list, ...entries];
  }

  replace(entry: IndexEntry): void {
    this.list = this.list.map((e) => (e.id === entry.id ? entry : e));
  }

  /** Takes it out of the list; false when it was not in it. */
  remove(id: string): boolean {
    const before = this.list.length;
    this.list = this.list.filter((e) => e.id !== id);
    return this.list.length < before;
  }

  /** Takes out (when listed) what could not be read, counted for the note. */
  skip(ids: readonly string[]): void {
    for (const id of ids) {
      this.remove(id);
      this.unreadable++;
    }
  }

  /** The user deleted them all: nothing is missing that the note should mention. */
  clear(): void {
    this.list = [];
    this.dropped = 0;
    this.unreadable = 0;
  }

  /** The oldest past the limit or the size cap (with `currentSize` on screen), taken out and counted; their ids. */
  enforce(currentSize: number): string[] {
    let total = currentSize;
    for (const e of this.list) total += e.size;
    const removed: string[] = [];
    while (this.list.length > 0 && (this.list.length > this.limit || total > this.maxChars)) {
      const oldest = this.list[this.list.length - 1]!;
      this.list = this.list.slice(0, -1);
      total -= oldest.size;
      this.dropped++;
      removed.push(oldest.id);
    }
    return removed;
  }

  note(t: Parameters<typeof fileHistoryNote>[3]): string | undefined {
    return fileHistoryNote(this.dropped, this.unreadable, this.limit, t);
  }
}
