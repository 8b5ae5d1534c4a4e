import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { longAnswer } from '../../bench/answer';
import { randomDocument } from '../fixtures/markdown';
import { seededRandom } from '../fixtures/streams';
import { withBundledPage } from './fixture';
import { XSS_PAYLOADS } from './xssPayloads';

// tokenDom.ts builds the DOM of plain markdown straight from marked's tokens, instead of marked's
// HTML through DOMPurify. The streaming renderer morphs, counts and appends to those nodes, so
// "looks the same" is not enough: for every block it builds, the nodes must be exactly the HTML
// path's, down to each whitespace text node and attribute. Whatever it declines must go the HTML
// path, and what it must not decline (the plain blocks of a long answer) is checked too, or the
// speed it exists for could quietly go away.

const ROOT = join(__dirname, '..', '..');
const DOCS = join(ROOT, 'test', 'fixtures', 'docs-site');

const ENTRY = `
import { lexBlocks, renderBlocks, renderViaHtml } from './src/webview/markdown';
import { buildBlocks, buildInline } from './src/webview/tokenDom';
const shape = (n) => n.nodeType === 3 ? { text: n.data } : n.nodeType === 1
  ? { tag: n.tagName, attrs: Array.from(n.attributes, (a) => a.name + '=' + a.value).sort(), children: Array.from(n.childNodes, shape) }
  : { other: n.nodeType, children: Array.from(n.childNodes, shape) };
const compare = (piece, built) => {
  if (!built) return { built: false };
  const a = JSON.stringify(shape(built));
  const b = JSON.stringify(shape(renderViaHtml(piece)));
  return { built: true, equal: a === b, got: a, want: b, elements: built.querySelectorAll('*').length, tags: Array.from(built.querySelectorAll('*'), (e) => e.tagName) };
};
window.__layout = (text) => {
  const d = document.createElement('div');
  d.append(renderBlocks(lexBlocks(text)));
  document.body.append(d);
  let depth = 0;
  for (let n = d; n; n = n.lastElementChild) depth++;
  const height = d.offsetHeight;
  d.remove();
  return { depth, height };
};
window.__writes = (text) => {
  // How many times the built DOM's text is written to, building one paragraph.
  const append = CharacterData.prototype.appendData;
  let writes = 0;
  CharacterData.prototype.appendData = function (data) { writes++; return append.call(this, data); };
  try {
    const tokens = lexBlocks(text);
    const built = buildBlocks(tokens);
    return { writes, same: JSON.stringify(shape(built)) === JSON.stringify(shape(renderViaHtml({ blocks: tokens }))) };
  } finally {
    CharacterData.prototype.appendData = append;
  }
};
window.__check = (text) => {
  const tokens = lexBlocks(text);
  const whole = compare({ blocks: tokens }, buildBlocks(tokens));
  // Each block alone (a streamed answer renders them a few at a time), and each paragraph's
  // inline tokens from every point on (the part after a paragraph's settled prefix).
  const blocks = tokens.map((t) => ({ type: t.type, raw: t.raw, ...compare({ blocks: [t] }, buildBlocks([t])) }));
  const inlines = [];
  for (const t of tokens) if (t.type === 'paragraph') for (let i = 0; i < t.tokens.length; i++) {
    const rest = t.tokens.slice(i);
    inlines.push({ raw: rest.map((x) => x.raw).join(''), ...compare({ inline: rest }, buildInline(rest)) });
  }
  return { whole, blocks, inlines };
};
`;

interface Compared {
  built: boolean;
  equal?: boolean;
  got?: string;
  want?: string;
  elements?: number;
  tags?: string[];
}
interface Checked {
  whole: Compared;
  blocks: (Compared & { type: string; raw: string })[];
  inlines: (Compared & { raw: string })[];
}

