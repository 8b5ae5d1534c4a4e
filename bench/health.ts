import { join } from 'node:path';
import { AnalyticsClient, type AnalyticsQuery } from '../src/api';
import { english } from '../src/common/l10n';
import type { HealthSnapshot, PageFile } from '../src/health/core/readerSignals';
import { ReaderSignalsStore } from '../src/health/core/readerSignalsStore';
import * as words from '../src/health/core/signalsWords';
import { DocsSiteMap } from '../src/host/core/docsSiteMap';
import { startEmulator } from '../test/emulator';
import { ROOT } from './shadow';
import { fullGc, median, type BenchResult } from './util';

// 9. Docs Health (issue 31): a project of 10,000 feedback entries over 1,000 pages, from the
// emulator over real HTTP on 127.0.0.1. Fetched by the ReaderSignalsStore (the four reads drained
// by cursor through AnalyticsClient, shape-checked, bounded), mapped to 1,000 workspace files and
// turned into every tree item, against the same requests made with plain fetch and JSON.parse
// alone, as a ratio of medians in one run. The heap the kept snapshot holds after a full GC, over
// idle. And the CodeLens's work per file (forFile + the title), beside an empty provider's.

const NAME = 'Docs Health: 10,000 feedback entries over 1,000 pages, fetched, mapped and in the tree, against fetch + JSON.parse alone';
const ENTRIES = 10_000;
const PAGES = 1000;
const ROUNDS = 5;
/** The budgets: the whole at most twice fetch + JSON.parse, 20 MB over idle, 1 ms per file for the lens. */
const BUDGET = { ratio: 2, memoryMb: 20, lensMs: 1 } as const;
const DAY_MS = 86_400_000;

const ymd = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const ms = (n: number): string => `${n < 10 ? n.toFixed(2) : Math.round(n)} ms`;
const MB = (n: number): string => `${(n / (1024 * 1024)).toFixed(1)} MB`;

interface TreeItemLike {
  label: string;
  description: string;
  tooltip?: string;
}

/** What the Docs Health tree shows, every item built (the view builds them lazily; this is the worst case). */
function treeItems(s: HealthSnapshot): TreeItemLike[] {
  const items: TreeItemLike[] = [];
  for (const p of s.pages) {
    items.push({ label: words.pageLabel(p), description: words.pageDescription(p, english) });
    for (const e of [...p.comments, ...p.snippets])
      items.push({
        label: words.feedbackLabel(e, english),
        description: words.feedbackDescription(e, english),
        tooltip: words.feedbackTooltip(e, p.page, english),
      });
    for (const c of p.unanswered)
      items.push({ label: words.questionLabel(c), description: words.questionDescription(c), tooltip: words.questionTooltip(c, english) });
  }
  for (const c of [...s.unanswered, ...s.clarifying])
    items.push({ label: words.questionLabel(c), description: words.questionDescription(c), tooltip: words.questionTooltip(c, english) });
  for (const x of s.searches) items.push({ label: words.searchLabel(x), description: words.searchDescription(x, english) });
  return items;
}

/** The same requests as the store makes, with fetch and JSON.parse alone: every page of the four reads. */
async function fetchAndParseAlone(url: string, projectId: string, key: string, q: AnalyticsQuery): Promise<number> {
  let entries = 0;
  const reads: [string, string][] = [
    ['feedback', 'feedback'],
    ['feedback/by-page', 'feedback'],
    ['assistant', 'conversations'],
    ['searches', 'searches'],
  ];
  await Promise.all(
    reads.map(async ([path, field]) => {
      let cursor: string | undefined;
      for (;;) {
        const params = new URLSearchParams({ dateFrom: q.dateFrom, dateTo: q.dateTo, limit: '100' });
        if (path.startsWith('feedback')) params.set('status', 'pending,in_progress');
        if (cursor) params.set('cursor', cursor);
        const res = await fetch(`${url}/v1/analytics/${projectId}/${path}?${params}`, { headers: { authorization: `Bearer ${key}` } });
        const body = JSON.parse(await res.text()) as Record<string, unknown>;
        entries += (body[field] as unknown[]).length;
        if (!body.hasMore || typeof body.nextCursor !== 'string') break;
        cursor = body.nextCursor;
      }
    }),
  );
  return entries;
}

