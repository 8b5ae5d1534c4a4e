import { english, type Translate } from '../../common/l10n';
import type { Memento } from '../../common/memento';
import type { ContextChip } from '../../common/protocol';
import type { ChatFiles } from './chatFiles';
import { finishMove, tryMoveToFiles } from './chatMigration';
import type { ChatStorage, HistoryEntry } from './chatStorage';
import { ConversationFiles } from './conversationFiles';
import { entryOf, HistoryList, type HistoryListState } from './historyList';
import { DRAFT_KEY, strings, type MementoChats } from './mementoLayout';
import { fresh, jsonChars, settle, type StoredConversation } from './storedChats';
import { StoredChatState } from './storedChatState';

// The chat's conversations as files, one each, in the workspace's storage folder (ChatFiles), and a
// small index in workspaceState: the one on screen, the past ones' titles, times and sizes
// (HistoryList), chips and remembered questions. Only the conversation on screen is in memory (and
// the one just left, which an answer may still be finishing); a past one is read when opened,
// exported or searched. While an answer streams, its file alone is written. Everything the user did
// not delete is kept, up to the history limit; a file that cannot be read is set aside and counted.

interface FileIndex extends HistoryListState {
  version: 3;
  current: string;
  pendingContext: ContextChip[];
  inputHistory: string[];
}

export const FILE_INDEX_KEY = 'docsAssistant.chat.files';

export interface FileChatStoreOptions {
  newId: () => string;
  /** Words what the store adds (a new conversation's title, notices): vscode.l10n.t in the extension. */
  t?: Translate;
  now?: () => number;
  /** docsAssistant.chat.historyLimit, read through historyLimitOf. */
  limit?: number;
  /** The most all conversations may take on disk, in characters; MAX_HISTORY_CHARS unless a test says less. */
  maxChars?: number;
  /** A file that could not be written, read or deleted (never a conversation's text): for the log. */
  logFailure?: (what: string, err: unknown) => void;
}

export class FileChatStore extends StoredChatState implements ChatStorage {
  readonly ready: Promise<void>;
  loaded = false;
  /** Characters of the current conversation's file, as of its last save. */
  private curSize = 0;
  /** The conversation just left, while an answer may still be finishing in it. */
  private previous: StoredConversation | undefined;
  private readonly past: HistoryList;
  private readonly files: ConversationFiles;
  private readonly t: Translate;
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(memento: Memento, files: ChatFiles, options: FileChatStoreOptions) {
    super(memento);
    this.t = options.t ?? english;
    this.now = options.now ?? Date.now;
    this.newId = options.newId;
    this.past = new HistoryList(options.limit, options.maxChars);
    this.files = new ConversationFiles(files, options.logFailure ?? (() => undefined));
    const index = memento.get<Partial<FileIndex>>(FILE_INDEX_KEY);
    // Until its file is read (`ready`), the conversation on screen is an empty one with its id.
    this.cur = fresh(index?.version === 3 && typeof index.current === 'string' ? index.current : this.newId(), this.now(), this.t);
    if (index?.version === 3) {
      this.past.restore(index);
      this.chips = Array.isArray(index.pendingContext) ? index.pendingContext : [];
      this.asked = strings(index.inputHistory);
    }
    const draft = memento.get<unknown>(DRAFT_KEY);
    this.draftText = typeof draft === 'string' ? draft : '';
    this.ready = this.load()
      // Never a crash: what could not be read is skipped, and the chat starts from what there is.
      .catch((err: unknown) => this.files.report('load', err))
      .finally(() => (this.loaded = true));
  }

  entries(): readonly HistoryEntry[] {
    return this.past.entries;
  }

  historyNote(): string | undefined {
    return this.past.note(this.t);
  }

  /** Every write and delete asked for so far, done (tests, and the host shutting down). */
  settled(): Promise<void> {
    return this.files.settled();
  }

  /** A new docsAssistant.chat.historyLimit: past it, the oldest go now. */
  setLimit(limit: number): void {
    this.past.limit = limit;
    if (this.enforceLimit()) void this.saveIndex();
  }

  find(id: string): StoredConversation | undefined {
    if (this.cur.id === id) return this.cur;
    return this.previous?.id === id ? this.previous : undefined;
  }

  async read(id: string): Promise<StoredConversation | undefined> {
    const held = this.find(id);
    if (held) return held;
    if (!this.past.has(id)) return undefined;
    const r = await this.files.read(id);
    if (r.kind === 'ok') return r.conversation;
    // Deleted meanwhile, or damaged: either way no longer in the history.
    if (r.kind === 'damaged') await this.skipDamaged(id);
    else this.past.remove(id);
    void this.saveIndex();
    return undefined;
  }

  updateCurrent(patch: Partial<StoredConversation>): void {
    this.cur = { ...this.cur, ...patch, id: this.cur.id };
    this.curSize = this.files.save(this.cur);
  }

