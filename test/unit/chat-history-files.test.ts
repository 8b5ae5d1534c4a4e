import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { AssembledMessage, AssistantStreamEvent } from '../../src/api/types';
import { createEmptyMessage, reduceChunk } from '../../src/api/reducer';
import type { AssistantLike } from '../../src/assistant/core/assistant';
import { emptyAnswer } from '../../src/chat/core/answerView';
import { MIGRATED_KEY } from '../../src/chat/core/chatMigration';
import { ChatStore } from '../../src/chat/core/chatStore';
import { FILE_INDEX_KEY, FileChatStore, type FileChatStoreOptions } from '../../src/chat/core/fileChatStore';
import { historyLimitOf } from '../../src/chat/core/historyLimits';
import { scanHistory } from '../../src/chat/core/historySearch';
import { chatStorageFor } from '../../src/chat/core/storageChoice';
import type { StoredConversation } from '../../src/chat/core/storedChats';
import type { TurnView } from '../../src/common/protocol';
import { MemoryMemento } from '../api/helpers';
import { testChatSession } from '../api/testChatSession';
import { MemoryChatFiles } from './memoryChatFiles';
import { wordStream } from './wordStream';

// Issue 33: the chat kept the 20 most recent conversations in about 4 MB of workspaceState, and
// silently lost the rest. Now every conversation is a file in the workspace's storage folder
// (FileChatStore over ChatFiles), written atomically; only a small index stays in workspaceState.
// Everything the user did not delete is kept up to docsAssistant.chat.historyLimit; a damaged file
// is skipped with a note; the conversations of workspaceState move to files once.

let ids = 0;
const newId = (): string => `c${(ids++).toString(36)}`;
let clock = 1_000_000;
const now = (): number => (clock += 1000);

const turn = (id: string, question: string, text: string): TurnView => ({
  id,
  question,
  context: [],
  answer: { ...emptyAnswer(), status: 'done', parts: [{ kind: 'text', text }] },
});

interface Disk {
  memento: MemoryMemento;
  files: MemoryChatFiles;
}

const disk = (): Disk => ({ memento: new MemoryMemento(), files: new MemoryChatFiles() });

/** What a new window finds: the same workspaceState and the same folder. */
function copy(d: Disk): Disk {
  const files = new MemoryChatFiles();
  for (const [k, v] of d.files.files) files.files.set(k, v);
  return { memento: d.memento.copy(), files };
}

async function open(d: Disk, options: Partial<FileChatStoreOptions> = {}): Promise<FileChatStore> {
  const store = new FileChatStore(d.memento, d.files, { newId, now, ...options });
  await store.ready;
  return store;
}

/** `n` finished conversations, oldest first; returns their ids. */
async function converse(store: FileChatStore, n: number, label = 'conversation', chars = 20): Promise<string[]> {
  const made: string[] = [];
  for (let i = 0; i < n; i++) {
    store.updateCurrent({ title: `${label} ${i}`, turns: [turn(`t${i}`, `${label} question ${i}`, `${label} answer ${i} ${'x'.repeat(chars)}`)] });
    made.push(store.current.id);
    store.startNewConversation(newId());
  }
  await store.settled();
  return made;
}

const conversationFiles = (files: MemoryChatFiles): string[] => [...files.files.keys()].filter((n) => /^[\w-]+\.json$/.test(n) && !n.includes('.damaged'));
const parsed = (files: MemoryChatFiles, id: string): StoredConversation => JSON.parse(files.files.get(`${id}.json`)!) as StoredConversation;
const answerText = (c: StoredConversation | undefined): string | undefined => {
  const part = c?.turns[0]?.answer.parts[0];
  return part?.kind === 'text' ? part.text : undefined;
};

