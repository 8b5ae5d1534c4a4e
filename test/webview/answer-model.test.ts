import * as assert from 'node:assert/strict';
import type { AnswerView, JobCardView, SourceView, TurnView } from '../../src/common/protocol';
import { bundleForBrowser } from './bundle';
import { snapshotWith, withWebview } from './fixture';

// What the page holds of an answer while it streams, and what a text delta costs it (issue 28):
// the answer's text is held once, by the renderer of its part, and a delta appends to it there.
// A delta copies nothing else of the turn (not its parts, not its view), and a list that came
// again unchanged (sources, notices, job cards) is not built again. Counted, not timed.

const SOURCES: SourceView[] = [
  { url: 'https://docs.acme.test/configuration', title: 'Configuration reference' },
  { url: 'https://docs.acme.test/faq', title: 'FAQ' },
];
const NOTICES = ['1 malformed chunk skipped'];
const JOBS: JobCardView[] = [{ jobId: 'j1', status: 'active', prLink: null, label: 'Fix the timeout docs' }];

function streamingTurn(answer: Partial<AnswerView>): TurnView {
  return {
    id: 't1',
    question: 'How do I set the timeout?',
    context: [],
    answer: { parts: [], sources: [], status: 'streaming', notices: [], jobs: [], ...answer },
  };
}

/** The turn's own code, loaded into the page beside the page's, so a test can look at one turn's objects. */
const ENTRY = `import { TurnElement } from './src/webview/turns'; window.__TurnElement = TurnElement;`;

/**
 * In the page: every object reachable from `root` by its own keys (DOM nodes and functions left
 * out: the DOM is what the text is shown in, not a copy of it), and every string found, with the
 * path to it. A getter (the renderer's `text`) is read like a field.
 */
const WALK = `window.__walk = (root) => {
  const objects = new Set();
  const strings = [];
  const visit = (v, path) => {
    if (typeof v === 'string') return void strings.push([path, v]);
    if (!v || typeof v !== 'object' || v instanceof Node || objects.has(v)) return;
    objects.add(v);
    for (const k of Object.keys(v)) visit(v[k], path + '.' + k);
  };
  visit(root, 'turn');
  return { objects, strings };
};`;

describe('the answer held once in the webview', function () {
  this.timeout(60_000);
  const h = withWebview();

  it('a chunk that brings the same sources, notices and job cards again leaves their DOM alone', async () => {
    const page = await h.open(
      snapshotWith({ turns: [streamingTurn({ parts: [{ kind: 'text', text: 'The' }], sources: SOURCES, notices: NOTICES, jobs: JOBS })] }),
    );
    await page.evaluate(() => {
      const w = window as unknown as { __changes: number; __observer: MutationObserver };
      w.__changes = 0;
      w.__observer = new MutationObserver((records) => (w.__changes += records.length));
      for (const list of ['.sources', '.notices', '.job-cards'])
        w.__observer.observe(document.querySelector(`.answer ${list}`)!, { childList: true, subtree: true, characterData: true, attributes: true });
    });
    const chunks = 60;
    for (let i = 0; i < chunks; i++)
      await h.patch('t1', [
        { op: 'appendText', part: 0, text: ` word${i}` },
        { op: 'setSources', sources: SOURCES },
        { op: 'setNotices', notices: NOTICES },
        { op: 'setJobs', jobs: JOBS },
      ]);
    await h.rendered();
    const changes = await page.evaluate(() => {
      const w = window as unknown as { __changes: number; __observer: MutationObserver };
      return w.__changes + w.__observer.takeRecords().length;
    });
    assert.equal(changes, 0, `the lists were built again ${changes} times over ${chunks} chunks that did not change them`);
    assert.match((await page.textContent('.answer .markdown'))!, /The word0 word1 .* word59\s*$/);
    // A list that did change is still shown at once.
    await h.patch('t1', [{ op: 'setNotices', notices: [...NOTICES, 'The answer was cut off.'] }]);
    assert.deepEqual(await page.locator('.notice').allTextContents(), [...NOTICES, 'The answer was cut off.']);
  });

  it('holds the text once, in its part’s renderer, and a delta copies nothing of the turn', async () => {
    const page = await h.open(snapshotWith());
    await page.evaluate(`${await bundleForBrowser(ENTRY)}\n${WALK}`);
    // A turn that was already streaming when the page got it: many parts, the text last.
    const tools = Array.from({ length: 30 }, (_, i) => ({
      kind: 'tool' as const,
      toolName: 'searchDocs',
      query: `q${i}`,
      state: 'done' as const,
      resultCount: i,
    }));
    const first = `${'The relay keeps a connection open for thirty seconds. '.repeat(40)}\n\n`;
    const deltas = Array.from({ length: 300 }, (_, i) => `word${i} `);
    const result = await page.evaluate(
      ([turn, deltas]) => {
        const w = window as any;
        const el = new w.__TurnElement(turn, true, () => undefined);
        document.body.append(el.root);
        const textPart = turn.answer.parts.length - 1;
        let before = w.__walk(el).objects as Set<object>;
        /** Objects of the turn that a delta made new (a copy of the view, of its parts, of a part). */
        const created: number[] = [];
        for (const text of deltas) {
          el.apply([{ op: 'appendText', part: textPart, text }]);
          const now = w.__walk(el).objects as Set<object>;
          created.push([...now].filter((o) => !before.has(o)).length);
          before = now;
        }
        el.apply([{ op: 'setStatus', status: 'done' }]);
        const final = (turn.answer.parts[textPart] as { text: string }).text + deltas.join('');
        // Every string the turn holds that is the answer's text, or a long piece of its start.
        const holders = (w.__walk(el).strings as [string, string][])
          .filter(([, s]) => s.length >= 1000 && final.startsWith(s))
          .map(([path, s]) => `${path} (${s.length === final.length ? 'all of it' : `${s.length} of ${final.length} chars`})`);
        return { created, holders, shown: el.root.querySelector('.markdown').textContent.trim().slice(-20) };
      },
      [streamingTurn({ parts: [...tools, { kind: 'text', text: first }] }), deltas] as const,
    );
    assert.ok(result.shown.endsWith('word298 word299'), `the text was rendered: …${result.shown}`);
    // Both counts at once, so that a failure shows both: objects made by the 300 deltas, and where the text is.
    assert.deepEqual(
      { objectsMadeByDeltas: result.created.reduce((a, b) => a + b, 0), holders: result.holders },
      { objectsMadeByDeltas: 0, holders: [`turn.parts.${tools.length}.md.text (all of it)`] },
    );
  });
});
