import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TurnView } from '../../src/common/protocol';
import { MAX_BLOCK_NESTING } from '../../src/common/markdown/markedLimits';
import { snapshotWith, withBundledPage, withWebview } from './fixture';
import { hostileDefinitions, pathologicalAnswer, pathologies } from './pathologicalMarkdown';
import { STREAMING_RENDERER_PAGE } from './streamingRendererPage';

// Issue 16, item 7: a 120 KB answer of pathological markdown had not rendered after a minute, and
// the chat could not take the next question. Every update of a streamed answer must take time in
// proportion to what changed, and the answer must be whole soon after its last byte, whatever
// the markdown. Each construct that froze the chat is streamed on its own through the real
// renderer in Chromium, at the benchmark's pace (about 100 characters a frame), and then all of
// them as one answer (430 KB) through the real webview page.
//
// The bounds are generous, for a busy 2-core machine: the benchmark's budget is 50 ms per update
// and 1 s to the whole answer (`npm run bench -- pathological`). With 300 ms and 1 s here, the CI
// soak (CI beside a CPU-heavy process, issue 27) saw single updates of 316 and 413 ms. Before the
// fix, single updates took seconds (quadratic regexes here and in marked) or threw (marked's recursion on deep
// quotes), so a stream gives up at the first update over the bound rather than run for minutes.
// The streamed DOM must still be the once-rendered one: the limits on marked (markedLimits.ts)
// apply to both alike. Near those limits, test/webview/streaming-render.test.ts-style checks run
// after every render.

const UPDATE_BOUND_MS = 1_000;
const FINISH_BOUND_MS = 2_000;
/** The real page: from the last patch sent to the whole answer on screen, CDP round trips included. */
const WHOLE_ANSWER_BOUND_MS = 2_500;
const PIECE = 100;
/**
 * All the updates of the hostile definitions together. Re-rendering the whole answer for each
 * changed definition cost 2-4 s here; rendering only the blocks that name it, 0.2 s at a load of
 * 5. The 50 ms budget for each update is the benchmark's (bench/pathological.ts,
 * `npm run bench -- pathological`): a test timed that finely failed under the CI soak's load (58 ms).
 */
const DEFINITIONS_TOTAL_BOUND_MS = 1_000;
/**
 * Chromium rescues a backtracking regex that runs too long with a linear engine; Node does not,
 * nor need the Electron of a given VS Code. Off here, so that what is measured is the code.
 */
const NO_REGEXP_RESCUE = '--js-flags=--no-enable-experimental-regexp-engine-on-excessive-backtracks';

interface Streamed {
  updates: number;
  renders: number;
  slowest: number;
  slowestAt: number;
  /** All the updates together, ms. */
  total: number;
  gaveUp: boolean;
  finish: number;
  same: boolean;
  firstDifference: number;
}