export async function benchHealth(): Promise<BenchResult> {
  // The bundle runs from bench/.build: the emulator's fixture site is named from the project's root.
  const emu = await startEmulator({ analyticsEntries: ENTRIES, analyticsPages: PAGES, docsDir: join(ROOT, 'test', 'fixtures', 'docs-site') });
  try {
    const now = Date.now();
    const q: AnalyticsQuery = { dateFrom: ymd(now - 29 * DAY_MS), dateTo: ymd(now + DAY_MS) };
    const client = new AnalyticsClient({ baseUrl: emu.url, projectId: emu.projectId, apiKey: emu.adminKey });
    const files = Array.from({ length: PAGES }, (_, i) => `bench/page-${String(i + 1).padStart(4, '0')}.mdx`);
    const sites = new DocsSiteMap([{ folder: 'file:///ws', base: '', files: new Set(files) }]);
    const fresh = (): ReaderSignalsStore => {
      const store = new ReaderSignalsStore({ projectId: () => emu.projectId, calls: async () => client });
      store.setSites(sites);
      return store;
    };

    const alone: number[] = [];
    const full: number[] = [];
    let read = 0;
    let items = 0;
    // One warm-up of each, then rounds alternating, so both see the same machine.
    await fetchAndParseAlone(emu.url, emu.projectId, emu.adminKey, q);
    await fresh().refresh();
    for (let r = 0; r < ROUNDS; r++) {
      let t0 = performance.now();
      read = await fetchAndParseAlone(emu.url, emu.projectId, emu.adminKey, q);
      alone.push(performance.now() - t0);
      t0 = performance.now();
      const store = fresh();
      await store.refresh();
      if (store.lastError) throw store.lastError;
      items = treeItems(store.snapshot!).length;
      full.push(performance.now() - t0);
    }

    // The heap the snapshot holds, over idle (the emulator's own data is in both).
    fullGc();
    const idle = process.memoryUsage().heapUsed;
    // The highest heap seen while it fetches, garbage included, beside the same for fetch +
    // JSON.parse alone: the emulator serves from this process, so both include its responses.
    const peakOf = async <T>(work: () => Promise<T>): Promise<{ value: T; peak: number }> => {
      fullGc();
      const base = process.memoryUsage().heapUsed;
      let peak = base;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 2);
      const value = await work();
      clearInterval(sampler);
      return { value, peak: Math.max(peak, process.memoryUsage().heapUsed) - base };
    };
    const alonePeak = (await peakOf(() => fetchAndParseAlone(emu.url, emu.projectId, emu.adminKey, q))).peak;
    const kept = fresh();
    const { value: tree, peak } = await peakOf(async () => {
      await kept.refresh();
      return treeItems(kept.snapshot!);
    });
    fullGc();
    const held = process.memoryUsage().heapUsed - idle;
    const s = kept.snapshot!;

    // The CodeLens per file: forFile + the title, beside a provider that returns nothing.
    const pageFiles: PageFile[] = files.map((path) => ({ folder: 'file:///ws', path }));
    const lens = (f: PageFile): string => {
      const p = kept.forFile(f);
      return p ? words.lensTitle(words.pageCounts(p), 30, english) : '';
    };
    const empty = (_f: PageFile): string[] => [];
    const perFile = (fn: (f: PageFile) => unknown): number => {
      const runs: number[] = [];
      for (let r = 0; r < 7; r++) {
        const t0 = performance.now();
        for (const f of pageFiles) fn(f);
        runs.push((performance.now() - t0) / pageFiles.length);
      }
      return median(runs);
    };
    perFile(lens);
    perFile(empty);
    const lensMs = perFile(lens);
    const emptyMs = perFile(empty);
    const lensed = pageFiles.filter((f) => lens(f) !== '').length;

    const ratio = median(full) / median(alone);
    return {
      name: NAME,
      rows: [
        [
          'stack',
          `emulator on 127.0.0.1 (real HTTP), ${ENTRIES} feedback entries over ${PAGES} pages, 500 conversations, 500 searches; ${ROUNDS} rounds + 1 warm-up`,
        ],
        ['fetch + JSON.parse alone (4 reads, every page)', `median ${ms(median(alone))} (${alone.map((x) => Math.round(x)).join(', ')}), ${read} entries`],
        [
          'store: fetch, shape, bound, map, rank + every tree item',
          `median ${ms(median(full))} (${full.map((x) => Math.round(x)).join(', ')}), ${items} tree items`,
        ],
        ['ratio', `${ratio.toFixed(2)}×`],
        [
          'snapshot',
          `${s.pages.length} pages (${s.pages.filter((p) => p.file).length} with a file), ${s.dropped} entries dropped (kept 5,000 newest), ${tree.length} tree items`,
        ],
        ['heap held by the snapshot after a full GC, over idle', MB(held)],
        ['highest heap while fetching, garbage and the in-process emulator included', `${MB(peak)} (fetch + JSON.parse alone: ${MB(alonePeak)})`],
        ['CodeLens per file: forFile + title', `${(lensMs * 1000).toFixed(2)} µs (${lensed} of ${PAGES} files have a lens)`],
        ['empty provider per file', `${(emptyMs * 1000).toFixed(2)} µs`],
      ],
      budgets: [
        {
          what: 'fetched, mapped and in the tree / fetch + JSON.parse alone',
          value: `${ratio.toFixed(2)}×`,
          budget: `≤ ${BUDGET.ratio}×`,
          met: ratio <= BUDGET.ratio,
        },
        { what: 'memory held over idle', value: MB(held), budget: `< ${BUDGET.memoryMb} MB`, met: held < BUDGET.memoryMb * 1024 * 1024 },
        {
          what: 'CodeLens per file (forFile + title)',
          value: `${(lensMs * 1000).toFixed(1)} µs`,
          budget: `< ${BUDGET.lensMs} ms`,
          met: lensMs < BUDGET.lensMs,
        },
      ],
      raw: {
        alone,
        full,
        ratio,
        heldBytes: held,
        peakBytes: peak,
        alonePeakBytes: alonePeak,
        lensMsPerFile: lensMs,
        emptyMsPerFile: emptyMs,
        items,
        pages: s.pages.length,
        dropped: s.dropped,
      },
    };
  } finally {
    await emu.close();
  }
}
