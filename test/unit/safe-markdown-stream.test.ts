import * as assert from 'node:assert/strict';
import { SafeMarkdownStream } from '../../src/common/markdown/streamWriter';
import { safeMarkdown } from '../../src/common/markdown/writer';

// The safe writer for a streaming answer (issue 27, item 5: the @docs relay). What it writes is
// what the whole-text writer writes, and the work it does (characters handed to marked) stays
// linear in the answer whatever the chunks: counted, not timed, so a busy machine cannot fail it.

function stream(chunks: readonly string[]): { out: string; lexed: number; length: number } {
  let out = '';
  const s = new SafeMarkdownStream((md) => (out += md));
  for (const c of chunks) s.push(c);
  s.end();
  return { out, lexed: s.lexedChars, length: chunks.join('').length };
}

const lines = (n: number, line: (i: number) => string): string[] => Array.from({ length: n }, (_, i) => line(i));

describe('the safe Markdown writer, streaming (issue 27)', () => {
  it('writes a streamed answer as the whole-text writer writes it', () => {
    const md = '# T\n\nA *b* `c` ![i](https://e.test/i.png)\n\n- one\n- two\n\n```js\nx\n```\n\n> q <img src=x>\n\nend';
    for (const size of [1, 2, 3, 7, 1000]) {
      const chunks = md.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!;
      assert.equal(stream(chunks).out, safeMarkdown(md), `chunks of ${size}`);
    }
  });

  for (const [name, chunks] of [
    ['one-line chunks in a fence that never closes', ['```\n', ...lines(40_000, (i) => `line ${i} ![x](y)\n`)]],
    ['one-line chunks of one long paragraph', lines(40_000, (i) => `word ${i}\n`)],
    ['single line breaks in a fence', ['```\n', ...lines(100_000, () => '\n')]],
    ['one character at a time, with line breaks', [...'a\nb '.repeat(50_000)]],
    ['a long list, item by item', lines(20_000, (i) => `- item ${i}\n`)],
  ] as const) {
    it(`lexes at most 5 times the answer, plus a bounded start: ${name}`, () => {
      const r = stream(chunks);
      assert.ok(r.lexed <= 5 * r.length + 2048 * 2048, `lexed ${r.lexed} characters for an answer of ${r.length}`);
      // The doubling case: twice the answer, about twice the work.
      const twice = stream([...chunks, ...chunks]);
      assert.ok(twice.lexed <= 2.5 * r.lexed + 2048 * 2048, `twice the answer lexed ${twice.lexed}, once ${r.lexed}`);
    });
  }
});
