import * as assert from 'node:assert/strict';
import type { Token, Tokens } from 'marked';
import { lexBlocks, marked } from '../../src/webview/lex';

// src/webview/lex.ts is the one file of the webview that reaches past marked's public API: it
// drives the lexer's private queue of inline work, so that a render does not lex again what it
// kept. If marked moves or drops that queue, lexBlocks still lexes correctly, but silently without
// the reuse, and every render of a long list or paragraph lexes all of it again. These tests fail
// then, so that an upgrade of marked has to look at lex.ts.

const TEXT = 'First **para**graph.\n\n- an *item*\n- another\n\n| h |\n|---|\n| `cell` |\n\nLast one.\n';

describe("the webview's reach into marked's internals (lex.ts)", () => {
  it('finds the inline queue where marked 16 keeps it: an array that blockTokens fills with each text to lex inline', () => {
    const lexer = new marked.Lexer();
    const queue = (lexer as unknown as { inlineQueue?: unknown }).inlineQueue;
    assert.ok(Array.isArray(queue), 'marked.Lexer has no inlineQueue array');
    lexer.blockTokens(TEXT, lexer.tokens);
    const queued = queue as { src: string; tokens: Token[] }[];
    const paragraph = lexer.tokens[0] as Tokens.Paragraph;
    assert.ok(
      queued.some((q) => q.src === paragraph.text && q.tokens === paragraph.tokens),
      'the first paragraph is not queued with its own token list',
    );
    assert.equal(paragraph.tokens.length, 0, 'blockTokens lexed inline text itself');
  });

  it('hands the blocks to reuse before their inline lex, skips the lists it names, and lexes the rest as marked does', () => {
    let calls = 0;
    const tokens = lexBlocks(TEXT, undefined, (blocks, inline) => {
      calls++;
      const paragraph = blocks[0] as Tokens.Paragraph;
      assert.equal(paragraph.tokens.length, 0, 'the inline text was lexed before reuse saw the blocks');
      // Filled by hand, as keptItems.ts and settledParagraph.ts fill what they kept.
      paragraph.tokens.push(...inline(paragraph.text));
      return new Set([paragraph.tokens]);
    });
    assert.equal(calls, 1, 'reuse was not called: lexBlocks fell back to a plain lex');
    assert.deepEqual(JSON.parse(JSON.stringify(tokens)), JSON.parse(JSON.stringify(marked.lexer(TEXT))));
  });
});
