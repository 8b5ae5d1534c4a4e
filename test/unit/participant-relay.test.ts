import * as assert from 'node:assert/strict';
import { createEmptyMessage, reduceChunk } from '../../src/api/reducer';
import type { AssembledMessage, UIMessageChunk } from '../../src/api/types';
import { english } from '../../src/common/l10n';
import { AnswerRelay, type ResponseSink } from '../../src/participant/answerRelay';

// The @docs participant's relay from the assistant's stream to VS Code's ChatResponseStream: what
// reaches the Chat view, chunk by chunk, with a recording sink in place of the real stream.

function recorder() {
  const out = { markdown: [] as string[], progress: [] as string[], references: [] as [string, string][] };
  const sink: ResponseSink = {
    markdown: (t) => out.markdown.push(t),
    progress: (t) => out.progress.push(t),
    reference: (url, title) => out.references.push([url, title]),
  };
  return { out, relay: new AnswerRelay(sink, english) };
}

/** Feeds chunks through the real reducer, as the client does, and returns the message. */
function feed(relay: AnswerRelay, chunks: UIMessageChunk[]): AssembledMessage {
  const message = createEmptyMessage();
  for (const chunk of chunks) relay.onEvent({ type: 'chunk', chunk, message: reduceChunk(message, chunk) });
  relay.finish(message);
  return message;
}

const text = (...deltas: string[]): UIMessageChunk[] => textOf(deltas);
function textOf(deltas: string[]): UIMessageChunk[] {
  const chunks: UIMessageChunk[] = [{ type: 'text-start', id: 't' }];
  for (const delta of deltas) chunks.push({ type: 'text-delta', id: 't', delta });
  chunks.push({ type: 'text-end', id: 't' });
  return chunks;
}

describe('@docs: the answer relayed into the Chat view', () => {
  it('streams the text as it comes, delta by delta', () => {
    const { out, relay } = recorder();
    feed(relay, text('Use ', '`relay start`', ' to begin.'));
    assert.deepEqual(out.markdown, ['Use ', '`relay start`', ' to begin.']);
    assert.equal(relay.text, 'Use `relay start` to begin.');
  });

  it('turns an image into a link, also when `!` and `[` arrive in two deltas', () => {
    const { out, relay } = recorder();
    feed(relay, text('See ![diagram](https://evil.example/x.png) and !', '[two](https://evil.example/y.png). Wow!'));
    const md = out.markdown.join('');
    assert.equal(md, 'See \\![diagram](https://evil.example/x.png) and \\![two](https://evil.example/y.png). Wow!');
    assert.doesNotMatch(md.replace(/\\!/g, ''), /!\[/);
  });

  it('leaves `![` inside fenced code as it is', () => {
    const { out, relay } = recorder();
    feed(relay, text('```js\nconst ok = ![1][0];\n```\nthen ![img](https://evil.example/z.png)'));
    assert.equal(out.markdown.join(''), '```js\nconst ok = ![1][0];\n```\nthen \\![img](https://evil.example/z.png)');
  });

  it('says what the service searches for, once per search, and shows each safe source once as a reference', () => {
    const { out, relay } = recorder();
    feed(relay, [
      { type: 'tool-input-start', toolCallId: 'c1', toolName: 'searchDocs' },
      { type: 'tool-input-available', toolCallId: 'c1', toolName: 'searchDocs', input: { query: 'webhook secret' } },
      {
        type: 'tool-output-available',
        toolCallId: 'c1',
        output: {
          results: [
            { url: 'https://docs.example.com/webhooks', title: 'Webhooks' },
            { url: 'javascript:alert(1)', title: 'Bad' },
            { url: 'https://docs.example.com@evil.example/', title: 'Looks like the docs' },
          ],
        },
      },
      { type: 'source-url', sourceId: 's1', url: 'https://docs.example.com/webhooks', title: 'Webhooks' },
      ...text('Answer.'),
    ]);
    assert.deepEqual(out.progress, ['Searching the docs…', 'Searching the docs for “webhook secret”…']);
    assert.deepEqual(out.references, [['https://docs.example.com/webhooks', 'Webhooks']]);
  });

  it('separates two text parts with a blank line', () => {
    const { out, relay } = recorder();
    feed(relay, [...text('First.'), { type: 'text-start', id: 'u' }, { type: 'text-delta', id: 'u', delta: 'Second.' }]);
    assert.equal(out.markdown.join(''), 'First.\n\nSecond.');
  });

  it('costs time linear in the answer: 200,000 one-character deltas of `!` and `[`', () => {
    const { out, relay } = recorder();
    const deltas = Array.from({ length: 200_000 }, (_, i) => (i % 2 ? '[' : '!'));
    const t0 = performance.now();
    feed(relay, textOf(deltas));
    const ms = performance.now() - t0;
    assert.equal(out.markdown.join('').length, 200_000 + 100_000);
    assert.ok(ms < 2000, `took ${ms} ms`);
  });
});
