import * as assert from 'node:assert/strict';
import type { TurnView } from '../../src/common/protocol';
import { CODE_CHUNK_LINES } from '../../src/webview/codeChunks';
import { snapshotWith, withBundledPage, withWebview } from './fixture';

// Issue 16: a streamed answer's update must stay cheap however long the code block it grows.
// Chromium lays a text node's lines out again whenever the node changes: one line added to a
// 35,000-line code block held in one text node cost over 40 ms of layout alone. A code block's
// text is therefore held in chunks of CODE_CHUNK_LINES lines (src/webview/codeChunks.ts), so
// that one more line lays out one chunk again. The chunks must be the same whichever path built
// the block, hold exactly its text (Copy and Insert send `textContent`), and copy as the source
// lines when a selection crosses them.

const N = CODE_CHUNK_LINES;
/** Generous, for a busy 2-core machine; before the chunks, one more line cost 40–60 ms. */
const LAYOUT_SLACK_MS = 8;

const ENTRY = `
import { createIncrementalMarkdown } from './src/webview/incremental';
import { lexBlocks, renderBlocks } from './src/webview/markdown';
window.__md = { createIncrementalMarkdown, lexBlocks, renderBlocks };
`;

/** Lines of code, with blank lines, a line of spaces and a long line among them. */
function codeLines(n: number): string[] {
  return Array.from({ length: n }, (_, i) =>
    i % 9 === 4
      ? ''
      : i % 31 === 7
        ? '    '
        : i % 57 === 3
          ? `const long = '${'x'.repeat(300)}';`
          : `const line${i + 1} = relay.configure({ timeout: ${i} }); // a && b < c`,
  );
}

describe('code blocks in chunks of lines, in Chromium', function () {
  this.timeout(120_000);
  const bundled = withBundledPage({
    entry: ENTRY,
    body: '<div class="answer"><div class="markdown" id="out"></div></div>',
    styles: ['media/chat.css'],
    viewport: { width: 420, height: 800 },
  });

  it(`holds a code block's exact text in chunks of ${N} lines, the same from tokens and through the sanitizer`, async () => {
    for (const lines of [1, N - 1, N, N + 1, 2 * N, 2 * N + 37]) {
      const source = codeLines(lines).join('\n');
      const fence = `\`\`\`ts\n${source}\n\`\`\``;
      // A link in the same piece sends the whole piece, code block and all, through marked's HTML and DOMPurify.
      const r = await bundled.page.evaluate(
        ([fence, n]) => {
          const md = (window as any).__md;
          const shape = (text: string) => {
            const d = document.createElement('div');
            d.append(md.renderBlocks(md.lexBlocks(text)));
            const code = d.querySelector('pre > code')!;
            const chunks = Array.from(code.childNodes, (c) => ({
              ok: c.nodeName === 'SPAN' && (c as Element).className === 'code-chunk' && c.childNodes.length === 1 && c.firstChild!.nodeType === 3,
              newlines: (c.textContent!.match(/\n/g) ?? []).length,
              endsWithNewline: c.textContent!.endsWith('\n'),
            }));
            return { html: code.outerHTML, text: code.textContent, chunks, full: chunks.slice(0, -1).every((c) => c.newlines === n) };
          };
          return { plain: shape(fence), viaHtml: shape(`See [the docs](https://docs.test/a).\n\n${fence}`) };
        },
        [fence, N] as const,
      );
      for (const [path, s] of Object.entries(r)) {
        assert.equal(s.text, `${source}\n`, `${lines} lines, ${path}: the code's text is the source`);
        assert.ok(
          s.chunks.every((c) => c.ok && c.endsWithNewline && c.newlines >= 1 && c.newlines <= N),
          `${lines} lines, ${path}: ${JSON.stringify(s.chunks.slice(0, 3))}`,
        );
        assert.ok(s.full, `${lines} lines, ${path}: every chunk but the last holds ${N} lines`);
        assert.equal(s.chunks.length, Math.ceil(lines / N), `${lines} lines, ${path}`);
      }
      assert.equal(r.viaHtml.html, r.plain.html, `${lines} lines: the same chunks on both paths`);
    }
  });

  it('lays out one more line of a 35,000-line code block about as fast as one more line of a short one', async () => {
    const cost = (lines: number) =>
      bundled.page.evaluate(
        ([lines, line]) => {
          const md = (window as any).__md;
          const out = document.getElementById('out')!;
          out.replaceChildren();
          const r = md.createIncrementalMarkdown(
            out,
            () => undefined,
            () => undefined,
          );
          r.append(`\`\`\`ts\n${`${line}\n`.repeat(lines)}`);
          r.flush();
          void document.body.offsetHeight;
          const times: number[] = [];
          for (let i = 0; i < 7; i++) {
            const t0 = performance.now();
            r.append(`${line}\n`);
            r.flush();
            void document.body.offsetHeight;
            times.push(performance.now() - t0);
          }
          out.replaceChildren();
          return times.sort((a, b) => a - b)[3]!;
        },
        [lines, 'const value = compute(x, y); // one more line'] as const,
      );
    await cost(35_000);
    const small = await cost(350);
    const big = await cost(35_000);
    assert.ok(big <= small * 4 + LAYOUT_SLACK_MS, `one more line: ${big.toFixed(1)} ms in a 35,000-line block, ${small.toFixed(1)} ms in a 350-line one`);
  });
});

