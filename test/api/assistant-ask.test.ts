import * as assert from 'node:assert/strict';
import { AssistantClient, type RequestSettings } from '../../src/api';
import { noticesOf, partsOf, sourcesOf, type Answer } from '../../src/assistant/core/answer';
import { Assistant, type AnswerEvent } from '../../src/assistant/core/assistant';
import { said } from '../../src/assistant/core/assistant';
import { SessionThreads } from '../../src/assistant/core/sessionThreads';
import { notSetUpError, setupStatus } from '../../src/assistant/core/setupState';
import { ThreadStore, type ThreadRef, type ThreadStorage } from '../../src/assistant/core/threads';
import { ChatStore } from '../../src/chat/core/chatStore';
import { english } from '../../src/common/l10n';
import type { ContextChip } from '../../src/common/protocol';
import { startEmulator, type RunningEmulator } from '../emulator';
import { MemoryMemento } from './helpers';

// ask() (src/assistant/core/assistant.ts), the one way every surface asks the docs, against the
// emulator on 127.0.0.1 with the real client: the events it yields and their order, the request
// it builds, and the thread it keeps in the one ThreadStore, whichever surface's storage that is.

const SETTINGS: RequestSettings = { fp: 'fp-test', retrievalPageSize: 3, filter: null };
const QUESTION = 'How do I configure webhooks?';