describe('markdown DOM built from tokens, against marked + DOMPurify in Chromium', function () {
  this.timeout(120_000);
  const bundled = withBundledPage({ entry: ENTRY });
  const check = (text: string): Promise<Checked> => bundled.page.evaluate((t) => (window as any).__check(t), text);
  const assertSame = (label: string, c: Checked): void => {
    for (const x of [c.whole, ...c.blocks, ...c.inlines])
      if (x.built) assert.equal(x.got, x.want, `${label}: ${'raw' in x ? JSON.stringify(x.raw) : 'whole text'}`);
  };

  it('builds the plain blocks of a long answer (the benchmark) whole, node for node as the HTML path', async () => {
    const c = await check(longAnswer(42_000));
    assert.equal(c.whole.built, true, 'the long answer went the HTML path');
    assert.equal(c.whole.got, c.whole.want);
    assert.ok(c.whole.elements! > 500, `only ${c.whole.elements} elements`);
    assert.ok(c.inlines.length > 100 && c.inlines.every((x) => x.built), 'every paragraph tail is built');
    assertSame('long answer', c);
  });

  it('builds each plain construct, and sends what it must not build to the HTML path', async () => {
    const built: Record<string, string> = {
      'heading levels': '# One\n\n### Three *em*\n\n###### Six',
      'setext heading': 'Title\n=====',
      'bold, italic, code span, strikethrough, hard break': 'A **b** *i* _i_ `c` ``c`d`` ~~d~~ and  \na break \\* escaped.',
      'characters the HTML path escapes': 'Quotes " and \' and a < b and c > d, 1<2.',
      'tight and nested list': '- one\n- two\n  - nested **bold**\n  - more\n- three',
      'loose list': '- one\n\n- two\n\n  second paragraph',
      'ordered list from 3, and one going on after a code block': '3. three\n4. four\n\n```\ncode\n```\n\n5. five',
      'code with a language, with a blank line, and with `&&`':
        '```ts\nconst a = 1;\n\nif (a && b) {}\n```\n\n```\nplain\n```\n\n~~~c++ extra words\nint x;\n~~~',
      'open code fence': '```py\nprint(1)',
      'indented code': '    indented <code>\n    here',
      'table with alignment and an empty body': '| a | b | c |\n|:--|:-:|--:|\n| `x` | **y** | z |\n\n| only | head |\n|---|---|',
      'blockquote with a list inside': '> quoted **text**\n>\n> - item\n> - item',
      rule: 'Above\n\n---\n\nBelow',
      'unicode and emoji': 'Grüße 日本語 🚀 \u00a0non-breaking',
    };
    for (const [name, text] of Object.entries(built)) {
      const c = await check(text);
      assert.equal(c.whole.built, true, `${name}: not built`);
      assertSame(name, c);
    }
    // Both paths keep a list's start and a cell's alignment (DOMPurify used to drop them).
    assert.match(
      (await check(built['ordered list from 3, and one going on after a code block']!)).whole.got!,
      /"OL","attrs":\["start=3"\].*"OL","attrs":\["start=5"\]/,
    );
    assert.match((await check(built['table with alignment and an empty body']!)).whole.got!, /"TH","attrs":\["align=center"\].*"TD","attrs":\["align=right"\]/);
    const declined: Record<string, string> = {
      link: 'See [the docs](https://docs.test/a).',
      autolink: 'See https://docs.test/a and <https://docs.test>.',
      image: '![logo](https://docs.test/logo.png)',
      entity: 'Fish &amp; chips, &copy; 2026.',
      'task list': '- [ ] todo\n- [x] done',
      'code fence with a language the class must not carry': '```"><img src=x onerror=alert(1)>\nx\n```',
      'NUL character': 'a\u0000b',
      'form feed': 'a **b**\fc',
      // marked nests blocks 16 deep at most (markedLimits.ts), emphasis 16 more inside them.
      'nesting deeper than the builder goes': '> - '.repeat(300) + '**a '.repeat(20) + 'x' + ' a**'.repeat(20),
    };
    for (const [name, text] of Object.entries(declined)) {
      const c = await check(text);
      assert.equal(c.whole.built, false, `${name}: built, but should take the HTML path`);
    }
    // Raw HTML is text (markdown.ts): the builder makes a paragraph of it, tags and all.
    for (const text of ['<details><summary>More</summary>x</details>', 'A <b>bold</b> word.', '<div hidden class="x">\nswallow\n\n\nthe rest']) {
      const c = await check(text);
      assert.equal(c.whole.built, true, `raw HTML ${JSON.stringify(text)} is built as text`);
      assert.deepEqual([...new Set(c.whole.tags)], ['P'], `raw HTML ${JSON.stringify(text)} makes paragraphs only`);
    }
  });

  it('writes a paragraph of 20,000 escapes into its text node at once, not once per escape', async () => {
    // A paragraph whose settled prefix is empty renders whole at every update; each write copied the node's text so far.
    const r = await bundled.page.evaluate((t) => (window as any).__writes(t), `${'\\* '.repeat(20_000)}end, and *one* more.`);
    assert.equal(r.same, true, 'the same nodes as the HTML path');
    assert.ok(r.writes <= 2, `${r.writes} writes`);
  });

  it('leaves markup nested thousands deep to the HTML parser, whose depth cap keeps the page alive', async () => {
    // Built as it nests, '> - ' a thousand times is a tree 3,000 elements deep, and laying it out crashed the page.
    for (const text of ['> - '.repeat(1000) + 'x', '>'.repeat(3000) + ' x', '- '.repeat(2000) + 'x']) {
      const { depth, height } = await bundled.page.evaluate((t) => (window as any).__layout(t), text);
      assert.ok(depth < 600 && height > 0, `${JSON.stringify(text.slice(0, 12))}…: depth ${depth}, height ${height}`);
    }
    assert.equal((await check('> '.repeat(8) + '- **deep but plain**')).whole.built, true, 'ordinary nesting is still built');
  });

  it('is node for node the HTML path on every fixture document and 300 random ones', async () => {
    let builtBlocks = 0;
    let blocks = 0;
    for (const file of readdirSync(DOCS).filter((f) => /\.mdx?$/.test(f))) assertSame(file, await check(readFileSync(join(DOCS, file), 'utf8')));
    const rnd = seededRandom(11);
    for (let d = 0; d < 300; d++) {
      const c = await check(randomDocument(rnd, rnd() < 0.2));
      assertSame(`random document ${d}`, c);
      blocks += c.blocks.length;
      builtBlocks += c.blocks.filter((b) => b.built).length;
    }
    // Random documents are dense with links, entities and HTML on purpose; still, most blocks are built.
    assert.ok(builtBlocks > blocks / 2, `only ${builtBlocks} of ${blocks} blocks were built`);
  });

  it(`builds nothing but its own elements from ${XSS_PAYLOADS.length} XSS payloads in every markdown context`, async () => {
    const ALLOWED = new Set([
      'P',
      'H1',
      'H2',
      'H3',
      'H4',
      'H5',
      'H6',
      'STRONG',
      'EM',
      'DEL',
      'CODE',
      'PRE',
      'BR',
      'HR',
      'UL',
      'OL',
      'LI',
      'TABLE',
      'THEAD',
      'TBODY',
      'TR',
      'TH',
      'TD',
      'BLOCKQUOTE',
    ]);
    let built = 0;
    for (const payload of XSS_PAYLOADS) {
      const flat = payload.replace(/\n/g, ' ');
      const contexts = [
        payload,
        `Text ${flat} text.`,
        `\`${flat}\``,
        `\`\`\`\n${payload}\n\`\`\``,
        `\`\`\`${flat}\nx\n\`\`\``,
        `- ${flat}`,
        `| a |\n|---|\n| ${flat.replace(/\|/g, '\\|')} |`,
        `> ${flat}`,
        `# ${flat}`,
        `**${flat}**`,
      ];
      for (const text of contexts) {
        const c = await check(text);
        assertSame(`payload ${JSON.stringify(payload)} in ${JSON.stringify(text)}`, c);
        for (const x of [c.whole, ...c.blocks, ...c.inlines]) {
          if (!x.built) continue;
          built++;
          for (const tag of x.tags!) assert.ok(ALLOWED.has(tag), `${tag} built from ${JSON.stringify(text)}`);
        }
      }
    }
    assert.ok(built > XSS_PAYLOADS.length, `only ${built} pieces were built: the contexts do not reach the builder`);
  });
});
