import { marked, type Links, type Token, type TokensList } from 'marked';
import { markedLimits } from '../common/markdown/markedLimits';

// marked, set up as the webview reads answers, and the one file that reaches past marked's public
// API: lexBlocks drives the lexer's queue of inline work (`inlineQueue`, private in marked 16) so
// that a render need not lex again the items and paragraph text it kept (keptItems.ts,
// settledParagraph.ts); no public API skips part of a lex. test/unit/marked-internals.test.ts fails
// if marked moves or drops what this file relies on. Everything else goes through marked's public
// API: extensions, `Lexer`, `blockTokens`, `inlineTokens`, `Parser`.

export { marked };

// Raw HTML is text (markdown.ts): with these two tokenizers off, `<` starts plain text.
marked.use({ tokenizer: { html: () => undefined, tag: () => undefined } });
marked.setOptions({ gfm: true, breaks: false });
// Bounds on what marked parses, so that lexing takes linear time whatever the answer (markedLimits.ts).
marked.use(markedLimits());
// marked drops a definition of a label it already knows, and its source with it. The streaming
// renderer finds where its blocks end by adding up their sources, so an answer with two lists of
// sources that both start at `[1]:` showed the text after the second one twice, shifted (found in
// review). The repeated definition is kept as a token, which renders nothing, as marked's does;
// after a paragraph marked reads it as more of the paragraph, and still does.
marked.use({
  extensions: [
    {
      name: 'repeatedDefinition',
      level: 'block',
      tokenizer(src, tokens) {
        if (!/^ {0,3}\[/.test(src)) return undefined;
        const last = tokens.at(-1)?.type;
        const def = last === 'paragraph' || last === 'text' ? undefined : this.lexer.options.tokenizer?.def(src);
        return def && def.tag in this.lexer.tokens.links ? def : undefined;
      },
    },
  ],
});

/**
 * Top-level blocks of a markdown text, with their raw source. `links` are reference definitions
 * from earlier in the document (a streamed text is lexed a piece at a time); those in `src` are
 * added to the result's `links`.
 */
export function lexBlocks(src: string, links?: Links, reuse?: (blocks: TokensList, inline: (src: string) => Token[]) => ReadonlySet<Token[]>): TokensList {
  const lexer = new marked.Lexer();
  if (links) Object.assign(lexer.tokens.links, links);
  const queue = (lexer as unknown as { inlineQueue?: { src: string; tokens: Token[] }[] }).inlineQueue;
  // A marked that keeps its queue elsewhere lexes as usual, only without the reuse.
  if (!reuse || !Array.isArray(queue)) return lexer.lex(src);
  // marked's lex() in two steps, as marked 16 runs it: the blocks, then the inline tokens of each
  // paragraph, item or cell it queued. `reuse` gets the blocks in between, and names the token
  // lists it has filled from an earlier lex of the same source (keptItems.ts, settledParagraph.ts):
  // those are not lexed again. test/webview/streaming-render.test.ts compares the result with lex().
  lexer.blockTokens(src.replace(/\r\n|\r/g, '\n'), lexer.tokens);
  const skip = reuse(lexer.tokens, (text) => lexer.inlineTokens(text));
  for (const { src: text, tokens } of queue) if (!skip.has(tokens)) lexer.inlineTokens(text, tokens);
  queue.length = 0;
  return lexer.tokens;
}

/** The reference definitions `src` makes (blocks only: a definition starts a block), with `links` known before it. */
export function blockLinks(src: string, links: Links): Links {
  const lexer = new marked.Lexer();
  Object.assign(lexer.tokens.links, links);
  lexer.blockTokens(src.replace(/\r\n|\r/g, '\n'), lexer.tokens);
  return lexer.tokens.links;
}
