import type { AssembledMessage, AssistantStreamEvent } from '../../src/api/types';
import { createEmptyMessage, reduceChunk } from '../../src/api/reducer';
import type { AssistantLike } from '../../src/assistant/core/assistant';

/** A service that answers with `chunks` chunks of text ("word word …"), calling `beforeEach` before it yields each (a test's clock). */
export function wordStream(chunks: number, beforeEach: () => void): AssistantLike {
  return {
    async *send(): AsyncGenerator<AssistantStreamEvent, AssembledMessage> {
      const m = createEmptyMessage();
      for (let i = 0; i < chunks; i++) {
        const chunk = i === 0 ? ({ type: 'text-start', id: 'a' } as const) : ({ type: 'text-delta', id: 'a', delta: 'word ' } as const);
        reduceChunk(m, chunk);
        beforeEach();
        yield { type: 'chunk', chunk, message: m };
      }
      reduceChunk(m, { type: 'finish' });
      return m;
    },
  };
}
