import * as assert from 'node:assert/strict';
import { createEmptyMessage, reduceChunk } from '../../src/api/reducer';
import type { AssembledMessage, UIMessageChunk } from '../../src/api/types';
import { MAX_TOOL_RESULT_CHARS, resultText } from '../../src/participant/toolResult';

// What #docs hands a model: the answer with its sources, as text, within MAX_TOOL_RESULT_CHARS.

function message(chunks: UIMessageChunk[]): AssembledMessage {
  const m = createEmptyMessage();
  for (const c of chunks) reduceChunk(m, c);
  return m;
}

const answer = (text: string, sources: [string, string][] = []): AssembledMessage =>
  message([
    ...sources.map(([url, title], i): UIMessageChunk => ({ type: 'source-url', sourceId: `s${i}`, url, title })),
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: text },
    { type: 'text-end', id: 't' },
  ]);

describe('#docs: the tool’s result text', () => {
  it('is the answer, then its safe sources with the site named', () => {
    const text = resultText(
      answer('Rotate keys under API keys.', [
        ['https://docs.example.com/auth', 'Authentication'],
        ['javascript:alert(1)', 'Bad'],
        ['https://docs.example.com@evil.example/', 'Looks like the docs'],
      ]),
      'docs.example.com',
    );
    assert.equal(text, 'Rotate keys under API keys.\n\nSources (docs.example.com):\n- Authentication: https://docs.example.com/auth');
  });

  it(`stays within ${MAX_TOOL_RESULT_CHARS} characters however long the answer and its titles, keeping the sources`, () => {
    const sources: [string, string][] = Array.from({ length: 50 }, (_, i) => [`https://docs.example.com/p${i}`, `Title ${'x'.repeat(100_000)}`]);
    const text = resultText(answer('a'.repeat(2_000_000), sources), 'docs.example.com');
    assert.ok(text.length <= MAX_TOOL_RESULT_CHARS, `${text.length} characters`);
    assert.match(text, /…\n\nSources \(docs\.example\.com\):\n- Title x+: https:\/\/docs\.example\.com\/p0\n/);
    assert.equal(text.match(/^- /gm)?.length, 20, 'at most 20 sources are listed');
  });

  it('says so when the assistant gave no answer', () => {
    assert.equal(resultText(createEmptyMessage(), 'docs.example.com'), '(The documentation assistant gave no answer.)');
  });
});
