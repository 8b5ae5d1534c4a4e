import * as assert from 'node:assert/strict';
import { createEmptyMessage, reduceChunk } from '../../src/api/reducer';
import type { AssembledMessage, UIMessageChunk } from '../../src/api/types';
import { LiveAnswer } from '../../src/assistant/core/liveAnswer';
import { english } from '../../src/common/l10n';
import { AnswerRelay, type ResponseSink } from '../../src/participant/core/answerRelay';
import { Marked } from 'marked';

/** VS Code's Chat view renders Markdown with marked; raw HTML is checked here as marked passes it through. */
const renderedByChatView = (md: string): string => new Marked({ gfm: true }).parse(md) as string;

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

/** Feeds chunks through the real reducer and the one live answer, as ask() does, and returns the message. */
function feed(relay: AnswerRelay, chunks: UIMessageChunk[]): AssembledMessage {
  const message = createEmptyMessage();
  const live = new LiveAnswer(english);
  for (const chunk of chunks) for (const change of live.update(reduceChunk(message, chunk), chunk)) relay.onChange(change);
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
  it('streams the text block by block: a block is written once the next one starts, the last when the answer ends', () => {
    const { out, relay } = recorder();
    feed(relay, text('Use ', '`relay start`', ' to begin.\n\n', 'Then ', 'stop it.'));
    assert.deepEqual(out.markdown, ['Use `relay start` to begin.', '\n\nThen stop it.']);
    assert.equal(relay.text, 'Use `relay start` to begin.\n\nThen stop it.');
  });

  it('turns an image into a link, also when `!` and `[` arrive in two deltas', () => {
    const { out, relay } = recorder();
    feed(relay, text('See ![diagram](https://evil.example/x.png) and !', '[two](https://evil.example/y.png). Wow!'));
    const md = out.markdown.join('');
    assert.equal(md, 'See [diagram](https://evil.example/x.png) and [two](https://evil.example/y.png). Wow\\!');
    assert.doesNotMatch(renderedByChatView(md), /<img/);
  });

  it('leaves `![` inside fenced code as it is', () => {
    const { out, relay } = recorder();
    feed(relay, text('```js\nconst ok = ![1][0];\n```\nthen ![img](https://evil.example/z.png)'));
    assert.equal(out.markdown.join(''), '```js\nconst ok = ![1][0];\n```\n\nthen [img](https://evil.example/z.png)');
  });

  // Issue 27, item 5: the relay's own fence and image tracking could be stepped around.
  for (const [name, answer] of [
    ['an escaped bang', 'Look: \\![x](https://evil.example/bang.png)'],
    ['an info string with a backtick, which is not a fence', '```a`b\n![x](https://evil.example/info.png)\n```'],
    ['a tilde fence with an info string', '~~~ js title="x"\ncode\n~~~\n![x](https://evil.example/tilde.png)'],
    ['a fence closed by a shorter run, which does not close it', '````\n```\n````\n![x](https://evil.example/short.png)'],
    ['an indented fence', '   ```\n   x\n   ```\n![x](https://evil.example/indent.png)'],
    ['raw HTML', '<img src="https://evil.example/raw.png"> <picture><source srcset="https://evil.example/s.png"></picture>'],
    ['a reference image', '![x][r]\n\n[r]: https://evil.example/ref.png'],
    ['a command link', '[Run](command:workbench.action.terminal.new) and <command:x>'],
  ] as const) {
    it(`no image and no command link reaches the Chat view: ${name}`, () => {
      for (const deltas of [[answer], [...answer]]) {
        const { out, relay } = recorder();
        feed(relay, textOf(deltas));
        const html = renderedByChatView(out.markdown.join(''));
        assert.doesNotMatch(html, /<(img|picture|source)\b/, html);
        assert.doesNotMatch(html, /href="(?!https?:)/, html);
      }
    });
  }

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

  it('the search query in the progress line is text: no link, no markup (issue 27, item 5)', () => {
    const { out, relay } = recorder();
    feed(relay, [
      {
        type: 'tool-input-available',
        toolCallId: 'c1',
        toolName: 'searchDocs',
        input: { query: '[Set key](https://evil.example/k) ![i](https://evil.example/i.png)' },
      },
    ]);
    const line = out.progress[0]!;
    assert.doesNotMatch(renderedByChatView(line), /<a |<img/, line);
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
