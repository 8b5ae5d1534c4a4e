import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { Marked } from 'marked';
import { conversationMarkdown } from '../../src/chat/core/exportMarkdown';
import type { AnswerView, TurnView } from '../../src/common/protocol';
import { imageVectors } from '../fixtures/hostileAnswer';
import { mdCodeSpan, mdFenced, mdLinkDestination, mdLine } from '../../src/common/markdown/escape';
import { safeMarkdown } from '../../src/common/markdown/writer';

// Issue 27, item 1: whatever the extension writes out as Markdown is inert in every renderer a
// user opens it in. VS Code's Markdown preview is markdown-it with raw HTML and linkify on (and
// img-src https allowed); GitHub and the Chat view read it as GFM, here marked with raw HTML on
// (its default: it passes HTML through). In what either renders from the writer's output, there
// is no element but Markdown's own, no attribute that loads or styles, no link but http(s) and
// mailto, no comment, and every turn of the conversation is still there to read.

const EVIL = 'https://evil.example';

const VECTORS = imageVectors(EVIL);
const MORE = [
  '<!-- everything after this is hidden',
  `[clone](vscode://vscode.git/clone?url=${EVIL}/repo)`,
  '[run](command:workbench.action.terminal.new)',
  '[js](javascript:alert(1))',
  '<javascript:alert(1)>',
  `<${EVIL}/autolink>`,
  `![ref][r]\n\n[r]: ${EVIL}/ref.png`,
  `\\![x](${EVIL}/escaped-bang.png)`,
  `&lt;img src=${EVIL}/entity.png&gt; &#60;img src=${EVIL}/num.png&#62;`,
  '$\\href{https://evil.example/math}{x}$',
  '```mermaid\ngraph TD; A-->B\n```',
  '```html\n<img src="https://evil.example/in-code.png">\n```',
  '~~~\nunclosed tilde fence',
  '<style>* { background: url(https://evil.example/css.png) }</style>',
  '<svg><image href="https://evil.example/svg.png"/></svg>',
  '| a | b |\n|---|---|\n| <img src=https://evil.example/cell.png> | [x](javascript:1) |',
  '- [ ] task <img src=https://evil.example/task.png>\n- item',
  '> quote <img src=https://evil.example/q.png>\n>\n> ```\n> code',
];

/** The elements Markdown itself writes; nothing else may come out. */
const ALLOWED_TAGS = new Set('p h1 h2 h3 h4 h5 h6 a code pre em strong del s ul ol li blockquote hr br table thead tbody tr th td input'.split(' '));

const markdownIt = new MarkdownIt({ html: true, linkify: true });
const gfm = new Marked({ gfm: true });