describe('ask(): the one way to ask the docs, against the emulator', function () {
  this.timeout(20_000);
  let emu: RunningEmulator;

  before(async () => {
    emu = await startEmulator({ port: 0, deltaDelayMs: 5 });
  });
  after(() => emu.close());
  beforeEach(() => emu.reset());

  function assistant(apiKey = emu.assistantKey): Assistant {
    return new Assistant({
      client: async () => new AssistantClient({ baseUrl: emu.url, domain: emu.domain, apiKey, requestTimeoutMs: 3000, streamIdleTimeoutMs: 3000 }),
      settings: () => SETTINGS,
    });
  }

  async function all(events: AsyncIterable<AnswerEvent>): Promise<AnswerEvent[]> {
    const out: AnswerEvent[] = [];
    for await (const ev of events) out.push(ev);
    return out;
  }

  /** A ThreadStore's storage that counts its writes. */
  function counted(storage: ThreadStorage): ThreadStorage & { writes: (ThreadRef | undefined)[] } {
    const writes: (ThreadRef | undefined)[] = [];
    return {
      writes,
      threadOf: (id) => storage.threadOf(id),
      setThread: (id, ref) => {
        writes.push(ref);
        return storage.setThread(id, ref);
      },
    };
  }

  it('yields sending, the thread, the answer’s changes and done, in that order; the answer it handed out is the whole answer', async () => {
    const chip: ContextChip = { id: 'c1', type: 'code', path: 'src/hooks.ts', startLine: 3, endLine: 4, languageId: 'typescript', value: 'verify(sig)' };
    const events = await all(
      assistant().ask(
        { messages: [said('q1', 'user', QUESTION)] },
        { selections: [chip], currentPath: 'docs/hooks.md' },
        undefined,
        new AbortController().signal,
      ),
    );
    const types = events.map((e) => e.type);
    assert.equal(types[0], 'sending');
    assert.equal(types[1], 'thread');
    assert.equal(types.at(-1), 'done');
    assert.equal(types.filter((t) => t === 'done' || t === 'error').length, 1, 'one end');
    assert.ok(types.slice(2, -1).length > 0 && types.slice(2, -1).every((t) => ['text', 'part', 'sources', 'notices'].includes(t)), types.join());
    assert.ok(types.includes('text') && types.includes('sources'), types.join());

    const answer = (events[0] as Extract<AnswerEvent, { type: 'sending' }>).answer;
    const done = events.at(-1) as Extract<AnswerEvent, { type: 'done' }>;
    const whole: Answer = { parts: partsOf(done.message), sources: sourcesOf(done.message), notices: noticesOf(done.message, english) };
    assert.deepEqual(answer, whole, 'the answer handed out with `sending` was kept up to date in place');
    const text = events.flatMap((e) => (e.type === 'text' && e.kind === 'text' ? [e.delta] : [])).join('');
    assert.equal(text, whole.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join(''), 'the text deltas add up to the text');

    const body = emu.requests[0]!.body as Record<string, unknown>;
    assert.deepEqual(body.messages, [{ id: 'q1', role: 'user', parts: [{ type: 'text', text: QUESTION }] }]);
    assert.deepEqual(body.context, [{ type: 'code', value: 'verify(sig)', path: 'src/hooks.ts' }], 'only what the wire takes of the chip');
    assert.deepEqual([body.threadId, body.fp, body.retrievalPageSize, body.currentPath], [null, 'fp-test', 3, 'docs/hooks.md']);
  });

  it('keeps the thread in the ThreadStore: a follow-up sends its id and key, and no event carries the key', async () => {
    const threads = new ThreadStore(new SessionThreads(new MemoryMemento()));
    const thread = { threads, conversation: 'session-1' };
    const first = await all(assistant().ask({ messages: [said('q1', 'user', QUESTION)] }, { selections: [] }, thread, new AbortController().signal));
    const kept = threads.get('session-1');
    assert.match(kept?.threadId ?? '', /^thr_/);
    assert.match(kept?.threadKey ?? '', /^tk_/);
    const second = await all(assistant().ask({ messages: [said('q2', 'user', 'And retries?')] }, { selections: [] }, thread, new AbortController().signal));
    const body = emu.requests[1]!.body as Record<string, unknown>;
    assert.deepEqual([body.threadId, body.threadKey], [kept!.threadId, kept!.threadKey]);
    assert.equal(second.at(-1)!.type, 'done');
    assert.deepEqual(threads.get('session-1'), kept, 'the key stays when the follow-up brings none');
    assert.ok(
      !JSON.stringify([...first, ...second].filter((e) => e.type !== 'done')).includes(kept!.threadKey!),
      'no event but the final message names the key',
    );
  });

  for (const [surface, storage] of [
    ['the chat view (its conversations)', () => new ChatStore(new MemoryMemento(), () => 'conv-1')],
    ['@docs (its chat sessions)', () => new SessionThreads(new MemoryMemento())],
  ] as const) {
    it(`thread gone: ${surface} forgets the thread, once, and its next question starts a new one`, async () => {
      const store = counted(storage());
      await store.setThread('conv-1', { threadId: 'thr_unknown', threadKey: 'tk_0123456789abcdef0123456789abcdef' });
      store.writes.length = 0;
      const thread = { threads: new ThreadStore(store), conversation: 'conv-1' };
      const events = await all(assistant().ask({ messages: [said('q1', 'user', QUESTION)] }, { selections: [] }, thread, new AbortController().signal));
      const end = events.at(-1)!;
      assert.equal(end.type, 'error');
      assert.equal(end.type === 'error' && end.error.reason.code, 'threadGone');
      assert.deepEqual(store.writes, [undefined], 'forgotten once, and nothing else written');
      assert.equal(thread.threads.get('conv-1'), undefined);
      await all(assistant().ask({ messages: [said('q2', 'user', QUESTION)] }, { selections: [] }, thread, new AbortController().signal));
      assert.equal((emu.requests.at(-1)!.body as Record<string, unknown>).threadId, null, 'the next question starts a new thread');
    });
  }

  it('stopped: one error event with reason aborted, keeping what arrived', async () => {
    const ctrl = new AbortController();
    const events: AnswerEvent[] = [];
    for await (const ev of assistant().ask({ messages: [said('q1', 'user', QUESTION)] }, { selections: [] }, undefined, ctrl.signal)) {
      events.push(ev);
      if (ev.type === 'text') ctrl.abort();
    }
    const end = events.at(-1)!;
    assert.equal(end.type === 'error' && end.error.reason.code, 'aborted');
    assert.ok(end.type === 'error' && end.message && end.message.parts.length > 0, 'what arrived is kept');
  });

  it('not set up: one error event that names what is missing, and nothing is sent', async () => {
    const notReady = new Assistant({
      client: async () => notSetUpError(setupStatus({ baseUrl: emu.url, domain: emu.domain, hasAssistantKey: false }))!,
      settings: () => SETTINGS,
    });
    const events = await all(notReady.ask({ messages: [said('q1', 'user', QUESTION)] }, { selections: [] }, undefined, new AbortController().signal));
    assert.equal(events.length, 1);
    assert.deepEqual(events[0]!.type === 'error' && events[0]!.error.reason, { code: 'keyMissing', keyKind: 'assistant' });
    assert.equal(emu.requests.length, 0);
  });
});
