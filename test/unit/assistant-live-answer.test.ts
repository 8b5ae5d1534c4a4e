import * as assert from 'node:assert/strict';
import { applyStreamItem, createDecoder, createEmptyMessage } from '../../src/api';
import { answerChanges, noticesOf, partsOf, sourcesOf, type Answer } from '../../src/assistant/core/answer';
import { LiveAnswer } from '../../src/assistant/core/liveAnswer';
import { english } from '../../src/common/l10n';
import { SSE_FIXTURES, loadFixture } from '../fixtures/streams';

// The one answer ask() keeps (src/assistant/core/liveAnswer.ts): its shortcut for a text or
// reasoning delta, and for a chunk that touches no part, must give exactly what the full path
// gives: the same answer and the same changes, after every chunk of every recorded answer. A
// delta updates that one answer in place: the parts it holds stay the same list.

describe('the live answer after a delta', () => {
  for (const { name } of SSE_FIXTURES) {
    it(`${name}: the shortcut equals the full diff after every chunk, and a delta changes the answer in place`, () => {
      const message = createEmptyMessage();
      const live = new LiveAnswer(english);
      const answer = live.answer;
      let view: Answer = { parts: [], sources: [], notices: [] };
      let shortcuts = 0;
      let chunks = 0;
      for (const item of createDecoder('sse').push(loadFixture(name))) {
        if (item.kind === 'done') break;
        applyStreamItem(message, item);
        if (item.kind !== 'chunk') continue;
        chunks++;
        const full: Answer = { parts: partsOf(message), sources: sourcesOf(message), notices: noticesOf(message, english) };
        const parts = answer.parts;
        const changes = live.update(message, item.chunk);
        assert.equal(live.answer, answer, 'one answer for the whole stream');
        assert.deepEqual(answer, full);
        assert.deepEqual(changes, answerChanges(view, full));
        if (answer.parts === parts) shortcuts++;
        else if (item.chunk.type === 'text-delta' || item.chunk.type === 'reasoning-delta') {
          // Only a delta that opens its part may take the long way (one after skipped chunks no longer does).
          assert.ok(full.parts.length !== view.parts.length, `a ${item.chunk.type} took the long way`);
        }
        view = full;
      }
      assert.ok(chunks > 0);
      assert.ok(shortcuts > 0, 'no chunk took the shortcut');
    });
  }
});
