import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { Marked, type Token } from 'marked';
import { lexBlocks } from '../../src/webview/markdown';
import {
  MAX_ADDRESS_LOCAL,
  MAX_BLOCK_NESTING,
  MAX_CLOSER_RUNS,
  MAX_DELIMITER_RUN,
  MAX_EMPHASIS_NESTING,
  MAX_LINK_PARENS,
  MAX_URL_TRAILING,
  closerWindowEnd,
  markedLimits,
} from '../../src/common/markdown/markedLimits';
import { pathologies } from '../webview/pathologicalMarkdown';

// The limits on marked (markedLimits.ts) make lexing linear on the markdown that froze the chat,
// and change nothing else: below the limits, marked with them gives exactly marked's tokens and
// HTML, on random text built from the characters that make markdown ambiguous. Above them, what
// lies past a limit reads as text.

/** Generous, for a busy machine: before the limits, these blocks took seconds each or overflowed the stack. */
const LEX_BOUND_MS = 500;
const SEED = 20261207;

function deepest(tokens: readonly Token[], types: ReadonlySet<string>): number {
  let max = 0;
  for (const t of tokens) {
    const children: Token[] = [...((t as { tokens?: Token[] }).tokens ?? []), ...((t as { items?: Token[] }).items ?? [])];
    max = Math.max(max, (types.has(t.type) ? 1 : 0) + deepest(children, types));
  }
  return max;
}
const BLOCK_NESTERS = new Set(['blockquote', 'list']);
const EMPHASIS = new Set(['em', 'strong']);
const html = (m: Marked, src: string): string => m.parser(m.lexer(src));
/** Maximal runs of `*`, `_` or `~` in `src`. */
const runs = (src: string, ch: string): number => src.split(ch === '*' ? /\*+/ : ch === '_' ? /_+/ : /~+/).length - 1;

/** A strong whose closer is the `n`th run of `*` after its opener (n > 2): pairs of em, runs that neither open nor close, the closer. */
const closedAt = (n: number): string => `**a ${'*b* '.repeat(Math.floor((n - 1) / 2))}${'* '.repeat((n - 1) % 2)}c**`;

/** Whether every emphasis and strikethrough is closed by one of the next MAX_CLOSER_RUNS runs of its character, as the limits need. */
function closersInReach(tokens: readonly Token[]): boolean {
  return tokens.every((t) => {
    if (t.type === 'em' || t.type === 'strong' || t.type === 'del') {
      let open = 0;
      while (t.raw[open] === t.raw[0]) open++;
      if (runs(t.raw.slice(open), t.raw[0]!) > MAX_CLOSER_RUNS) return false;
    }
    return closersInReach([...((t as { tokens?: Token[] }).tokens ?? []), ...((t as { items?: Token[] }).items ?? [])]);
  });
}

