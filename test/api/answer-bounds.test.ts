import * as assert from 'node:assert/strict';
import { AssistantClient, messageText, ServiceError, type AssembledMessage, type AssistantStreamEvent } from '../../src/api';
import { MAX_ANSWER_BYTES } from '../../src/api/limits';
import { answerText } from '../../src/chat/core/answerView';
import { Assistant } from '../../src/assistant/core/assistant';
import { ChatSession } from '../../src/chat/core/chatSession';
import { ChatStore } from '../../src/chat/core/chatStore';
import { FAULT_HEADER, startEmulator, type RunningEmulator } from '../emulator';
import { MemoryMemento, words } from './helpers';

// Issue 16, item 8: "An answer may never end." An answer is bounded in bytes (2 MB) and in time
// (15 minutes; shortened here): past either it stops, with a notice, and keeps what arrived.
// Over real HTTP from the emulator's endless faults, in both API versions, and through the chat
// model the user looks at: the answer stopped, its text on screen and in workspaceState.

function faultFetch(mode: string): typeof fetch {
  return (input, init = {}) => fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), [FAULT_HEADER]: mode } });
}

const QUESTION = { fp: 'anonymous', messages: [{ id: 'u1', role: 'user' as const, parts: [{ type: 'text' as const, text: 'How do I configure webhooks?' }] }] };

async function drain(gen: AsyncGenerator<AssistantStreamEvent, AssembledMessage>): Promise<{ message: AssembledMessage; skipped: number }> {
  let skipped = 0;
  for (;;) {
    const step = await gen.next();
    if (step.done) return { message: step.value, skipped };
    if (step.value.type === 'skipped') skipped++;
  }
}

async function until(what: string, check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('an answer is bounded in size and in time (issue 16)', function () {
  this.timeout(30_000);
  let emu: RunningEmulator;
  let full: string;

  before(async () => {
    emu = await startEmulator({ port: 0, deltaDelayMs: 1 });
    full = messageText((await drain(new AssistantClient({ baseUrl: emu.url, domain: emu.domain, apiKey: emu.assistantKey }).send(QUESTION))).message);
  });
  after(() => emu?.close());

  const client = (apiVersion: 'v1' | 'v2', fault: string, extra: { maxAnswerMs?: number } = {}): AssistantClient =>
    new AssistantClient({ baseUrl: emu.url, domain: emu.domain, apiKey: emu.assistantKey, apiVersion, fetch: faultFetch(fault), ...extra });

  for (const apiVersion of ['v2', 'v1'] as const) {
    it(`${apiVersion}: an answer that never ends stops after 2 MB, with what arrived, and the connection is let go`, async () => {
      const t0 = Date.now();
      const { message } = await drain(client(apiVersion, 'endless').send(QUESTION));
      assert.deepEqual(message.cutOff, { reason: 'size', limit: '2 MB' });
      const text = messageText(message);
      assert.ok(text.startsWith(full), 'the answer as it arrived');
      assert.ok(text.length > MAX_ANSWER_BYTES / 4 && text.length <= MAX_ANSWER_BYTES, `${text.length} characters kept`);
      assert.ok(Date.now() - t0 < 15_000);
      await until('the emulator to see the client go', () => emu.requests.every((r) => r.status !== 0 || r.path.includes('__emulator')));
    });

    it(`${apiVersion}: an answer that drips on past the time bound stops there, with what arrived`, async () => {
      const t0 = Date.now();
      const { message } = await drain(client(apiVersion, 'endless', { maxAnswerMs: 1000 }).send(QUESTION));
      const ms = Date.now() - t0;
      assert.deepEqual(message.cutOff, { reason: 'time', limit: '1 second' });
      assert.ok(messageText(message).startsWith(full));
      assert.ok(ms >= 1000 && ms < 4000, `${ms} ms`);
    });

    it(`${apiVersion}: a 5 MB single chunk: skipped past the line cap, and the answer stops at 2 MB with the text before it`, async () => {
      const { message, skipped } = await drain(client(apiVersion, 'huge-chunk').send(QUESTION));
      assert.equal(skipped, 1, 'the chunk too long to read is reported once');
      assert.deepEqual(message.cutOff, { reason: 'size', limit: '2 MB' });
      assert.equal(messageText(message), full);
    });

    it(`${apiVersion}: a line that never ends is given up on, and the answer stops at 2 MB`, async () => {
      const { message, skipped } = await drain(client(apiVersion, 'huge-line').send(QUESTION));
      assert.equal(skipped, 1);
      assert.deepEqual(message.cutOff, { reason: 'size', limit: '2 MB' });
      assert.ok(message.sources.length > 0, 'what came before the line is kept');
    });
  }

  it('before the first byte, the time bound is a timeout error that says what to do', async () => {
    const e = await drain(client('v2', 'stall-headers', { maxAnswerMs: 200 }).send(QUESTION)).then(
      () => undefined,
      (err: unknown) => err,
    );
    assert.ok(e instanceof ServiceError);
    assert.equal(e.kind, 'timeout');
    assert.match(words(e), /Try again/);
  });

  for (const [fault, extra, notice] of [
    [
      'endless',
      {},
      /^The answer was cut off after 2 MB, far longer than an answer should be\. What arrived is kept; ask a narrower question for a shorter answer\.$/,
    ],
    ['endless', { maxAnswerMs: 1000 }, /^The answer was cut off after 1 second of streaming\. What arrived is kept; Retry to ask again\.$/],
  ] as const) {
    it(`in the chat: ${notice.source.includes('2 MB') ? 'past 2 MB' : 'past the time bound'} the answer is stopped with a notice, its text on screen and stored`, async () => {
      const memento = new MemoryMemento();
      const store = new ChatStore(memento, () => `id-${Math.random().toString(36).slice(2)}`);
      const session = new ChatSession({
        store,
        assistant: new Assistant({
          client: async () => client('v2', fault, extra),
          settings: () => ({ fp: 'anonymous', retrievalPageSize: 5, filter: null }),
        }),
        onSnapshot: () => undefined,
        onPatch: () => undefined,
      });
      await session.ask('How do I configure webhooks?');
      await until('the answer to stop', () => !session.busy);
      const a = store.current.turns[0]!.answer;
      assert.equal(a.status, 'stopped', a.error?.message);
      assert.equal(a.error, undefined);
      assert.match(a.notices.at(-1)!, notice);
      assert.ok(answerText(a).startsWith(full), 'what arrived is kept');
      const reloaded = new ChatStore(memento.copy(), () => 'x').current.turns[0]!.answer;
      assert.deepEqual(reloaded, a, 'and stored as shown');
    });
  }
});