describe('conversations are kept as files, everything the user did not delete (issue 33)', () => {
  it('25 conversations (past the old 20) are all kept, one file each; a new window lists and reads them all', async () => {
    const d = disk();
    const made = await converse(await open(d), 25);
    assert.equal(conversationFiles(d.files).length, 25);
    const again = await open(copy(d));
    assert.deepEqual(
      again.entries().map((e) => e.id),
      [...made].reverse(),
    );
    assert.equal(answerText(await again.read(made[0]!)), `conversation answer 0 ${'x'.repeat(20)}`);
    assert.equal(again.historyNote(), undefined, 'nothing was dropped');
    // workspaceState holds the index, never a conversation's text.
    assert.ok(![...d.memento.data.values()].some((v) => v.includes('conversation answer')), 'no answer text in workspaceState');
  });

  describe('atomic writes', () => {
    /** A store whose conversation on screen has been saved once, with `text` as its answer. */
    async function savedOnce(text: string): Promise<{ d: Disk; store: FileChatStore; id: string }> {
      const d = disk();
      const store = await open(d);
      store.updateCurrent({ title: 'Keys', turns: [turn('t1', 'Keys?', text)] });
      await store.settled();
      return { d, store, id: store.current.id };
    }

    it('a conversation is written to a temporary file and renamed over its file, never written in place', async () => {
      const { d, id } = await savedOnce('first');
      assert.ok(d.files.ops.includes(`write ${id}.json.tmp`), d.files.ops.join('\n'));
      assert.ok(d.files.ops.includes(`rename ${id}.json.tmp ${id}.json`));
      assert.ok(!d.files.ops.includes(`write ${id}.json`), 'the file itself is never written in place');
    });

    it('a window closed mid-write leaves the previous version whole; the next window reads it and sweeps the half-written file', async () => {
      const { d, store, id } = await savedOnce('the first, complete answer');
      d.files.tearNextWrite = (name) => name.startsWith(id);
      store.updateCurrent({ turns: [turn('t1', 'Keys?', 'a second answer, cut short by the window closing')] });
      await store.settled();
      assert.equal(answerText(parsed(d.files, id)), 'the first, complete answer');
      const next = copy(d);
      assert.ok(next.files.files.has(`${id}.json.tmp`), 'the half-written file is there');
      const again = await open(next);
      assert.equal(again.current.id, id);
      assert.equal(answerText(again.current), 'the first, complete answer');
      assert.equal(again.historyNote(), undefined);
      assert.ok(!next.files.files.has(`${id}.json.tmp`), 'and is swept');
    });

    it('while an answer streams, only its own file is written, at most once per 250 ms', async () => {
      const d = disk();
      const store = await open(d);
      await converse(store, 30);
      const before = d.files.ops.length;
      let t = 0;
      const chunks = 200;
      const client = wordStream(chunks, () => (t += 100));
      const session = testChatSession({ store, client: async () => client, now: () => t, schedule: (fn) => fn() });
      await session.ask('How do I configure webhooks?');
      while (session.busy) await new Promise((r) => setImmediate(r));
      await store.settled();
      const writes = d.files.ops.slice(before).filter((op) => op.startsWith('write '));
      const id = store.current.id;
      assert.deepEqual([...new Set(writes)], [`write ${id}.json.tmp`], 'no other conversation is written');
      assert.ok(writes.length <= (chunks * 100) / 250 + 5, `${writes.length} writes for ${chunks} chunks over ${chunks * 100} ms`);
      assert.equal(parsed(d.files, id).turns[0]!.answer.status, 'done');
    });
  });

  describe('damaged files', () => {
    it('a damaged past conversation is skipped with a note, set aside, and the rest still open', async () => {
      const d = disk();
      const made = await converse(await open(d), 3);
      d.files.files.set(`${made[1]}.json`, '{"id":"' + made[1] + '","title":"half a');
      const store = await open(copy(d));
      const next = store as FileChatStore;
      assert.equal(await next.open(made[1]!), false, 'it cannot be opened, and nothing throws');
      assert.deepEqual(
        next.entries().map((e) => e.id),
        [made[2], made[0]],
      );
      assert.equal(next.historyNote(), '1 conversation could not be read (its file is missing or damaged) and was skipped.');
      assert.equal(await next.open(made[0]!), true);
      assert.equal(answerText(next.current), `conversation answer 0 ${'x'.repeat(20)}`);
    });

    it('a damaged conversation on screen, or a file that is not a conversation: a new window starts afresh, and the history loads', async () => {
      const d = disk();
      const store = await open(d);
      const made = await converse(store, 2);
      store.updateCurrent({ title: 'on screen', turns: [turn('t9', 'q', 'a')] });
      await store.settled();
      const next = copy(d);
      next.files.files.set(`${store.current.id}.json`, '{"id":"' + store.current.id + '","turns":[{"id":"t9","quest');
      next.files.files.set('stray-1.json', '[1, 2, 3]');
      const again = await open(next);
      assert.notEqual(again.current.id, store.current.id);
      assert.deepEqual(again.current.turns, []);
      assert.deepEqual(
        again.entries().map((e) => e.id),
        [...made].reverse(),
      );
      assert.equal(again.historyNote(), '2 conversations could not be read (their files are missing or damaged) and were skipped.');
      assert.ok(next.files.files.has(`${store.current.id}.damaged.json`), 'the damaged file is kept aside, not deleted');
      const third = await open(copy(next));
      assert.equal(third.entries().length, 2, 'a set-aside file is not read again');
    });
  });

  describe('moving the conversations of workspaceState to files', () => {
    // Written by the ChatStore of the version before files (layout 2): three past conversations,
    // one on screen whose answer was streaming, a chip, a draft and remembered questions.
    const fixture = JSON.parse(readFileSync(new URL('../fixtures/chat-history/workspace-state-v2.json', import.meta.url), 'utf8')) as Record<string, unknown>;
    const withFixture = (): Disk => {
      const d = disk();
      for (const [k, v] of Object.entries(fixture)) d.memento.data.set(k, JSON.stringify(v));
      return d;
    };

    it('every conversation moves to a file, nothing lost, and the old keys go', async () => {
      const d = withFixture();
      const store = await open(d);
      assert.equal(store.current.id, 'legacy-3', 'what was on screen is on screen');
      assert.equal(store.current.turns[0]!.answer.status, 'stopped', 'the answer that was streaming comes back stopped');
      assert.equal(answerText(store.current), 'Audit logs are kept for');
      assert.deepEqual(
        store.entries().map((e) => [e.id, e.title, e.questions]),
        [
          ['legacy-2', 'How do I paginate search results?', 1],
          ['legacy-1', 'Which regions host the API?', 1],
          ['legacy-0', 'How do I rotate a webhook secret?', 1],
        ],
      );
      const webhooks = await store.read('legacy-0');
      assert.equal(answerText(webhooks), 'Open Settings, then Webhooks, and choose Rotate secret.');
      assert.deepEqual([webhooks?.threadId, webhooks?.threadKey], ['thr_0', 'tk_0'], 'the thread goes with it');
      assert.equal(store.draft, 'and for how long?');
      assert.deepEqual(store.inputHistory, ['How do I rotate a webhook secret?', 'Where are audit logs kept?']);
      assert.deepEqual(
        store.pendingContext.map((c) => c.id),
        ['chip-1'],
      );
      assert.deepEqual(conversationFiles(d.files).sort(), ['legacy-0.json', 'legacy-1.json', 'legacy-2.json', 'legacy-3.json']);
      assert.deepEqual(
        [...d.memento.data.keys()].filter((k) => k === 'docsAssistant.chat' || k.startsWith('docsAssistant.chat.conversation.')),
        [],
        'the old keys are gone',
      );
      assert.equal(d.memento.get(MIGRATED_KEY), true);
      const again = await open(copy(d));
      assert.deepEqual(
        again.entries().map((e) => e.id),
        ['legacy-2', 'legacy-1', 'legacy-0'],
      );
      assert.equal(again.current.id, 'legacy-3');
    });

    it('runs once: conversations an older version writes to workspaceState afterwards are not moved again', async () => {
      const d = withFixture();
      await open(d);
      for (const [k, v] of Object.entries(fixture)) d.memento.data.set(k, JSON.stringify(v));
      d.files.files.delete('legacy-0.json');
      const again = await open(copy(d));
      assert.ok(!again.entries().some((e) => e.id === 'legacy-0'), 'the marker stops a second move');
    });

    it('a file that cannot be written stops the move with nothing deleted; the next start moves everything', async () => {
      const d = withFixture();
      d.files.failWrites = (name) => name.startsWith('legacy-1');
      const errors: string[] = [];
      await open(d, { logFailure: (what) => errors.push(what) });
      assert.deepEqual(errors, ['move']);
      assert.ok(d.memento.data.has('docsAssistant.chat'), 'the old index stays');
      assert.ok(d.memento.data.has('docsAssistant.chat.conversation.legacy-1'), 'and the conversation that did not move');
      assert.equal(d.memento.get(MIGRATED_KEY), undefined);
      const next = copy(d);
      const again = await open(next);
      assert.deepEqual(
        again.entries().map((e) => e.id),
        ['legacy-2', 'legacy-1', 'legacy-0'],
      );
      assert.equal(again.current.id, 'legacy-3');
      assert.equal(answerText(await again.read('legacy-1')), 'The API is served from eu-west and us-east.');
      assert.equal(next.memento.get(MIGRATED_KEY), true);
    });

    it('the layout before conversations had keys of their own (layout 1) moves too', async () => {
      const d = disk();
      const old = { id: 'old-1', title: 'Webhooks', createdAt: 1, turns: [turn('t1', 'How?', 'Like this.')], threadId: 'thr_1', threadKey: 'tk_1' };
      const current = { id: 'cur-1', title: 'Keys', createdAt: 2, turns: [turn('t2', 'Keys?', 'Rotate them.')], threadId: null, threadKey: null };
      await d.memento.update('docsAssistant.chat', { version: 1, current, history: [old], pendingContext: [], draft: 'half', inputHistory: ['How?'] });
      const store = await open(d);
      assert.equal(store.current.id, 'cur-1');
      assert.deepEqual(
        store.entries().map((e) => e.id),
        ['old-1'],
      );
      assert.equal(store.draft, 'half');
      assert.equal(answerText(await store.read('old-1')), 'Like this.');
    });
  });

  describe('the history limit', () => {
    it('past docsAssistant.chat.historyLimit the oldest go, their files deleted, and the history list says so', async () => {
      const d = disk();
      const store = await open(d, { limit: 5 });
      const made = await converse(store, 8);
      assert.deepEqual(
        store.entries().map((e) => e.id),
        made.slice(3).reverse(),
      );
      assert.deepEqual(
        conversationFiles(d.files).sort(),
        made
          .slice(3)
          .map((id) => `${id}.json`)
          .sort(),
      );
      const note = '3 older conversations were removed: Docs Assistant keeps the 5 most recent (docsAssistant.chat.historyLimit), in at most 200 MB.';
      assert.equal(store.historyNote(), note);
      assert.equal((await open(copy(d), { limit: 5 })).historyNote(), note, 'a new window says the same');
    });

    it('a lower limit set later removes the oldest at once', async () => {
      const d = disk();
      const store = await open(d);
      const made = await converse(store, 6);
      store.setLimit(historyLimitOf(2));
      await store.settled();
      assert.deepEqual(
        store.entries().map((e) => e.id),
        made.slice(4).reverse(),
      );
      assert.equal(conversationFiles(d.files).length, 2);
    });

    it('past the size cap the oldest go, however few there are', async () => {
      const d = disk();
      const store = await open(d, { maxChars: 10_000 });
      await converse(store, 6, 'big', 3_000);
      assert.ok(store.entries().length >= 2 && store.entries().length <= 3, `${store.entries().length} kept`);
      assert.match(store.historyNote()!, /^\d older conversations were removed/);
    });

    it('the setting is read as a whole number within bounds, and 1,000 by default', () => {
      assert.equal(historyLimitOf(undefined), 1000);
      assert.equal(historyLimitOf('50'), 1000);
      assert.equal(historyLimitOf(0), 1);
      assert.equal(historyLimitOf(12.7), 12);
      assert.equal(historyLimitOf(1e9), 100_000);
    });
  });

  describe('deleting', () => {
    it('Delete Conversation removes its file; a new window does not bring it back', async () => {
      const d = disk();
      const store = await open(d);
      const made = await converse(store, 3);
      assert.equal(await store.remove(made[1]!), true);
      assert.ok(!d.files.files.has(`${made[1]}.json`));
      assert.deepEqual(
        store.entries().map((e) => e.id),
        [made[2], made[0]],
      );
      const again = await open(copy(d));
      assert.deepEqual(
        again.entries().map((e) => e.id),
        [made[2], made[0]],
      );
      assert.equal(again.historyNote(), undefined);
      assert.equal(await again.remove('no-such-id'), false);
    });

    it('deleting the conversation on screen while its answer streams: a new one takes its place, and the answer does not write it back', async () => {
      const d = disk();
      const store = await open(d);
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const client: AssistantLike = {
        async *send(_req, opts): AsyncGenerator<AssistantStreamEvent, AssembledMessage> {
          const m = createEmptyMessage();
          reduceChunk(m, { type: 'text-start', id: 'a' });
          yield { type: 'chunk', chunk: { type: 'text-start', id: 'a' }, message: m };
          await gate;
          opts?.signal?.throwIfAborted();
          return m;
        },
      };
      let t = 0;
      const session = testChatSession({ store, client: async () => client, now: () => (t += 1000), schedule: (fn) => fn() });
      await session.ask('Where are audit logs kept?');
      const id = store.current.id;
      await store.settled();
      assert.ok(d.files.files.has(`${id}.json`));
      assert.equal(await session.deleteConversation(id), true);
      release();
      while (session.busy) await new Promise((r) => setImmediate(r));
      await store.settled();
      assert.notEqual(store.current.id, id);
      assert.deepEqual(store.current.turns, []);
      assert.ok(!d.files.files.has(`${id}.json`), 'the file stays deleted');
    });

    it('Clear Chat History removes every file, set-aside ones included', async () => {
      const d = disk();
      const store = await open(d);
      const made = await converse(store, 4);
      d.files.files.set(`${made[0]}.json`, '{"broken');
      await store.open(made[0]!);
      store.updateCurrent({ title: 'on screen', turns: [turn('t', 'q', 'a')] });
      await store.clear();
      assert.deepEqual([...d.files.files.keys()], []);
      assert.deepEqual(store.entries(), []);
      assert.deepEqual(store.current.turns, []);
      assert.equal(store.historyNote(), undefined);
      const again = await open(copy(d));
      assert.deepEqual(again.entries(), []);
    });
  });

  describe('searching the stored conversations', () => {
    it('finds a conversation behind 25 newer ones, reading one file at a time', async () => {
      const d = disk();
      const store = await open(d);
      store.updateCurrent({ title: 'Audit', turns: [turn('t', 'Where are audit logs kept?', 'Audit logs are kept for ninety days in the archive bucket.')] });
      const wanted = store.current.id;
      store.startNewConversation(newId());
      await converse(store, 25);
      const again = await open(copy(d));
      let reading = 0;
      let most = 0;
      const read = async (id: string) => {
        most = Math.max(most, ++reading);
        try {
          return await again.read(id);
        } finally {
          reading--;
        }
      };
      const hits = await scanHistory(again.entries(), read, 'ninety DAYS archive', () => false);
      assert.deepEqual(
        hits?.map((h) => [h.id, h.where]),
        [[wanted, 'answer']],
      );
      assert.match(hits![0]!.excerpt!, /ninety days in the archive bucket/);
      assert.equal(most, 1, 'one conversation read at a time');
    });

    it('shows the first results while it goes on: the first hit at once, then at most every 100 ms', async () => {
      const d = disk();
      const store = await open(d);
      const made = await converse(store, 30);
      let time = 0;
      let reads = 0;
      const seen: { reads: number; ids: string[] }[] = [];
      const hits = await scanHistory(
        store.entries(),
        async (id) => {
          reads++;
          time += 10; // each file takes 10 ms on this clock
          return store.read(id);
        },
        'conversation',
        () => false,
        { show: (h) => seen.push({ reads, ids: h.map((x) => x.id) }), now: () => time },
      );
      assert.equal(hits?.length, 30);
      assert.ok(seen.length >= 2, `partial results were shown: ${seen.length}`);
      assert.deepEqual(seen[0], { reads: 1, ids: [made[29]] }, 'the newest conversation, as soon as its file was read');
      // After the first, a partial list waits for 100 ms of the clock (10 files), so 30 files show 1 + 2 of them.
      assert.deepEqual(
        seen.map((s) => s.reads),
        [1, 11, 21],
      );
      for (const s of seen)
        assert.deepEqual(
          s.ids,
          hits!.slice(0, s.ids.length).map((h) => h.id),
          'each partial list is in the final order',
        );
    });

    it('the next keystroke cancels a search between files', async () => {
      const d = disk();
      const store = await open(d);
      await converse(store, 10);
      let reads = 0;
      let typed = false;
      const hits = await scanHistory(
        store.entries(),
        async (id) => {
          if (++reads === 3) typed = true;
          return store.read(id);
        },
        'conversation',
        () => typed,
      );
      assert.equal(hits, undefined);
      assert.equal(reads, 3, 'no file read after the cancel');
    });
  });

  describe('a window without a workspace storage folder', () => {
    it('keeps its conversations in workspaceState as before files: the 20 most recent, and says so', async () => {
      const memento = new MemoryMemento();
      const store = chatStorageFor(memento, undefined, { newId, now });
      assert.ok(store instanceof ChatStore);
      await store.ready;
      for (let i = 0; i < 23; i++) {
        store.updateCurrent({ title: `c${i}`, turns: [turn(`t${i}`, `q${i}`, `a${i}`)] });
        store.startNewConversation(newId());
      }
      assert.equal(store.entries().length, 20);
      assert.equal(store.historyNote(), '3 older conversations were dropped: Docs Assistant keeps the 20 most recent, in about 4 MB.');
      const oldest = store.entries().at(-1)!.id;
      assert.equal(await store.remove(oldest), true);
      assert.equal(store.entries().length, 19);
      assert.equal(memento.get(`docsAssistant.chat.conversation.${oldest}`), undefined, 'deleting works there too');
      assert.equal(memento.get(FILE_INDEX_KEY), undefined, 'no file index');
    });

    it('with a folder, the same calls keep all of them', async () => {
      const store = chatStorageFor(new MemoryMemento(), new MemoryChatFiles(), { newId, now });
      await store.ready;
      for (let i = 0; i < 23; i++) {
        store.updateCurrent({ title: `c${i}`, turns: [turn(`t${i}`, `q${i}`, `a${i}`)] });
        store.startNewConversation(newId());
      }
      assert.equal(store.entries().length, 23);
    });
  });
});
