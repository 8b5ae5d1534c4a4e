import * as assert from 'node:assert/strict';
import { applyStreamItem, createDecoder, createEmptyMessage } from '../../src/api';
import { english } from '../../src/common/l10n';
import type { AnswerView } from '../../src/common/protocol';
import { diffAnswer, emptyAnswer, noticesOf, partsOf, sourcesOf, viewAfterDelta } from '../../src/chat/core/answerView';
import { SSE_FIXTURES, loadFixture } from '../fixtures/streams';

// The host's shortcut for a text or reasoning delta, and for a chunk that touches no part, must
// give exactly what the full path gives: the same view and the same patches, after every chunk of
// every recorded answer.

describe('host view after a delta', () => {
  for (const { name } of SSE_FIXTURES) {
    it(`${name}: the shortcut equals the full diff after every chunk`, () => {
      const message = createEmptyMessage();
      let view: AnswerView = { ...emptyAnswer(), status: 'streaming' };
      let shortcuts = 0;
      let chunks = 0;
      for (const item of createDecoder('sse').push(loadFixture(name))) {
        if (item.kind === 'done') break;
        applyStreamItem(message, item);
        if (item.kind !== 'chunk') continue;
        chunks++;
        const full: AnswerView = {
          parts: partsOf(message),
          sources: sourcesOf(message),
          notices: noticesOf(message, english),
          status: 'streaming',
          jobs: view.jobs,
        };
        const fast = viewAfterDelta(view, message, item.chunk, english);
        if (fast) {
          shortcuts++;
          assert.deepEqual(fast.view, full);
          assert.deepEqual(fast.patches, diffAnswer(view, full));
        } else if (item.chunk.type === 'text-delta' || item.chunk.type === 'reasoning-delta') {
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
