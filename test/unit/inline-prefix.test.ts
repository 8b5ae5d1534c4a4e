import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { marked, type Token, type Tokens } from 'marked';
import { rawOf, settledPrefix } from '../../src/webview/inlinePrefix';
import { lexBlocks } from '../../src/webview/markdown';
import { lexAfterSettled } from '../../src/webview/settledParagraph';

// The streamed paragraph renders only what follows its settled prefix, so that prefix must really
// be settled: for every text and every later state of the same paragraph, marked must lex the
// prefix to the same tokens and render them to the same HTML. Checked against marked itself, on
// paragraphs built from the characters that make markdown ambiguous, cut at every position, with
// marked set up as the webview sets it up (raw HTML off, the limits of markedLimits.ts).

const PROSE = ['relay', 'timeout', 'a', 'is', ' ', ' ', ' ', '.', ',', '?', ';', '\n'];
const CONSTRUCTS = [
  '**bold**',
  '*em*',
  '_em_',
  '`code`',
  '``co`de``',
  '~~gone~~',
  '[link](https://docs.test/a)',
  '[a](u "t(")',
  '[a [b] <c](u)',
  '[a](u\\)',
  '[x [foo] y](u)',
  '![img](https://docs.test/i.png)',
  '<https://docs.test>',
  'www.docs.test',
  'me@docs.test',
];
const LOOSE = [
  ':',
  '!',
  '(',
  ')',
  '  \n',
  '*',
  '**',
  '_',
  '__',
  '~',
  '~~',
  '`',
  '``',
  '[',
  ']',
  '](https://docs.test/a)',
  '<',
  '>',
  '<b>',
  '</b>',
  '\\',
  '&',
  '&amp;',
  '@',
  'www.',
  'https://',
  'x_y',
  '#',
  '-',
  '|',
  '=',
  '1.',
  '> ',
  '```',
];
const FRAGMENT = fc.oneof(
  { arbitrary: fc.constantFrom(...PROSE), weight: 6 },
  { arbitrary: fc.constantFrom(...CONSTRUCTS), weight: 2 },
  { arbitrary: fc.constantFrom(...LOOSE), weight: 2 },
);
const SEED = 20261123;
const RUNS = 3000;
let prefixesChecked = 0;
let settledTokens = 0;

function paragraphTokens(src: string): Token[] | undefined {
  const blocks = lexBlocks(src).filter((t) => t.type !== 'space');
  const first = blocks[0];
  return first?.type === 'paragraph' ? (first as Tokens.Paragraph).tokens : undefined;
}

function html(tokens: Token[]): string {
  return marked.Parser.parseInline(tokens);
}

