import * as assert from 'node:assert/strict';
import { createEmptyMessage, reduceChunk } from '../../src/api/reducer';
import type { AssembledMessage, AssistantStreamEvent, UIMessageChunk } from '../../src/api/types';
import { MAX_PARTS, MAX_SOURCES } from '../../src/api/limits';
import type { AssistantLike } from '../../src/assistant/core/assistant';
import { ChatStore } from '../../src/chat/core/chatStore';
import type { Memento } from '../../src/common/memento';
import type { AnswerView } from '../../src/common/protocol';
import { testChatSession } from '../api/testChatSession';

// Issue 16: "every path a chunk takes is linear". Within the 2 MB an answer may stream, a service
// can send tens of thousands of small chunks. The host's work per chunk must not grow with what
// came before: 8,000 sources took 22 s (each chunk rebuilt and compared every source so far),
// and every chunk that was not a text delta compared the whole text so far.

class NullMemento implements Memento {
  private readonly data = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.data.set(key, value);
  }
}

/** The chat model fed `chunks` straight from memory: only the host's own work is timed. */
async function stream(chunks: Iterable<UIMessageChunk>): Promise<{ ms: number; answer: AnswerView; message: AssembledMessage }> {
  let n = 0;
  const store = new ChatStore(new NullMemento(), () => `id-${n++}`);
  let last: AssembledMessage | undefined;
  const client: AssistantLike = {
    async *send(): AsyncGenerator<AssistantStreamEvent, AssembledMessage> {
      const m = createEmptyMessage();
      last = m;
      for (const chunk of chunks) {
        reduceChunk(m, chunk);
        yield { type: 'chunk', chunk, message: m };
        if (m.cutOff) return m;
      }
      reduceChunk(m, { type: 'finish' });
      return m;
    },
  };
  const session = testChatSession({
    store,
    client: async () => client,
    schedule: (fn) => fn(),
  });
  const t0 = performance.now();
  await session.ask('How do I configure webhooks?');
  while (session.busy) await new Promise((r) => setImmediate(r));
  return { ms: performance.now() - t0, answer: store.current.turns[0]!.answer, message: last! };
}

function* sources(n: number): Generator<UIMessageChunk> {
  for (let i = 0; i < n; i++) yield { type: 'source-url', sourceId: `s${i}`, url: `https://docs.example.com/page-${i}`, title: `Page ${i}` };
}

describe('the host’s work per chunk does not grow with the answer (issue 16)', function () {
  this.timeout(60_000);

  it(`30,000 sources: linear, and at most ${MAX_SOURCES} are kept`, async () => {
    const { ms, answer } = await stream(sources(30_000));
    assert.equal(answer.sources.length, MAX_SOURCES);
    assert.equal(answer.sources[0]!.url, 'https://docs.example.com/page-0', 'the first ones, in order');
    assert.ok(ms < 3000, `${ms.toFixed(0)} ms`);
  });

  it('a long text, then 30,000 chunks that change nothing on screen: linear', async () => {
    const { ms, answer } = await stream(
      (function* () {
        yield { type: 'text-start', id: 't' } as const;
        for (let i = 0; i < 100; i++) yield { type: 'text-delta', id: 't', delta: 'x'.repeat(10_000) } as const;
        for (let i = 0; i < 30_000; i++) yield { type: 'data-progress', data: { i } } as const;
      })(),
    );
    assert.equal(answer.status, 'done');
    assert.ok(ms < 3000, `${ms.toFixed(0)} ms`);
  });

  it(`30,000 tool calls: the answer stops after ${MAX_PARTS} parts, with a notice, keeping what arrived`, async () => {
    const { ms, answer, message } = await stream(
      (function* () {
        for (let i = 0; i < 30_000; i++)
          yield { type: 'tool-input-available', toolCallId: `call-${i}`, toolName: 'searchDocs', input: { query: `q${i}` } } as const;
      })(),
    );
    assert.deepEqual(message.cutOff, { reason: 'size', limit: `${MAX_PARTS} parts` });
    assert.equal(answer.parts.length, MAX_PARTS);
    assert.equal(answer.status, 'stopped');
    assert.match(answer.notices.at(-1)!, /^The answer was cut off after 200 parts, far longer than an answer should be\./);
    assert.ok(ms < 3000, `${ms.toFixed(0)} ms`);
  });
});
