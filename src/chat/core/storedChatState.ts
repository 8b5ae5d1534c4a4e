import type { ThreadRef } from '../../assistant/core/threads';
import type { Memento } from '../../common/memento';
import type { ContextChip } from '../../common/protocol';
import { DRAFT_KEY } from './mementoLayout';
import { threadRefOf, withQuestion, type StoredConversation } from './storedChats';

// What both chat stores keep the same way, wherever their conversations live: the conversation on
// screen, the composer's chips and draft, the remembered questions, and each conversation's thread.
// The draft has a workspaceState key of its own (saved as the user types); the rest goes in each
// store's own index (saveIndex).

export abstract class StoredChatState {
  protected cur!: StoredConversation;
  protected chips: ContextChip[] = [];
  protected draftText = '';
  protected asked: string[] = [];

  constructor(protected readonly memento: Memento) {}

  get current(): StoredConversation {
    return this.cur;
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

  abstract find(id: string): StoredConversation | undefined;
  abstract updateConversation(id: string, patch: Partial<StoredConversation>): void;
  protected abstract saveIndex(): void | Promise<void>;

  threadOf(id: string): ThreadRef | undefined {
    return threadRefOf(this.find(id));
  }

  setThread(id: string, ref: ThreadRef | undefined): void {
    this.updateConversation(id, { threadId: ref?.threadId ?? null, threadKey: ref?.threadKey ?? null });
  }

  setPendingContext(chips: ContextChip[]): void {
    this.chips = chips;
    void this.saveIndex();
  }

  setDraft(text: string): void {
    if (text === this.draftText) return;
    this.draftText = text;
    void this.put(DRAFT_KEY, text);
  }

  pushInputHistory(question: string): void {
    this.asked = withQuestion(this.asked, question);
    void this.saveIndex();
  }

  protected put(key: string, value: unknown): Promise<void> {
    return Promise.resolve(this.memento.update(key, value)).catch(() => {
      // Only fails while the host shuts down; the state in memory is still right.
    });
  }
}
