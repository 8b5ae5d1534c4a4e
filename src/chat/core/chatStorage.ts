import type { ThreadStorage } from '../../assistant/core/threads';
import type { ContextChip } from '../../common/protocol';
import type { StoredConversation } from './storedChats';

// What the chat asks of the place its conversations are kept. Two places keep them: files in the
// workspace's storage folder (FileChatStore, every window with a workspace) and, when a window has
// no such folder, workspaceState within today's bounds (ChatStore). The session, the turns and the
// history list see only this.

/** A past conversation as the history list shows it, without reading its file. */
export interface HistoryEntry {
  id: string;
  /** @userFacing The history list shows it. */
  title: string;
  createdAt: number;
  questions: number;
}

export interface ChatStorage extends ThreadStorage {
  /** Settles when the conversation on screen has been read back (and older ones moved, once). */
  readonly ready: Promise<void>;
  /** True once `ready` has settled: until then nothing may leave or replace the conversation on screen. */
  readonly loaded: boolean;
  readonly current: StoredConversation;
  readonly pendingContext: ContextChip[];
  readonly draft: string;
  readonly inputHistory: string[];
  /** The past conversations, newest first. */
  entries(): readonly HistoryEntry[];
  /** What the history list says of conversations it no longer has (removed by the limit, unreadable); undefined when none. */
  historyNote(): string | undefined;
  /** A conversation held in memory: the one on screen, or one an answer may still be writing to. */
  find(id: string): StoredConversation | undefined;
  /** Any conversation, the past ones read back; undefined when there is none (or it cannot be read). */
  read(id: string): Promise<StoredConversation | undefined>;
  updateCurrent(patch: Partial<StoredConversation>): void;
  updateConversation(id: string, patch: Partial<StoredConversation>): void;
  setPendingContext(chips: ContextChip[]): void;
  setDraft(text: string): void;
  pushInputHistory(question: string): void;
  startNewConversation(id: string): void;
  /** Reopens a past conversation; false when there is none by that id (or it cannot be read). */
  open(id: string): Promise<boolean>;
  /** Deletes a conversation, its file included; the one on screen is replaced by a new one. False when there was none. */
  remove(id: string): Promise<boolean>;
  /** Deletes every conversation, the one on screen included. */
  clear(): Promise<void>;
}
