import type { ContextChip } from '../../common/protocol';
import type { Memento } from '../../common/memento';
import { safeTurn, type StoredConversation } from './storedChats';

// How the chat's conversations are laid out in workspaceState: by ChatStore (the bounded store,
// used when no workspace storage folder exists) and, before conversations moved to files, by every
// window. The file store's migration (chatMigration.ts) reads the same layouts, through here.

/** Layout 2: each conversation under a key of its own, beside this small index. */
export interface StoredIndex {
  version: 2;
  current: string;
  /** Newest first. */
  history: string[];
  pendingContext: ContextChip[];
  inputHistory: string[];
  /** Conversations dropped so far to stay within the bounds. */
  dropped: number;
}

/** Layout 1, before conversations had keys of their own: everything under one key. */
export interface StoredStateV1 {
  version: 1;
  current: StoredConversation;
  history: StoredConversation[];
  pendingContext: ContextChip[];
  draft: string;
  inputHistory: string[];
}

export const KEY = 'docsAssistant.chat';
/** The draft has a key of its own: it is saved as the user types, and nothing else need be. */
export const DRAFT_KEY = 'docsAssistant.chat.draft';
export const conversationKey = (id: string): string => `docsAssistant.chat.conversation.${id}`;

export function isConversation(v: unknown): v is StoredConversation {
  const c = v as StoredConversation;
  return !!c && typeof c === 'object' && typeof c.id === 'string' && Array.isArray(c.turns);
}

/** A conversation as read back: only well-formed, and safe to show (see safeTurn). */
export function restored(v: unknown): StoredConversation | undefined {
  if (!isConversation(v)) return undefined;
  return { ...v, turns: v.turns.map(safeTurn) };
}

export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/** What a window finds in workspaceState, in either layout; undefined when nothing is stored. */
export interface MementoChats {
  layout: 1 | 2;
  current: StoredConversation | undefined;
  /** Newest first. */
  history: StoredConversation[];
  pendingContext: ContextChip[];
  draft: string;
  inputHistory: string[];
  dropped: number;
}

export function readMementoChats(memento: Memento): MementoChats | undefined {
  const saved = memento.get<StoredIndex | StoredStateV1>(KEY);
  if (!saved || typeof saved !== 'object') return undefined;
  const chips = Array.isArray(saved.pendingContext) ? saved.pendingContext : [];
  if (saved.version === 2 && typeof saved.current === 'string') {
    const draft = memento.get<unknown>(DRAFT_KEY);
    return {
      layout: 2,
      current: restored(memento.get(conversationKey(saved.current))),
      history: strings(saved.history).flatMap((id) => restored(memento.get(conversationKey(id))) ?? []),
      pendingContext: chips,
      draft: typeof draft === 'string' ? draft : '',
      inputHistory: strings(saved.inputHistory),
      dropped: typeof saved.dropped === 'number' && saved.dropped >= 0 ? saved.dropped : 0,
    };
  }
  if (saved.version === 1 && isConversation(saved.current)) {
    return {
      layout: 1,
      current: restored(saved.current),
      history: Array.isArray(saved.history) ? saved.history.flatMap((c) => restored(c) ?? []) : [],
      pendingContext: chips,
      draft: typeof saved.draft === 'string' ? saved.draft : '',
      inputHistory: strings(saved.inputHistory),
      dropped: 0,
    };
  }
  return undefined;
}
