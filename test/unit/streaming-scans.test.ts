import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { Marked, marked, type Token } from 'marked';
import { lexBlocks } from '../../src/webview/markdown';
import { endsWithBlankLine } from '../../src/webview/textScans';
import { innerOf, settledPrefix } from '../../src/webview/inlinePrefix';
import { trailingSpaces, tryFastAppend, type FastPath } from '../../src/webview/plainAppend';

// The streaming renderer's own scans of a chunk's text, in Node. Each used to be a regex anchored
// at `$` that starts with a run (`/[ ]*$/`, `/\n[ \t]*\n[ \t\n]*$/`, `/[*_~]+$/`): the engine tries
// it from every character of the run and reads to the end of the run each time, so one long run
// took seconds. (Chromium rescues some of them with a second regex engine; Node does not, nor need
// a given Electron.) Now they are scans from the end by hand, which must answer exactly what the
// regexes answered, and take time in proportion to the run.

/** Generous, for a busy machine: each of these took over a second before. */
const BOUND_MS = 100;
const LONG = 100_000;
const SEED = 20261208;

function timed<T>(fn: () => T): [T, number] {
  const t0 = performance.now();
  const out = fn();
  return [out, performance.now() - t0];
}

/** Text built from the characters these scans look at. */
const scanned = (chars: string[]) => fc.array(fc.constantFrom(...chars), { maxLength: 30 }).map((xs) => xs.join(''));

describe('the streaming renderer’s scans from the end of a text', () => {
  it('endsWithBlankLine answers what /\\n[ \\t]*\\n[ \\t\\n]*$/ did, in time linear in a fence of blank lines', () => {
    fc.assert(
      fc.property(scanned(['\n', ' ', '\t', 'a', '`', '\r']), (s) => assert.equal(endsWithBlankLine(s), /\n[ \t]*\n[ \t\n]*$/.test(s), JSON.stringify(s))),
      { seed: SEED, numRuns: 5000 },
    );
    const fence = `\`\`\`\n${'\n'.repeat(LONG)}\`\`\`\n`;
    const [closed, ms] = timed(() => endsWithBlankLine(fence));
    assert.equal(closed, false);
    assert.ok(ms <= BOUND_MS, `${ms.toFixed(0)} ms`);
    assert.equal(endsWithBlankLine(`${fence}\n${' '.repeat(LONG)}`), true);
  });

  it('trailingSpaces counts what /[ ]*$/ matched, in time linear in the spaces', () => {
    fc.assert(
      fc.property(scanned([' ', ' ', 'a', '\t', '\n']), (s) => assert.equal(trailingSpaces(s), /[ ]*$/.exec(s)![0].length, JSON.stringify(s))),
      { seed: SEED, numRuns: 5000 },
    );
    const [n, ms] = timed(() => trailingSpaces(`Spaces${' '.repeat(LONG)}end.`));
    assert.equal(n, 0);
    assert.ok(ms <= BOUND_MS, `${ms.toFixed(0)} ms`);
  });

  it('innerOf strips what /^[*_~]+/ and /[*_~]+$/ did; a bold word holding 100,000 underscores settles at once', () => {
    const strong = (raw: string) => ({ type: 'strong', raw, text: '', tokens: [] }) as unknown as Token;
    fc.assert(
      fc.property(scanned(['*', '_', '~', 'a', ' ', '`']), (raw) =>
        assert.equal(innerOf(strong(raw)), raw.replace(/^[*_~]+/, '').replace(/[*_~]+$/, ''), JSON.stringify(raw)),
      ),
      { seed: SEED, numRuns: 5000 },
    );
    const tokens = [
      strong(`**a${'_'.repeat(LONG)}b**`),
      { type: 'text', raw: ' and then', text: ' and then' },
      { type: 'text', raw: ' more', text: ' more' },
    ] as Token[];
    const [prefix, ms] = timed(() => settledPrefix(tokens));
    assert.deepEqual(prefix, { tokens: 1, elements: 1 });
    assert.ok(ms <= BOUND_MS, `${ms.toFixed(0)} ms`);
  });

  it('the plain-text shortcut holds a list item’s trailing spaces, and appends the word after 100,000 of them at once', () => {
    let data = 'Spaces';
    const node = {
      appendData: (s: string) => void (data += s),
      get length() {
        return data.length;
      },
    } as unknown as Text;
    const fast: FastPath = { mode: 'prose', node, hint: false, lineEnd: 'Spaces', held: '', keepsSpaces: false };
    for (let i = 0; i < LONG / 1000; i++) assert.ok(tryFastAppend(fast, ' '.repeat(1000)));
    assert.equal(data, 'Spaces', 'trailing spaces are held, as marked trims them at the end of an item');
    const [ok, ms] = timed(() => tryFastAppend(fast, ' and end.  '));
    assert.ok(ok);
    assert.equal(data, `Spaces${' '.repeat(LONG + 1)}and end.`);
    assert.equal(fast.mode === 'prose' && fast.held, '  ');
    assert.ok(ms <= BOUND_MS, `${ms.toFixed(0)} ms`);
  });

  it('the shortcut finds an autolink hint split between deltas, as it did reading the whole line', () => {
    const node = { appendData: () => undefined } as unknown as Text;
    const fast: FastPath = { mode: 'prose', node, hint: false, lineEnd: 'See', held: '', keepsSpaces: true };
    assert.ok(tryFastAppend(fast, ' the ww'));
    assert.ok(tryFastAppend(fast, 'w'), 'letters alone are always plain');
    assert.equal(tryFastAppend(fast, '.docs'), false, '“www.” may become a link: the full render decides');
    const mail: FastPath = { mode: 'prose', node, hint: false, lineEnd: 'Write to mai', held: '', keepsSpaces: true };
    assert.ok(tryFastAppend(mail, 'lto'));
    assert.equal(tryFastAppend(mail, ':me'), false);
  });

  it('the webview lexes no raw HTML: no `html` token, whatever the block holds (the renderer has no branch for one)', () => {
    // The inputs that made one when the renderer checked for raw HTML, with marked's defaults.
    const types = (md: string) => {
      const seen = new Set<string>();
      marked.walkTokens(lexBlocks(md), (t) => void seen.add(t.type));
      return seen;
    };
    for (const md of [
      '<div>a</div>',
      'a <b>b</b>',
      '- a\n- b <i>c</i>',
      '| h |\n|---|\n| <b>c</b> |',
      '> > a <br>',
      '# A <s>b</s>',
      '<!-- c -->\n\nx',
      '<script>x</script>',
    ])
      assert.ok(!types(md).has('html'), md);
    assert.ok(
      new Marked({ gfm: true }).lexer('<div>a</div>').some((t) => t.type === 'html'),
      'marked itself still makes one',
    );
  });
});