describe('a long code block in the real webview: Copy, Insert and a selection copy take its source', function () {
  this.timeout(60_000);
  const h = withWebview();

  it(`across chunks of ${N} lines, without a line more or less`, async () => {
    const source = codeLines(2 * N + 50).join('\n');
    const text = `Run this:\n\n\`\`\`ts\n${source}\n\`\`\`\n\nAnd that is all.\n`;
    const turn: TurnView = {
      id: 't1',
      question: 'Code?',
      context: [],
      answer: { parts: [{ kind: 'text', text: '' }], sources: [], status: 'streaming', notices: [], jobs: [] },
    };
    const page = await h.open(snapshotWith({ turns: [turn], busy: true }));
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    for (let i = 0; i < text.length; i += 700) await h.patch('t1', [{ op: 'appendText', part: 0, text: text.slice(i, i + 700) }]);
    await h.patch('t1', [{ op: 'setStatus', status: 'done' }]);
    await h.rendered();
    assert.equal(await page.locator('.answer pre > code > .code-chunk').count(), 3);

    await page.click('.code-block [data-action="copyCode"]');
    await page.click('.code-block [data-action="insertCode"]');
    assert.equal((await h.posted('copyCode'))[0]!.payload.code, `${source}\n`);
    assert.equal((await h.posted('insertCode'))[0]!.payload.code, `${source}\n`);

    // Selections that start and end inside chunks, on their edges, and span all of them.
    const lines = source.split('\n');
    const at = (line: number, column: number) => lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0) + column;
    const ranges: [number, number][] = [
      [at(N - 3, 6), at(2 * N + 7, 4)],
      [at(N, 0), at(2 * N, 0)],
      [at(N - 1, 0), at(N + 1, 0)],
      [at(0, 0), at(lines.length - 1, lines.at(-1)!.length)],
    ];
    const select = (from: number, to: number) =>
      page.evaluate(
        ([from, to]) => {
          // Offsets into the code's text. A user's selection puts a line start in the chunk that
          // shows that line, not after the last newline of the chunk before: so does this.
          const code = document.querySelector('.answer pre > code')!;
          const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
          const nodes: Text[] = [];
          for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n as Text);
          const place = (offset: number): [Text, number] => {
            let seen = 0;
            for (const n of nodes) {
              if (offset < seen + n.length || n === nodes.at(-1)) return [n, offset - seen];
              seen += n.length;
            }
            throw new Error('no text');
          };
          const range = document.createRange();
          range.setStart(...place(from));
          range.setEnd(...place(to));
          getSelection()!.removeAllRanges();
          getSelection()!.addRange(range);
        },
        [from, to] as const,
      );
    const copy = async () => {
      await page.keyboard.press('Control+c');
      return page.evaluate(() => navigator.clipboard.readText());
    };
    for (const [from, to] of ranges) {
      await select(from, to);
      assert.equal(await copy(), source.slice(from, to), `a selection of characters ${from}–${to}`);
    }
    // And one made with the mouse, dragged from a line start down across a chunk's end to a line start.
    const [from, to] = await page.evaluate(
      ([n, ...lines]) => {
        const code = document.querySelector('.answer pre > code')!;
        const rectOf = (line: number) => {
          const text = code.children[Math.floor(line / n!)]!.firstChild as Text;
          const offset = text.data
            .split('\n')
            .slice(0, line % n!)
            .reduce((sum, l) => sum + l.length + 1, 0);
          const range = document.createRange();
          range.setStart(text, offset);
          range.setEnd(text, offset + 1);
          return range.getBoundingClientRect();
        };
        // A press inside the last selection would drag it. Both lines in view, for the mouse to reach them.
        getSelection()!.removeAllRanges();
        document.querySelector('.transcript')!.scrollTop += rectOf(lines[0]!).top - 200;
        return lines.map((line) => ({ x: code.getBoundingClientRect().left + 1, y: rectOf(line).top + rectOf(line).height / 2 }));
      },
      [N, N - 3, N + 3],
    );
    await page.mouse.move(from!.x, from!.y);
    await page.mouse.down();
    await page.mouse.move(to!.x, to!.y, { steps: 4 });
    await page.mouse.up();
    assert.equal(await copy(), source.slice(at(N - 3, 0), at(N + 3, 0)), 'six lines selected with the mouse');
  });
});
