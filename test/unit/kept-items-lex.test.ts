import * as assert from 'node:assert/strict';
import type { Token, TokensList } from 'marked';
import { KeptItems } from '../../src/webview/keptItems';
import { lexBlocks } from '../../src/webview/lex';

// A list or table that grows as the tail of a streamed answer is lexed from its last item (row)
// on, not whole (KeptItems.lexGrown): marked's list and table rules read every item or row again
// at each lex, so a render late in a long list cost more than one early in it. The tokens must be the ones a lex of the whole
// tail gives; test/webview/streaming-render.test.ts holds the DOM to the full render as well.

/** Tokens as marked's HTML and the renderer read them: everything but the lexer's bookkeeping. */
function shape(tokens: readonly Token[]): unknown {
  return JSON.parse(JSON.stringify(tokens));
}

function grow(before: string, after: string): { lexed: string[]; tokens: TokensList | undefined } {
  const kept = new KeptItems();
  kept.rendered(lexBlocks(before));
  const lexed: string[] = [];
  const tokens = kept.lexGrown(after, (src) => (lexed.push(src), lexBlocks(src)));
  return { lexed, tokens };
}

describe('a growing list lexed from its last item on', () => {
  const items = (n: number, bullet: (i: number) => string) =>
    Array.from({ length: n }, (_, i) => `${bullet(i)} Item ${i} with **bold** and \`code\`.`).join('\n');

  for (const [kind, bullet] of [
    ['bulleted', () => '-'],
    ['numbered', (i: number) => `${i + 3}.`],
  ] as const) {
    it(`lexes only the last item and what follows, and gives the whole lex's tokens (${kind})`, () => {
      const before = items(60, bullet);
      for (const more of [' and more', '\n- next', `\n${bullet(60)} next`, '\n  lazy line', '\n\nafter the list']) {
        const after = before + more;
        const { lexed, tokens } = grow(before, after);
        if (!tokens) continue;
        assert.ok(
          lexed.every((src) => src.length < 100),
          `lexed ${lexed.map((s) => s.length).join(', ')} characters of ${after.length}`,
        );
        assert.deepEqual(shape(tokens), shape(lexBlocks(after)), JSON.stringify(more));
      }
      assert.ok(grow(before, `${before} and more`).tokens, 'a word added to the last item was not lexed from it');
    });
  }

  it("lexes a growing table from its last row on, after its header, and gives the whole lex's tokens", () => {
    const rows = Array.from({ length: 60 }, (_, i) => `| \`relay.${i}\` | ${i} | Retries the **request** when it fails. |`);
    const before = ['| Setting | Default | Meaning |', '|---|:-:|--:|', ...rows].join('\n');
    for (const more of [' more |', '\n| `relay.60` | 60 |', '\n| a | b | c | d |', '\nnot a row', '\n\nafter the table']) {
      const after = before + more;
      const { lexed, tokens } = grow(before, after);
      assert.ok(tokens, `${JSON.stringify(more)} was not lexed from the last row`);
      assert.ok(
        lexed.every((src) => src.length < 150),
        `lexed ${lexed.map((s) => s.length).join(', ')} characters of ${after.length}`,
      );
      assert.deepEqual(shape(tokens), shape(lexBlocks(after)), JSON.stringify(more));
    }
  });

  it('lexes the whole tail when the shown items may read differently', () => {
    const before = items(10, () => '-');
    for (const after of [
      `${before}\n\n[1]: https://docs.test/a`, // a definition came: `[1]` in a shown item may turn into a link
      `${before}\n\n- loose now`, // the list turned loose: every item's text goes into a <p>
      `- [ ] task\n${before}\nmore`, // a task item among them: marked's HTML writes into its tokens
      // Definitions on an item's own line (found in review): marked takes them, and the lex of
      // the rest would not know those in the shown items, nor the shown items one in the rest.
      `- [r]: /u\n${before}\n- see [r] more`,
      `${before}\n- [r]: /u`,
      `${before}\n1. > [a\\]b]: /u`,
    ]) {
      const kept = new KeptItems();
      const shown = after.startsWith('- [ ]') ? `- [ ] task\n${before}` : after.startsWith('- [r]') ? `- [r]: /u\n${before}\n- see [r]` : before;
      kept.rendered(lexBlocks(shown));
      assert.equal(
        kept.lexGrown(after, (src) => lexBlocks(src)),
        undefined,
        JSON.stringify(after.slice(-30)),
      );
    }
  });
});