/** Every problem found in `html` (as a renderer wrote it from the writer's output). */
function problems(html: string): string[] {
  const found: string[] = [];
  if (html.includes('<!--')) found.push('an HTML comment');
  for (const m of html.matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g)) {
    const [tag, name, attrs] = [m[0], m[1]!.toLowerCase(), m[2]!];
    if (!ALLOWED_TAGS.has(name)) found.push(`element ${tag}`);
    if (name === 'input' && !/type="checkbox"/.test(attrs)) found.push(`input ${tag}`);
    for (const a of attrs.matchAll(/([\w-]+)(?:="([^"]*)")?/g)) {
      const [attr, value = ''] = [a[1]!.toLowerCase(), a[2]];
      if (attr === 'href') {
        if (!/^(https?:\/\/|mailto:)/i.test(value)) found.push(`link ${tag}`);
      } else if (attr === 'class') {
        if (!/^language-[\w+#.-]*$/.test(value)) found.push(`class ${tag}`);
      } else if (attr === 'style') {
        if (!/^text-align:(left|right|center)$/.test(value)) found.push(`style ${tag}`);
      } else if (!['align', 'checked', 'disabled', 'type', 'start'].includes(attr)) found.push(`attribute ${attr} in ${tag}`);
    }
  }
  return found;
}

function answer(text: string): AnswerView {
  return { parts: [{ kind: 'text', text }], sources: [], status: 'done', notices: [], jobs: [] };
}
const turn = (id: string, question: string, text: string): TurnView => ({ id, question, context: [], answer: answer(text) });

/** An export of a hostile answer, then a turn that must stay visible. */
function exported(hostile: string, title = '<img src=https://evil.example/title.png>'): string {
  return conversationMarkdown({
    title,
    turns: [turn('a', `Question one ${hostile}`, hostile), turn('b', 'The second question stays visible', 'The second answer stays visible too.')],
  });
}

function assertInert(md: string): void {
  for (const [name, html] of [
    ['markdown-it', markdownIt.render(md)],
    ['marked', gfm.parse(md) as string],
  ] as const) {
    assert.deepEqual(problems(html), [], `${name} rendered:\n${html}\nfrom:\n${md}`);
    assert.match(html, /<h2>Question<\/h2>\s*<p>The second question stays visible<\/p>/, `${name}: the second turn is hidden:\n${html}`);
    assert.match(html, /<p>The second answer stays visible too\.<\/p>/, `${name}: the second answer is hidden:\n${html}`);
  }
}

describe('the safe Markdown writer (issue 27: export, Copy, relay, drafts)', () => {
  for (const v of [...VECTORS, ...MORE])
    it(`an export holding ${JSON.stringify(v.slice(0, 50))} is inert in markdown-it and marked`, () => assertInert(exported(v)));

  it('all the vectors in one answer, and an answer that ends inside an open comment or fence', () => {
    assertInert(exported([...VECTORS, ...MORE].join('\n\n')));
    assertInert(exported('text <!--'));
    assertInert(exported('```js\nopen fence'));
    assertInert(exported('````\n```\nnested'));
  });

  it('an image becomes a link to it; a badge inside a link becomes its words', () => {
    assert.equal(safeMarkdown(`![the diagram](${EVIL}/d.png?d=x)`), `[the diagram](${EVIL}/d.png?d=x)`);
    assert.equal(safeMarkdown(`[![badge](${EVIL}/b.svg)](https://docs.acme.test/)`), '[badge](https://docs.acme.test/)');
    assert.equal(safeMarkdown('[x](command:foo) and [y](vscode://a/b)'), 'x and y');
  });

  it('keeps what an answer means: headings, emphasis, code, lists, tables, quotes, links', () => {
    const md =
      '# Title\n\nSome *em*, **strong**, `code` and [a link](https://docs.acme.test/a).\n\n- one\n- two\n\n1. first\n2. second\n\n> quoted\n\n| a | b |\n|:-|-:|\n| 1 | 2 |\n\n```ts\nconst x = 1;\n```';
    assert.equal(safeMarkdown(md), md.replace('|:-|-:|', '| :--- | ---: |').replace('| a | b |', '| a | b |'));
  });

  it('raw HTML and entities are text', () => {
    assert.equal(safeMarkdown('<b>bold</b> &amp; &#60;i&#62;'), '&lt;b&gt;bold&lt;/b&gt; \\& &lt;i&gt;');
  });

  it('text pieces: one line, no markup, no list start; a code span and a fence nothing inside can close', () => {
    assert.equal(mdLine('[Set key](https://evil.example/k)\n# two'), '\\[Set key\\](https:/&#47;evil.example/k) \\# two');
    assert.equal(mdLine('- not a list'), '\\- not a list');
    assert.equal(mdLine('1. not a list'), '1\\. not a list');
    assert.equal(mdLine('a\u202eb'), 'ab');
    assert.equal(mdCodeSpan('a ``` b'), '````a ``` b````');
    assert.equal(mdCodeSpan('`x`'), '`` `x` ``');
    assert.equal(mdFenced('```\nx', 'js\n# no'), '````js\n```\nx\n````');
    assert.equal(mdFenced('x', 'mermaid'), '```\nx\n```');
    assert.equal(mdLinkDestination('https://a.test/p (x)'), 'https://a.test/p%20%28x%29');
    assert.equal(mdLinkDestination('https://user:pw@a.test/'), undefined);
    for (const bad of ['command:x', 'vscode://a', 'javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', '/relative'])
      assert.equal(mdLinkDestination(bad), undefined, bad);
  });

  it('a fuzz of hostile answers: every export is inert in both renderers, and the next turn stays visible', function () {
    this.timeout(60_000);
    const piece = fc.oneof(
      fc.constantFrom(...VECTORS, ...MORE),
      fc.constantFrom(
        '\n',
        '\n\n',
        ' ',
        '    ',
        '> ',
        '- ',
        '1. ',
        '# ',
        '```',
        '~~~',
        '`',
        '``',
        '<!--',
        '-->',
        '<',
        '>',
        '[',
        ']',
        '(',
        ')',
        '!',
        '\\',
        '*',
        '_',
        '|',
        '---',
        '===',
        '&',
        '&lt;',
        '$',
        '<img',
        ' src=',
        EVIL,
        '/x.png',
        '"',
        "'",
        '[r]: ',
        'javascript:',
        'command:x',
        'evil.com/x',
        'www.evil.com',
        'a@evil.com',
        '<https:',
        '](',
        '<br>',
        '\u202e',
      ),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        assertInert(exported(pieces.join(''), pieces.slice(0, 3).join('')));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 400) },
    );
  });
});
