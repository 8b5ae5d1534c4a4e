import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnalyticsClient } from '../../src/api';
import { english } from '../../src/common/l10n';
import { feedbackDraft } from '../../src/health/core/feedbackDraft';
import { ReaderSignalsStore } from '../../src/health/core/readerSignalsStore';
import { snippetLine } from '../../src/health/core/snippetPlace';
import { MAX_KEPT_ENTRIES } from '../../src/health/core/signalsFetch';
import * as words from '../../src/health/core/signalsWords';
import { DocsSiteMap, navigationPages, pageCandidates } from '../../src/host/core/docsSiteMap';
import { SNIPPET_CODE } from '../emulator';
import { outsideFences } from '../unit/fences';
import { emulatorPerSuite } from './helpers';

// Docs Health's core against the emulator over real HTTP: the store drains the four analytics
// reads through AnalyticsClient, maps the fixture site's pages to its files (as the wiring lists
// them: docs.json's navigation, the .mdx/.md files that exist), and gives the CodeLens the counts
// the issue names. Then the plan without analytics, a 429, an endless cursor, hostile reader text
// and the 10,000-entry project.

const SITE = join(__dirname, '..', 'fixtures', 'docs-site');
const FOLDER = 'file:///ws';

/** What src/host/vscode/docsSiteFiles.ts hands the core: the navigation's page files that exist. */
function fixtureSite(): DocsSiteMap {
  const pages = navigationPages(readFileSync(join(SITE, 'docs.json'), 'utf8')) ?? [];
  const files = pages.flatMap((p) => pageCandidates(p)).filter((f) => existsSync(join(SITE, f)));
  return new DocsSiteMap([{ folder: FOLDER, base: '', files: new Set(files) }]);
}