describe('limits on marked', () => {
  const plain = () => new Marked({ gfm: true, breaks: false });
  const limited = () => new Marked({ gfm: true, breaks: false }, markedLimits());

  const larger = pathologies(160_000);
  pathologies(40_000).forEach(({ name, text }, i) => {
    it(`lexes ${name} within ${LEX_BOUND_MS} ms, as the webview's marked is configured`, () => {
      // Four times the size too: a quadratic rule shows as sixteen times the time.
      for (const src of [text, larger[i]!.text]) {
        const t0 = performance.now();
        const tokens = lexBlocks(src);
        const ms = performance.now() - t0;
        assert.ok(ms <= LEX_BOUND_MS, `${src.length.toLocaleString()} characters took ${ms.toFixed(0)} ms`);
        assert.ok(tokens.length > 0);
      }
    });
  });

  it('gives exactly marked’s tokens and HTML below the limits (fast-check)', () => {
    const delimiters = fc.constantFrom('*', '**', '***', '_', '__', ' *', '* ', ' _', '_ ', 'a*', '*a', 'a_', '_a');
    const tildes = fc.constantFrom('~', '~~', ' ~', '~ ', 'a~', '~a', 'a~~', '~~a', '\\~');
    const others = fc.constantFrom(
      '`',
      '`a`',
      '\\',
      '[',
      ']',
      '(',
      ')',
      '((',
      '](',
      '<',
      '>',
      '!',
      '@',
      '.',
      '...',
      ':',
      'a',
      'b',
      'word',
      ' ',
      ' ',
      '\n',
      '\n\n',
      '> ',
      '- ',
      '1. ',
      '\n  ',
      '\n    ',
      '\n---',
      '\n===',
      '\n- ',
      '\n-x',
      '\n1x',
      '\n| a |',
      '\n|-|',
      '\n___',
      'x_y',
      'me@docs.test',
      'www.docs.test',
      'https://docs.test/a',
      '&amp;',
      '#',
      '\\*',
      '\\`',
      '\\😀',
      '😀',
    );
    let compared = 0;
    let cut = 0;
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ arbitrary: delimiters, weight: 2 }, { arbitrary: tildes, weight: 1 }, { arbitrary: others, weight: 2 }), {
          minLength: 1,
          maxLength: 200,
          size: 'max',
        }),
        (parts) => {
          const src = parts.join('');
          const want = plain().lexer(src);
          // Only what no limit reaches.
          if (deepest(want, BLOCK_NESTERS) >= MAX_BLOCK_NESTING || deepest(want, EMPHASIS) >= MAX_EMPHASIS_NESTING) return;
          if (
            new RegExp(`[*_]{${MAX_DELIMITER_RUN + 1}}|[a-zA-Z0-9.!#$%&'*+/=?_\`{|}~-]{${MAX_ADDRESS_LOCAL + 1}}|[?!.,:;*_'"~)]{${MAX_URL_TRAILING + 1}}`).test(
              src,
            )
          )
            return;
          if ((src.match(/\(/g) ?? []).length > MAX_LINK_PARENS || !closersInReach(want)) return;
          // Texts with more runs than that: marked's search for a closer is cut short, and must still find the same.
          if (runs(src, '*') > MAX_CLOSER_RUNS || runs(src, '_') > MAX_CLOSER_RUNS || runs(src, '~') > MAX_CLOSER_RUNS) cut++;
          const m = limited();
          const got = m.lexer(src);
          assert.deepEqual(JSON.parse(JSON.stringify(got)), JSON.parse(JSON.stringify(want)), JSON.stringify(src));
          assert.equal(m.parser(got), plain().parser(want), JSON.stringify(src));
          compared++;
        },
      ),
      { seed: SEED, numRuns: 4000 },
    );
    assert.ok(compared > 3000 && cut > 500, `only ${compared} texts compared, ${cut} with searches cut short`);
  });

  it('emphasis openers with a closer in reach, or none at all: the same tokens as marked, without its quadratic search', () => {
    const texts = [
      '*a '.repeat(300),
      '_a '.repeat(300),
      `${'**a '.repeat(200)}b**`,
      `${'*a '.repeat(100)}a* and a*`,
      `x ${'__a '.repeat(100)}*b*`,
      `${'*a '.repeat(300)}end*`,
      closedAt(MAX_CLOSER_RUNS),
    ];
    for (const src of texts) {
      assert.deepEqual(JSON.parse(JSON.stringify(limited().lexer(src))), JSON.parse(JSON.stringify(plain().lexer(src))), src.slice(0, 40));
    }
    assert.match(html(limited(), texts.at(-1)!), /^<p><strong>a <em>b<\/em>/, `the closer of the strong is its ${MAX_CLOSER_RUNS}th run`);
  });

  it('past the limits: deeper quotes and lists, deeper emphasis, longer runs and addresses read as text', () => {
    const m = limited();
    const quotes = m.lexer(`${'> '.repeat(5_000)}deep`);
    assert.equal(deepest(quotes, BLOCK_NESTERS), MAX_BLOCK_NESTING);
    assert.match(m.parser(quotes), /<p>(&gt; ){100}/);
    assert.equal(deepest(m.lexer(`${'- '.repeat(5_000)}deep`), BLOCK_NESTERS), MAX_BLOCK_NESTING);
    assert.equal(deepest(m.lexer(`${'> - '.repeat(5_000)}deep`), BLOCK_NESTERS), MAX_BLOCK_NESTING);

    const nested = m.lexer(`${'*a '.repeat(100)}${'a* '.repeat(100)}`);
    assert.equal(deepest(nested, EMPHASIS), MAX_EMPHASIS_NESTING);

    const far = closedAt(MAX_CLOSER_RUNS + 1);
    assert.match(html(plain(), far), /^<p><strong>/);
    assert.match(html(m, far), /^<p>\*\*a <em>b<\/em>/, `the closer of the strong is its ${MAX_CLOSER_RUNS + 1}th run`);

    const run = '_'.repeat(MAX_DELIMITER_RUN + 1);
    assert.equal(html(m, `**a${run}b**`), `<p><strong>a${run}b</strong></p>\n`);
    assert.equal(html(m, `*${'*'.repeat(MAX_DELIMITER_RUN)}a*`), `<p>${'*'.repeat(MAX_DELIMITER_RUN + 1)}a*</p>\n`);
    assert.equal(
      html(m, `*${'*'.repeat(MAX_DELIMITER_RUN - 1)}a*`),
      html(plain(), `*${'*'.repeat(MAX_DELIMITER_RUN - 1)}a*`),
      'a run at the limit is marked’s',
    );

    const local = (n: number) => `Write to ${'a'.repeat(n)}@docs.test today.`;
    assert.match(html(m, local(MAX_ADDRESS_LOCAL)), /<a href="mailto:a{64}@docs\.test">/);
    assert.doesNotMatch(html(m, local(MAX_ADDRESS_LOCAL + 1)), /<a /);
    assert.match(html(m, `See https://docs.test/${'a'.repeat(100)} now`), /<a href="https:\/\/docs\.test\/a{100}">/, 'a long URL is still a link');
  });

  it('strikethrough, link and URL: marked’s below the limits; past them, a closer out of reach, a destination of too many parentheses, a URL’s trailing dots cut', () => {
    const m = limited();
    // Closed by the nth run of `~` after its opener: the runs between, after a space, cannot close it.
    const struck = (n: number) => `~a${' ~x'.repeat(n - 1)} a~`;
    assert.equal(html(m, struck(MAX_CLOSER_RUNS)), html(plain(), struck(MAX_CLOSER_RUNS)));
    assert.match(html(m, struck(MAX_CLOSER_RUNS)), /^<p><del>a /);
    assert.match(html(plain(), struck(MAX_CLOSER_RUNS + 1)), /^<p><del>a /);
    assert.match(html(m, struck(MAX_CLOSER_RUNS + 1)), /^<p>~a <del>x /, 'out of reach of the first opener, in reach of the second');

    const link = (n: number) => `See [the docs](docs/${'(a)'.repeat(n)}) now.`;
    assert.equal(html(m, link(MAX_LINK_PARENS)), html(plain(), link(MAX_LINK_PARENS)));
    assert.match(html(m, link(MAX_LINK_PARENS)), /<a href="docs\/\(a\)/);
    assert.match(html(plain(), link(MAX_LINK_PARENS + 1)), /<a href=/);
    assert.equal(html(m, link(MAX_LINK_PARENS + 1)), `<p>${link(MAX_LINK_PARENS + 1)}</p>\n`);

    // marked strips a URL's trailing punctuation one character per pass over the URL; it strips it all, cut or not.
    const dots = (n: number) => `See https://docs.test/a${'.'.repeat(n)} and www.docs.test/b?!${'.'.repeat(n)}`;
    for (const n of [MAX_URL_TRAILING, MAX_URL_TRAILING + 1, 2_000]) assert.equal(html(m, dots(n)), html(plain(), dots(n)), `${n} dots`);
    assert.match(html(m, dots(2_000)), /<a href="https:\/\/docs\.test\/a">https:\/\/docs\.test\/a<\/a>\.{2000} and <a href="http:\/\/www\.docs\.test\/b">/);
  });

  it('reads setext headings, and masks code spans from emphasis, exactly as marked at any length', () => {
    const texts = [
      `- a\n${'b\n'.repeat(500)}===`,
      `- a\n${'  b\n'.repeat(500)}  ---\n  c`,
      `- a\n${'b\n'.repeat(300)}\n  c\n  d\n  ---`,
      `- a\n${'b\n'.repeat(200)}- c\n${'d\n'.repeat(200)}  ===`,
      `> a\n${'b\n'.repeat(300)}---`,
      `a\n${'b\n***\n'.repeat(200)}c\n---`,
      `- a\n${'b\n    c\n'.repeat(100)}---`,
      // Where a run of plain lines ends: a table's delimiter row, a definition, a rule, a bullet, HTML, a tab, a line separator.
      '- a\n  b\n  c\n  |---|\n  | y |\n\n- h\n  a\n  b\n  -|-\n  x|y',
      '- a\n  b\n  c\n  [x]: https://docs.test\n  d [x]\n  e\n  ___\n  f\n  g\n  1. h\n  i\n  j\n  <div>\n  k\n  l\n\tm\n  n\u2028o\n  p\n  q',
      '* a\n b\n   c\n d *e*\n f `g`\n\n  h\n  i\n  ===\n  j',
      `${'`a` *b '.repeat(300)}*`,
      `*a ${'`*` '.repeat(300)}b*`,
      `*a ${'\\* '.repeat(300)}b* [x\\*](y\\*z "t\\*") \\😀 *c\\😀* \\* \\😀\\*d*`,
      `- a\n${'b\n-x\n1x\n*y*\n| z |\n#x\n'.repeat(100)}---`,
    ];
    for (const src of texts)
      assert.deepEqual(JSON.parse(JSON.stringify(limited().lexer(src))), JSON.parse(JSON.stringify(plain().lexer(src))), JSON.stringify(src.slice(0, 30)));
  });

  it('reads paragraphs between rules, and list items’ lines that start with [ or <, exactly as marked (fast-check, and at any length)', () => {
    // Without raw HTML too, as the webview and the host's writer read it: then `<div>` is text.
    const noHtml = { tokenizer: { html: () => undefined, tag: () => undefined } };
    const pairs = [
      [plain, limited],
      [() => plain().use(noHtml), () => limited().use(noHtml)],
    ] as const;
    const same = (src: string) => {
      for (const [want, got] of pairs)
        assert.deepEqual(JSON.parse(JSON.stringify(got().lexer(src))), JSON.parse(JSON.stringify(want().lexer(src))), JSON.stringify(src.slice(0, 60)));
    };
    const line = fc.constantFrom(
      ...['a', 'b c', '', '   ', '***', '___', '* * *', '---', '===', '  ==', '- d', '1. e', '> f', '>', '# g', '    h', '```', '| i |', '|-|', 'j|k'],
      ...['[a', '[a]', '  [a', '[a]: /u', '[a]:', 'b]: /v', '[a\\', '\\[a', '[a]: /u "t', 'b"', '[ ] l', '[x] m'],
      ...['<a', '<a>', '  <a', '<a b', 'c>', '<div>', '<div', '</p>', '<b c="d">', '<!-- n', '-->', '<?o', '<![CDATA[', '<script>', '<a>b', '<x@y.z>'],
    );
    fc.assert(
      fc.property(fc.constantFrom('', '- ', '> ', '1. ', '- > ', '> - '), fc.array(line, { maxLength: 40 }), (lead, lines) => same(lead + lines.join('\n'))),
      { seed: SEED, numRuns: 3000 },
    );
    for (const src of [
      `${'a\n***\n'.repeat(2_000)}b\n===`,
      `${'a\n***\n'.repeat(300)}\n${'a\n___\n'.repeat(300)}b\n---\nc`,
      `${'a\n***\n<a>\n'.repeat(300)}b\n---`,
      `> ${'a\n> ***\n'.repeat(300)}b\n===\n${'c\n***\n'.repeat(300)}`,
      `- item\n${'[a\n<a\n'.repeat(1_000)}  ===`,
      `- item\n${'[a\n<a\n'.repeat(300)}\n  b\n${'[a\n[x]: /u\n<a>\n<div>\n'.repeat(300)}  ---\n  c`,
      `- item\n${'[a\n'.repeat(300)}[b\nc]: /u\n${'<a\n'.repeat(300)}<b>\n===`,
      // The item's lines are a text of their own: what the rule found in the answer's says nothing of them.
      'a\n***\n - bbbbbbbbbb\n    ===',
    ])
      same(src);
  });

  it('cuts marked’s search right after the last run in reach and the code point that follows it', () => {
    const text = `*${'a*'.repeat(40)}`;
    const end = closerWindowEnd(text, 1, '*');
    assert.equal(runs(text.slice(1, end), '*'), MAX_CLOSER_RUNS);
    assert.equal(text.slice(end - 2, end), '*a');
    const wide = `*${'*\u{1F600}'.repeat(40)}`;
    assert.equal(wide.slice(0, closerWindowEnd(wide, 1, '*')).slice(-3), '*\u{1F600}', 'both halves of a surrogate pair');
    assert.equal(closerWindowEnd('*a*a', 1, '*'), 4, 'fewer runs: the whole text');
  });

  it('counts nesting back to zero after each lex, even one that threw deep inside', () => {
    const boom = { name: 'boom', level: 'block' as const, tokenizer: (src: string) => (src.startsWith('BOOM') ? assert.fail('boom') : undefined) };
    const m = new Marked({ gfm: true, breaks: false }, markedLimits(), { extensions: [boom] });
    for (let i = 0; i < 3; i++) assert.equal(deepest(m.lexer(`${'> '.repeat(40)}x`), BLOCK_NESTERS), MAX_BLOCK_NESTING);
    assert.throws(() => m.lexer(`${'> '.repeat(5)}BOOM`), /boom/);
    assert.equal(deepest(m.lexer(`${'> '.repeat(40)}x`), BLOCK_NESTERS), MAX_BLOCK_NESTING, 'the lex that threw left the count where it was');
  });
});