describe('settled prefix of a streaming paragraph', () => {
  after(() => console.log(`      (${prefixesChecked.toLocaleString()} prefixes checked, ${settledTokens.toLocaleString()} settled tokens in all)`));

  it('lexes and renders the same however the paragraph goes on', () => {
    fc.assert(
      fc.property(fc.array(FRAGMENT, { minLength: 4, maxLength: 40 }), (parts) => {
        const text = `Start ${parts.join('')} end`;
        const finalTokens = paragraphTokens(text);
        if (!finalTokens) return;
        for (let cut = 1; cut < text.length; cut++) {
          const tokens = paragraphTokens(text.slice(0, cut));
          if (!tokens) continue;
          const { tokens: k, elements } = settledPrefix(tokens);
          prefixesChecked++;
          settledTokens += k;
          if (k === 0) continue;
          // Every later state of the paragraph, not only the final one.
          for (const later of [text.slice(0, cut + 1), text.slice(0, Math.min(text.length, cut + 7)), text]) {
            const laterTokens = paragraphTokens(later);
            if (!laterTokens) continue;
            assert.ok(laterTokens.length >= k, `the settled tokens of ${JSON.stringify(text.slice(0, cut))} are gone in ${JSON.stringify(later)}`);
            assert.equal(
              rawOf(laterTokens, k),
              rawOf(tokens, k),
              `the settled tokens of ${JSON.stringify(text.slice(0, cut))} lexed differently in ${JSON.stringify(later)}`,
            );
            assert.equal(
              html(laterTokens.slice(0, k)),
              html(tokens.slice(0, k)),
              `the settled tokens of ${JSON.stringify(text.slice(0, cut))} rendered differently in ${JSON.stringify(later)}`,
            );
          }
          assert.equal(elements, tokens.slice(0, k).filter((t) => t.type !== 'text' && t.type !== 'escape').length);
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  // A render lexes only what follows the settled part of its last render (settledParagraph.ts):
  // the text after it, lexed alone, must give what marked gives for it in the whole paragraph.
  it('lexes the text after the settled part alone as marked lexes it in the whole paragraph', () => {
    let reused = 0;
    fc.assert(
      fc.property(fc.array(FRAGMENT, { minLength: 4, maxLength: 40 }), (parts) => {
        const text = `Start ${parts.join('')} end`;
        for (let cut = 1; cut < text.length; cut++) {
          const tokens = paragraphTokens(text.slice(0, cut));
          const k = tokens ? settledPrefix(tokens).tokens : 0;
          if (!tokens || k === 0) continue;
          const settled = { raw: rawOf(tokens, k), head: tokens.slice(0, k), elements: 0, nodes: 0 };
          for (const later of [text.slice(0, cut + 1), text.slice(0, Math.min(text.length, cut + 7)), text]) {
            const whole = paragraphTokens(later);
            let used = false;
            const blocks = lexBlocks(later, undefined, (blocks, inline) => {
              const p = blocks[0];
              used = p?.type === 'paragraph' && lexAfterSettled(p as Tokens.Paragraph, settled, inline);
              return new Set(used ? [(p as Tokens.Paragraph).tokens] : []);
            });
            if (!used || !whole) continue;
            reused++;
            const mine = (blocks[0] as Tokens.Paragraph).tokens;
            const what = `${JSON.stringify(later)} after the settled ${JSON.stringify(settled.raw)}`;
            assert.deepEqual(
              mine.map((t) => t.raw),
              whole.map((t) => t.raw),
              `lexed apart, ${what} differs`,
            );
            assert.equal(html(mine), html(whole), `lexed apart, ${what} renders differently`);
          }
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
    assert.ok(reused > 10_000, `only ${reused} paragraphs were lexed apart`);
  });

  it('finds the settled part of ordinary prose, and nothing in what could still change', () => {
    const tokens = paragraphTokens('Set the **timeout** and the `retries` option, then [read more](https://docs.test/a) about it')!;
    assert.deepEqual(settledPrefix(tokens), { tokens: 6, elements: 3 });
    // The last token may grow; a lone backtick, bracket or star can pair with what comes later.
    assert.equal(settledPrefix(paragraphTokens('Set the **timeout**')!).tokens, 0);
    assert.equal(settledPrefix(paragraphTokens('Set [the **timeout** and more')!).tokens, 0);
    assert.equal(settledPrefix(paragraphTokens('Set * the **timeout** and more')!).tokens, 0);
    assert.equal(settledPrefix(paragraphTokens('Set the `a` b ` **c** d')!).tokens, 2);
    // Plain punctuation next to an element does not change how it reads: a sentence that ends in
    // code or bold, or an element in parentheses, is settled (it once held the rest of the paragraph back).
    assert.deepEqual(settledPrefix(paragraphTokens('Set the `retries`. Then (**timeout**), and more')!), { tokens: 4, elements: 2 });
    assert.equal(settledPrefix(paragraphTokens('Set the `retries`` and more')!).tokens, 0);
    assert.equal(settledPrefix(paragraphTokens('Set the **retries**_ and more')!).tokens, 0);
    // A code span with a backtick inside leaves its closing run free to pair with a later one in
    // marked's masking, which then hides the bold between them: "x``a`b" later unbolds it.
    assert.equal(settledPrefix(paragraphTokens('Start ``co`de`` **bold** x')!).tokens, 0);
    assert.equal(settledPrefix(paragraphTokens('Start [`a`b](https://docs.test) **bold** x')!).tokens, 0);
    // Raw HTML ends the settled part: what it means depends on what the parser sees after it.
    assert.equal(settledPrefix(paragraphTokens('A **b** <span>c **d** e')!).tokens, 2);
  });
});