describe('Docs Health core against the emulator', function () {
  this.timeout(30_000);
  const running = emulatorPerSuite();

  const store = (): ReaderSignalsStore => {
    const emu = running();
    const client = new AnalyticsClient({ baseUrl: emu.url, projectId: emu.projectId, apiKey: emu.adminKey, requestTimeoutMs: 5000 });
    const s = new ReaderSignalsStore({ projectId: () => emu.projectId, calls: async () => client });
    s.setSites(fixtureSite());
    return s;
  };
  const analyticsRequests = (): number => running().requests.filter((r) => r.path.startsWith('/v1/analytics/')).length;

  it("gives getting-started.md the lens the issue names, from the emulator's readers", async () => {
    const s = store();
    await s.refresh();
    assert.equal(s.lastError, undefined);
    const page = s.forFile({ folder: FOLDER, path: 'getting-started.md' });
    assert.ok(page, 'the page is found by its file');
    assert.equal(words.lensTitle(words.pageCounts(page), s.filter.days, english), '👎 7 · 👍 12 · 3 comments · 2 unanswered questions (last 30 days)');
    assert.equal(s.snapshot!.pages[0]!.page, '/getting-started', 'ranked first: the most thumbs down');
    assert.deepEqual(s.snapshot!.notOffered, []);
  });

  it('maps a full URL on the docs site to its file, lists a page with no file, and places the snippet on its code block', async () => {
    const s = store();
    await s.refresh();
    const snap = s.snapshot!;
    assert.equal(s.forFile({ folder: FOLDER, path: 'installation.mdx' })?.comments.length, 1);
    const removed = snap.pages.find((p) => p.page === '/old/removed-page');
    assert.ok(removed && removed.file === undefined && removed.comments.length === 1, 'listed without a file');
    const webhooks = s.forFile({ folder: FOLDER, path: 'webhooks.md' })!;
    assert.equal(webhooks.snippets[0]!.code, SNIPPET_CODE);
    const line = snippetLine(readFileSync(join(SITE, 'webhooks.md'), 'utf8'), webhooks.snippets[0]!.code!);
    assert.ok(line !== undefined, 'the snippet is found in a code block of webhooks.md');
    assert.match(readFileSync(join(SITE, 'webhooks.md'), 'utf8').split('\n')[line]!, /^\s*(```|~~~)/);
    assert.ok(
      webhooks.unanswered.some((c) => c.query === 'Does a webhook retry on a 500?'),
      'a source given as a URL names the page',
    );
    assert.ok(snap.unanswered.some((c) => c.query === 'Is there a Go SDK?'));
    assert.ok(snap.clarifying.length > 0);
    assert.ok(snap.searches.length > 0 && snap.searches.every((x) => x.ctr <= 0.25));
  });

  it('a plan without analytics (403): every part not offered, no lens, no error', async () => {
    running().analytics.offer(false);
    const s = store();
    await s.refresh();
    assert.equal(s.lastError, undefined);
    assert.deepEqual([...s.snapshot!.notOffered].sort(), ['assistant', 'feedback', 'searches']);
    assert.equal(s.snapshot!.pages.length, 0);
    assert.equal(s.forFile({ folder: FOLDER, path: 'getting-started.md' }), undefined);
  });

  it("waits out a 429's Retry-After, then reads", async () => {
    running().analytics.fault('429');
    const s = store();
    const done = s.refresh();
    await new Promise((r) => setTimeout(r, 300));
    running().analytics.fault(undefined);
    await done;
    assert.equal(s.lastError, undefined);
    assert.ok(s.forFile({ folder: FOLDER, path: 'getting-started.md' }));
  });

  it('stops an endless cursor after a bounded number of requests', async () => {
    running().analytics.fault('endless');
    const s = store();
    await s.refresh();
    assert.equal(s.lastError, undefined);
    assert.ok(analyticsRequests() <= 2 * 100 + 2 * 50, `${analyticsRequests()} requests`);
    assert.ok(s.snapshot);
  });

  it('keeps hostile reader text inert and bounded in every word and in the draft', async () => {
    running().analytics.hostile(true);
    const s = store();
    await s.refresh();
    const snap = s.snapshot!;
    const shown: string[] = [];
    for (const p of snap.pages) {
      shown.push(words.pageLabel(p), words.pageDescription(p, english), words.lensTitle(words.pageCounts(p), 30, english));
      for (const e of [...p.comments, ...p.snippets]) shown.push(words.feedbackLabel(e, english), words.feedbackTooltip(e, p.page, english));
      const { draft } = feedbackDraft(p, { kind: 'page' }, 30, english);
      const outside = outsideFences(draft);
      assert.equal(outside.filter((l) => l.includes('Instruction:')).length, 1, `one Instruction line outside the quotes on ${p.page.slice(0, 40)}`);
      assert.ok(outside.at(-1)!.startsWith('Instruction: '));
      assert.ok(draft.length < 200_000, `draft bounded: ${draft.length}`);
    }
    for (const c of [...snap.unanswered, ...snap.clarifying]) shown.push(words.questionLabel(c), words.questionTooltip(c, english));
    assert.ok(shown.length > 20);
    for (const text of shown) {
      assert.ok(text.length <= 2200, `bounded: ${text.length}`);
      // eslint-disable-next-line no-control-regex -- control characters are what is checked for
      assert.ok(!/[\n\r\u0000-\u001f\u202a-\u202e\u2066-\u2069]/.test(text), `one visible line: ${JSON.stringify(text.slice(0, 60))}`);
    }
  });

  it('the 10,000-entry project: 5,000 kept, the rest counted as dropped, 1,000 pages listed without files', async () => {
    running().analytics.generate(10_000, 1000);
    const s = store();
    await s.refresh();
    const snap = s.snapshot!;
    assert.equal(s.lastError, undefined);
    const kept = snap.pages.reduce((n, p) => n + p.comments.length, 0);
    assert.ok(kept <= MAX_KEPT_ENTRIES);
    assert.ok(snap.dropped >= 10_000 - MAX_KEPT_ENTRIES, `dropped ${snap.dropped}`);
    assert.equal(snap.pages.filter((p) => p.page.startsWith('/bench/')).length, 1000);
    assert.ok(snap.pages.every((p) => p.file === undefined));
  });
});