  /** Updates a conversation wherever it is now: an answer can end after the user moved on. */
  updateConversation(id: string, patch: Partial<StoredConversation>): void {
    if (this.cur.id === id) return this.updateCurrent(patch);
    if (this.previous?.id !== id) return;
    this.previous = { ...this.previous, ...patch, id };
    const size = this.files.save(this.previous);
    if (this.past.has(id)) {
      this.past.replace(entryOf(this.previous, size));
      void this.saveIndex();
    }
  }

  startNewConversation(id: string): void {
    this.leaveCurrent();
    this.replaceCurrent(fresh(id, this.now(), this.t));
  }

  async open(id: string): Promise<boolean> {
    if (id === this.cur.id) return true;
    const found = await this.read(id);
    if (!found) return false;
    this.past.remove(id);
    this.leaveCurrent();
    this.replaceCurrent(settle(found, this.t));
    return true;
  }

  async remove(id: string): Promise<boolean> {
    if (this.previous?.id === id) this.previous = undefined;
    if (id === this.cur.id) this.replaceCurrent(fresh(this.newId(), this.now(), this.t));
    else if (this.past.remove(id)) void this.saveIndex();
    else return false;
    await this.files.remove(id);
    return true;
  }

  async clear(): Promise<void> {
    this.previous = undefined;
    this.past.clear();
    this.replaceCurrent(fresh(this.newId(), this.now(), this.t));
    await this.files.removeAll();
  }

  private replaceCurrent(c: StoredConversation): void {
    this.cur = c;
    this.curSize = c.turns.length ? jsonChars(c) : 0;
    void this.saveIndex();
  }

  private async load(): Promise<void> {
    const known = new Set(this.past.entries.map((e) => e.id));
    // When the move fails, nothing was deleted: the next start moves them again.
    const { moved, failed } = await tryMoveToFiles(this.memento, this.files);
    if (moved) this.takeMoved(moved, known);
    const listing = await this.files.list();
    if (listing) await this.files.sweep(listing.leftovers);
    await this.loadCurrent();
    if (listing) {
      await this.adopt(listing.ids);
      // A past conversation whose file is gone cannot be opened: it leaves the list, counted.
      const onDisk = new Set(listing.ids);
      this.past.skip(this.past.entries.filter((e) => !onDisk.has(e.id)).map((e) => e.id));
    }
    this.enforceLimit();
    await this.saveIndex();
    if (!failed) await finishMove(this.memento, moved).catch((err: unknown) => this.files.report('move', err));
  }

  /** What workspaceState held before the upgrade joins the index; what was on screen stays on screen. */
  private takeMoved(moved: MementoChats, known: ReadonlySet<string>): void {
    this.chips = moved.pendingContext;
    this.asked = moved.inputHistory;
    if (!this.draftText) this.draftText = moved.draft;
    const older = moved.history.filter((c) => !known.has(c.id) && c.id !== moved.current?.id);
    this.past.addOlder(older.map((c) => entryOf(c, jsonChars(c))));
    if (moved.current) this.cur = fresh(moved.current.id, this.now(), this.t);
  }

  /** Reads the conversation on screen back; an answer that was streaming comes back stopped. */
  private async loadCurrent(): Promise<void> {
    const id = this.cur.id;
    this.past.remove(id);
    const r = await this.files.read(id);
    if (r.kind === 'ok') {
      this.cur = settle(r.conversation, this.t);
      this.curSize = this.cur === r.conversation ? r.size : this.files.save(this.cur);
    } else if (r.kind === 'damaged') {
      await this.skipDamaged(id);
      this.cur = fresh(this.newId(), this.now(), this.t);
    }
  }

  /** Files the index does not name (the index was written before them, or lost): they join the history. */
  private async adopt(ids: readonly string[]): Promise<void> {
    const { found, damaged } = await this.files.readUnknown(ids, new Set([this.cur.id, ...this.past.entries.map((e) => e.id)]));
    this.past.addFound(found.filter((r) => r.conversation.turns.length).map((r) => entryOf(r.conversation, r.size)));
    for (const id of damaged) await this.skipDamaged(id);
  }

  private async skipDamaged(id: string): Promise<void> {
    this.past.skip([id]);
    await this.files.setAside(id);
  }

  /** The conversation on screen goes to the history if it has anything in it; an empty one is forgotten. */
  private leaveCurrent(): void {
    const { cur } = this;
    this.previous = cur;
    if (cur.turns.length) {
      this.past.addNewest(entryOf(cur, this.curSize || jsonChars(cur)));
      this.enforceLimit();
    } else {
      void this.files.remove(cur.id);
    }
  }

  /** Removes the oldest past conversations beyond the limit, and their files. True when any went. */
  private enforceLimit(): boolean {
    const removed = this.past.enforce(this.curSize);
    for (const id of removed) {
      if (this.previous?.id === id) this.previous = undefined;
      void this.files.remove(id);
    }
    return removed.length > 0;
  }

  protected saveIndex(): Promise<void> {
    const index: FileIndex = { version: 3, current: this.cur.id, ...this.past.state(), pendingContext: this.chips, inputHistory: this.asked };
    return this.put(FILE_INDEX_KEY, index);
  }
}