function piecesOf(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * Streams `pieces` one per frame, and gives up at the first update over `bound`; `checkEveryRender`
 * compares the DOM with the full render after every render.
 */
function stream(
  page: Page,
  pieces: string[],
  checkEveryRender = false,
  bound = UPDATE_BOUND_MS,
): Promise<Streamed & { mismatch?: { sent: string; got: string; want: string } }> {
  return page.evaluate(
    ([pieces, bound, checkEveryRender]) => {
      const md = (window as any).__md;
      const normal = (window as any).__normal as (e: Element) => string;
      const out = document.getElementById('out')!;
      out.replaceChildren();
      let sent = '';
      let renders = 0;
      let mismatch: { sent: string; got: string; want: string } | undefined;
      const r = md.create(out, () => {
        renders++;
        if (!checkEveryRender || mismatch) return;
        const got = normal(out);
        const want = normal(md.full(sent));
        if (got !== want) mismatch = { sent, got, want };
      });
      let slowest = 0;
      let slowestAt = 0;
      let updates = 0;
      let total = 0;
      for (const p of pieces) {
        sent += p;
        const t0 = performance.now();
        r.append(p);
        md.frame();
        const dt = performance.now() - t0;
        updates++;
        total += dt;
        if (dt > slowest) [slowest, slowestAt] = [dt, sent.length];
        // Already too slow: streaming the rest would take minutes.
        if (dt > bound) return { updates, renders, slowest, slowestAt, total, gaveUp: true, finish: NaN, same: false, firstDifference: -1, mismatch };
      }
      const t0 = performance.now();
      r.finish();
      const finish = performance.now() - t0;
      const got = normal(out);
      const want = normal(md.full(sent));
      let firstDifference = 0;
      while (firstDifference < got.length && got[firstDifference] === want[firstDifference]) firstDifference++;
      return { updates, renders, slowest, slowestAt, total, gaveUp: false, finish, same: got === want, firstDifference, mismatch };
    },
    [pieces, bound, checkEveryRender] as const,
  );
}

describe('pathological markdown in Chromium', function () {
  this.timeout(180_000);
  const bundled = withBundledPage({ ...STREAMING_RENDERER_PAGE, chromiumArgs: [NO_REGEXP_RESCUE] });

  for (const { name, text } of pathologies(40_000)) {
    it(`streams ${name} with no update over ${UPDATE_BOUND_MS} ms, whole within ${FINISH_BOUND_MS} ms, as one render shows it`, async () => {
      // Enough prose after it for a few renders: a block is finished when the next one has started.
      const doc = `Before it.\n\n${text}\n\n${'After it, the answer goes on. '.repeat(100)}\n`;
      const r = await stream(bundled.page, piecesOf(doc, PIECE));
      const at = `${r.slowestAt.toLocaleString()} of ${doc.length.toLocaleString()} characters`;
      assert.ok(!r.gaveUp && r.slowest <= UPDATE_BOUND_MS, `an update took ${r.slowest.toFixed(0)} ms (at ${at})`);
      assert.ok(r.finish <= FINISH_BOUND_MS, `finishing took ${r.finish.toFixed(0)} ms`);
      // The stream was rendered along the way (one render per 400 ms of frames at this pace), not only at the end.
      assert.ok(r.renders >= r.updates / 30, `only ${r.renders} renders for ${r.updates} updates`);
      assert.ok(r.same, `the streamed DOM differs from one render of the text, from character ${r.firstDifference} of its markup`);
    });
  }

  // Issue 27, item 3: a definition that changes with every delta made each render render the
  // whole answer again when a finished block might name it (123 ms a frame at 120 KB, 20 s over
  // the stream), and any label with a bracket or a backslash was taken to be named.
  it(`streams reference definitions after 120 KB of blocks, some naming them, in ${DEFINITIONS_TOTAL_BOUND_MS} ms of updates at most, as one render shows it`, async () => {
    // The page's first renders compile the renderer: a small answer of the kind first, not timed.
    await stream(bundled.page, piecesOf(hostileDefinitions(8_000), PIECE), false, Infinity);
    const text = hostileDefinitions(120_000);
    const r = await stream(bundled.page, piecesOf(text, PIECE));
    const at = `${r.slowestAt.toLocaleString()} of ${text.length.toLocaleString()} characters`;
    assert.ok(!r.gaveUp, `an update took ${r.slowest.toFixed(0)} ms (at ${at})`);
    assert.ok(r.total <= DEFINITIONS_TOTAL_BOUND_MS, `the updates took ${r.total.toFixed(0)} ms in all (slowest ${r.slowest.toFixed(0)} ms, at ${at})`);
    assert.ok(r.finish <= FINISH_BOUND_MS, `finishing took ${r.finish.toFixed(0)} ms`);
    assert.ok(r.same, `the streamed DOM differs from one render of the text, from character ${r.firstDifference} of its markup`);
  });

  it('shows exactly what one render shows after every render, where the limits on marked start to apply', async () => {
    const texts = [
      `A run of ${'*'.repeat(40)} and **a${'_'.repeat(40)}b** and _${'*'.repeat(33)}_ end.`,
      `${'> '.repeat(40)}a quote forty deep\n${'> '.repeat(36)}and its next line`,
      `${'- '.repeat(40)}a list forty deep\n\n${'1. '.repeat(34)}and a numbered one`,
      `${'*a '.repeat(20)}${'a* '.repeat(20)}nested emphasis`,
      `Mail ${'a'.repeat(70)}@docs.test or me_${'b'.repeat(10)}@docs.test, ${'a_'.repeat(40)}.`,
      `A paragraph${' '.repeat(50)}after spaces\n\n- an item${' '.repeat(50)}after spaces\n\n## A heading${' '.repeat(50)}`,
      `~a${' ~x'.repeat(33)} a~ and ~~b~~ and ~c ~d~`,
      `[a](${'('.repeat(40)} and [b](https://docs.test/${'(a)'.repeat(33)}) and [c](https://docs.test/${'(a)'.repeat(3)}) end`,
      `See https://docs.test/a${'.'.repeat(40)} and www.docs.test${'.'.repeat(40)}, https://docs.test/(b${'.'.repeat(40)})`,
      `- item\n${'lazy line\n'.repeat(40)}  ---\n\n- item\n${'lazy line\n'.repeat(40)}\nafter`,
      `${'`a` *b '.repeat(40)}* and ${'`*`'.repeat(5)}`,
    ];
    for (const text of texts) {
      for (const size of [1, 3, 7]) {
        const r = await stream(bundled.page, piecesOf(text, size), true);
        assert.equal(r.mismatch, undefined, JSON.stringify(r.mismatch, null, 1));
        assert.ok(r.same, `after finish(), from character ${r.firstDifference}: ${JSON.stringify(text)}`);
      }
    }
  });
});

describe('the 430 KB pathological answer in the real webview', function () {
  this.timeout(180_000);
  const h = withWebview();

  it(`is whole within ${WHOLE_ANSWER_BOUND_MS} ms of its last byte, and the chat takes the next question`, async () => {
    const text = pathologicalAnswer();
    const turn: TurnView = {
      id: 't1',
      question: 'Anything',
      context: [],
      answer: { parts: [{ kind: 'text', text: '' }], sources: [], status: 'streaming', notices: [], jobs: [] },
    };
    const page = await h.open(snapshotWith({ turns: [turn], busy: true }));
    // As the host sends it: at most two posts a frame, each with what arrived meanwhile.
    const started = Date.now();
    for (const p of piecesOf(text, 1_000)) {
      await h.patch('t1', [{ op: 'appendText', part: 0, text: p }]);
      assert.ok(Date.now() - started < 60_000, 'streaming the answer took over a minute');
    }
    const lastByte = Date.now();
    await h.patch('t1', [{ op: 'setStatus', status: 'done' }]);
    await page.waitForFunction(() => document.querySelector('.answer .markdown')?.textContent?.includes('And the answer ends.'), undefined, {
      timeout: 30_000,
      polling: 50,
    });
    const whole = Date.now() - lastByte;
    assert.ok(whole <= WHOLE_ANSWER_BOUND_MS, `the whole answer showed ${whole} ms after its last byte`);
    assert.deepEqual(await page.evaluate(() => (window as unknown as { __executed: string[] }).__executed), [], 'the page threw');
    const shown = await page.evaluate(() => ({
      quotes: document.querySelectorAll('.answer blockquote').length,
      code: document.querySelectorAll('.answer pre').length,
    }));
    // Quotes as deep as the limit on marked allows, the rest of the `> > …` as text; the fence one block.
    assert.ok(shown.quotes === MAX_BLOCK_NESTING && shown.code === 1, JSON.stringify(shown));

    await h.notify(
      'snapshot',
      snapshotWith({ turns: [{ ...turn, answer: { ...turn.answer, parts: [{ kind: 'text', text }], status: 'done' } }], busy: false }),
    );
    const input = page.locator('textarea.input');
    await input.fill('And the next question?');
    await input.press('Enter');
    assert.deepEqual(
      (await h.posted('send')).map((m) => m.payload.text),
      ['And the next question?'],
    );
  });
});
