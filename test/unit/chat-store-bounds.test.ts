import * as assert from 'node:assert/strict';
import { emptyAnswer } from '../../src/chat/core/answerView';
import { ChatStore, historyNote, MAX_STORED_CHARS } from '../../src/chat/core/chatStore';
import { english } from '../../src/common/l10n';
import type { Memento } from '../../src/common/memento';
import type { AnswerView, TurnView } from '../../src/common/protocol';
import { testChatSession } from '../api/testChatSession';
import { wordStream } from './wordStream';

// Issue 16, item 8: up to 20 conversations were rewritten to workspaceState every 250 ms while an
// answer streamed, and what was stored had no bound. Now a save writes only the conversation that
// changed, the stored conversations stay within MAX_STORED_CHARS (the oldest go first, and the
// history list says so), and a window reloaded mid-answer still finds what was shown.

/** workspaceState as VS Code keeps it (values round-trip through JSON), counting what is written. */
class CountingMemento implements Memento {
  readonly data = new Map<string, string>();
  written = 0;
  writes: string[] = [];
  get<T>(key: string): T | undefined {
    const raw = this.data.get(key);
    return raw === undefined ? undefined : (JSON.parse(raw) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.writes.push(key);
    if (value === undefined) {
      this.data.delete(key);
      return;
    }
    const json = JSON.stringify(value);
    this.written += json.length;
    this.data.set(key, json);
  }
  get stored(): number {
    let n = 0;
    for (const v of this.data.values()) n += v.length;
    return n;
  }
  copy(): CountingMemento {
    const m = new CountingMemento();
    for (const [k, v] of this.data) m.data.set(k, v);
    return m;
  }
}

let ids = 0;
const newId = (): string => `c${(ids++).toString(36)}`;

const answer = (text: string, extra: Partial<AnswerView> = {}): AnswerView => ({ ...emptyAnswer(), status: 'done', parts: [{ kind: 'text', text }], ...extra });
const turn = (id: string, question: string, text: string, extra: Partial<AnswerView> = {}): TurnView => ({
  id,
  question,
  context: [],
  answer: answer(text, extra),
});

/** Fills the store with `n` finished conversations of about `chars` characters each. */
function fill(store: ChatStore, n: number, chars: number): string[] {
  const made: string[] = [];
  for (let i = 0; i < n; i++) {
    store.updateCurrent({ title: `conversation ${i}`, turns: [turn(`t${i}`, `question ${i}`, 'x'.repeat(chars))] });
    made.push(store.current.id);
    store.startNewConversation(newId());
  }
  return made;
}

describe('stored conversations are bounded, and a save writes only what changed (issue 16)', () => {
  it('while an answer streams, each save writes that conversation alone, not the history', async () => {
    const memento = new CountingMemento();
    const store = new ChatStore(memento, newId);
    fill(store, 19, 50_000);
    let clock = 0;
    const chunks = 200;
    // Every chunk comes after the 250 ms save interval.
    const client = wordStream(chunks, () => (clock += 300));
    const session = testChatSession({
      store,
      client: async () => client,
      now: () => clock,
      schedule: (fn) => fn(),
    });
    const before = memento.written;
    await session.ask('How do I configure webhooks?');
    while (session.busy) await new Promise((r) => setImmediate(r));
    const perSave = (memento.written - before) / chunks;
    assert.ok(
      perSave < 20_000,
      `${Math.round(perSave)} characters written per save, with ${store.history.length} conversations of 50,000 characters in the history`,
    );
    assert.equal(store.current.turns[0]!.answer.status, 'done');
  });

  it(`the oldest conversations are dropped first to keep the stored chats within ${MAX_STORED_CHARS / 1024 / 1024} MB; a new window finds the same`, () => {
    const memento = new CountingMemento();
    const store = new ChatStore(memento, newId);
    const made = fill(store, 12, 600_000);
    assert.ok(memento.stored <= MAX_STORED_CHARS, `${memento.stored} characters stored`);
    const kept = store.history.map((h) => h.id);
    assert.ok(kept.length >= 5 && kept.length < 12, `${kept.length} conversations kept`);
    assert.deepEqual(kept, made.slice(-kept.length).reverse(), 'the newest are kept, newest first');
    assert.equal(store.droppedConversations, 12 - kept.length);
    const reloaded = new ChatStore(memento.copy(), newId);
    assert.deepEqual(
      reloaded.history.map((h) => h.id),
      kept,
    );
    assert.equal(reloaded.droppedConversations, 12 - kept.length);
    assert.equal(reloaded.history[0]!.turns[0]!.answer.parts.length, 1);
  });

  it('typing (the draft saved as the user types) writes the draft alone, and a new window finds it', () => {
    const memento = new CountingMemento();
    const store = new ChatStore(memento, newId);
    fill(store, 10, 50_000);
    const before = memento.written;
    store.setDraft('How do I rot');
    store.setDraft('How do I rotate a key?');
    assert.ok(memento.written - before < 100, `${memento.written - before} characters written for two drafts`);
    assert.equal(new ChatStore(memento.copy(), newId).draft, 'How do I rotate a key?');
  });

  it('the history list says that older conversations were dropped', () => {
    assert.equal(historyNote(0, english), undefined);
    assert.equal(historyNote(1, english), '1 older conversation was dropped: Docs Assistant keeps the 20 most recent, in about 4 MB.');
    assert.equal(historyNote(7, english), '7 older conversations were dropped: Docs Assistant keeps the 20 most recent, in about 4 MB.');
  });

  it('more than 20 conversations: the oldest are dropped, and counted', () => {
    const store = new ChatStore(new CountingMemento(), newId);
    fill(store, 23, 10);
    assert.equal(store.history.length, 20);
    assert.equal(store.droppedConversations, 3);
  });

  it('a conversation that alone outgrows the bound loses its oldest questions, and its first kept answer says so', () => {
    const memento = new CountingMemento();
    const store = new ChatStore(memento, newId);
    const turns = Array.from({ length: 6 }, (_, i) => turn(`t${i}`, `question ${i}`, 'y'.repeat(1_000_000)));
    store.updateCurrent({ turns });
    assert.ok(memento.stored <= MAX_STORED_CHARS, `${memento.stored} characters stored`);
    const left = store.current.turns;
    assert.ok(left.length >= 2 && left.length < 6);
    assert.equal(left.at(-1)!.id, 't5', 'the newest question stays');
    assert.match(left[0]!.answer.notices.at(-1)!, /^Earlier questions of this conversation were dropped: Docs Assistant keeps about 4 MB of conversations\.$/);
  });

  it('a conversation stored before this version is read, and then kept in the new form', () => {
    const memento = new CountingMemento();
    const old = { id: 'old-1', title: 'Webhooks', createdAt: 1, turns: [turn('t1', 'How?', 'Like this.')], threadId: 'thr_1', threadKey: 'tk_1' };
    const current = {
      id: 'cur-1',
      title: 'Keys',
      createdAt: 2,
      turns: [turn('t2', 'Keys?', 'Streaming…', { status: 'streaming' })],
      threadId: null,
      threadKey: null,
    };
    memento.data.set(
      'docsAssistant.chat',
      JSON.stringify({ version: 1, current, history: [old], pendingContext: [], draft: 'half a question', inputHistory: ['How?', 'Keys?'] }),
    );
    const store = new ChatStore(memento, newId);
    assert.equal(store.current.id, 'cur-1');
    assert.equal(store.current.turns[0]!.answer.status, 'stopped', 'an answer that was streaming comes back stopped');
    assert.deepEqual(
      store.history.map((h) => [h.id, h.threadId, h.threadKey]),
      [['old-1', 'thr_1', 'tk_1']],
    );
    assert.equal(store.draft, 'half a question');
    assert.deepEqual(store.inputHistory, ['How?', 'Keys?']);
    const again = new ChatStore(memento.copy(), newId);
    assert.deepEqual(
      again.history.map((h) => h.id),
      ['old-1'],
    );
    assert.equal(again.current.id, 'cur-1');
  });

  it('a stored answer from before source links were checked comes back without its script link', () => {
    const memento = new CountingMemento();
    const sources = [
      { url: 'javascript:alert(1)', title: 'Run me' },
      { url: 'https://docs.example.com/a', title: 'A' },
    ];
    const current = { id: 'cur-1', title: 'x', createdAt: 2, turns: [turn('t2', 'q', 'a', { sources })], threadId: null, threadKey: null };
    memento.data.set('docsAssistant.chat', JSON.stringify({ version: 1, current, history: [], pendingContext: [], draft: '', inputHistory: [] }));
    const store = new ChatStore(memento, newId);
    assert.deepEqual(store.current.turns[0]!.answer.sources, [{ title: 'Run me' }, { url: 'https://docs.example.com/a', title: 'A' }]);
  });
});
