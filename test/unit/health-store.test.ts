import * as assert from 'node:assert/strict';
import { ServiceError } from '../../src/api/errors';
import type { AnalyticsPage, AnalyticsQuery, AssistantConversationRecord, FeedbackEntry, PageFeedbackCounts, SearchRecord } from '../../src/api/types';
import { DocsSiteMap } from '../../src/host/core/docsSiteMap';
import { DEFAULT_FILTER, type HealthSnapshot } from '../../src/health/core/readerSignals';
import { FRESH_MS, ReaderSignalsStore } from '../../src/health/core/readerSignalsStore';
import type { AnalyticsCalls } from '../../src/health/core/signalsFetch';
import { FakeClock, flush } from './fakeClock';

// The one source of reader signals: fetched on demand, cached per project and filter for ten
// minutes, each read detected on its own (a 403/404 hides only its part), a failure kept as
// lastError without losing what was shown, and a file index the CodeLens asks without I/O.

type Kind = 'feedback' | 'feedbackByPage' | 'assistant' | 'searches';
const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);

const feedback: FeedbackEntry[] = [
  { id: 'f1', path: '/getting-started', comment: 'Install fails', createdAt: '2026-11-26T00:00:00Z', source: 'contextual', status: 'pending', helpful: false },
  { id: 'f2', path: '/old/removed-page', comment: 'Gone', createdAt: '2026-11-25T00:00:00Z', source: 'contextual', status: 'pending', helpful: false },
  { id: 'f3', path: '/webhooks', comment: null, createdAt: '2026-11-24T00:00:00Z', source: 'contextual', status: 'pending', helpful: true },
];
const byPage: PageFeedbackCounts[] = [
  { path: '/getting-started', thumbsUp: 12, thumbsDown: 7, code: 0, total: 19 },
  { path: '/webhooks', thumbsUp: 3, thumbsDown: 0, code: 0, total: 3 },
];
const conversations: AssistantConversationRecord[] = [
  {
    id: 'c1',
    timestamp: '2026-11-26T00:00:00Z',
    query: 'Rotate keys?',
    response: '',
    responseType: 'answer',
    sources: [{ title: 'GS', url: '/getting-started' }],
    resolutionStatus: 'unanswered',
    queryCategory: null,
  },
  {
    id: 'c2',
    timestamp: '2026-11-25T00:00:00Z',
    query: 'Which one?',
    response: 'Do you mean…',
    responseType: 'clarifying_question',
    sources: [],
    resolutionStatus: 'answered',
    queryCategory: null,
  },
];
const searches: SearchRecord[] = [{ searchQuery: 'retries', hits: 80, ctr: 0.05, topClickedPage: null, lastSearchedAt: null }];

function setup(fail: Partial<Record<Kind, () => ServiceError>> = {}) {
  const clock = new FakeClock();
  clock.advance(NOW);
  const calls: { kind: Kind; q: AnalyticsQuery; project: string }[] = [];
  let project = 'proj_1';
  let gate: Promise<void> | undefined;
  const page =
    <T>(kind: Kind, items: T[]) =>
    async (q: AnalyticsQuery): Promise<AnalyticsPage<T>> => {
      calls.push({ kind, q, project });
      await gate;
      const error = fail[kind]?.();
      if (error) throw error;
      return { items, nextCursor: null, hasMore: false, dropped: kind === 'feedback' ? 1 : 0 };
    };
  const analytics: AnalyticsCalls = {
    feedback: page('feedback', feedback),
    feedbackByPage: page('feedbackByPage', byPage),
    assistant: page('assistant', conversations),
    searches: page('searches', searches),
  };
  const store = new ReaderSignalsStore({ projectId: () => project, calls: async () => analytics, clock });
  store.setSites(new DocsSiteMap([{ folder: 'file:///ws', base: '', files: new Set(['getting-started.md', 'webhooks.md']) }]));
  let changes = 0;
  store.onDidChange(() => changes++);
  return {
    clock,
    calls,
    store,
    changes: () => changes,
    setProject: (p: string) => (project = p),
    hold: () => {
      let release!: () => void;
      gate = new Promise((r) => (release = r));
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

const notOffered = (status: number) => () => new ServiceError({ reason: { code: 'notOffered', feature: 'analytics', status }, status });

describe('ReaderSignalsStore', () => {
  it('fetches the four reads for the last 30 days, feedback of the open statuses, and builds the snapshot', async () => {
    const { store, calls } = setup();
    assert.equal(store.snapshot, undefined);
    await store.refresh();
    assert.deepEqual(calls.map((c) => c.kind).sort(), ['assistant', 'feedback', 'feedbackByPage', 'searches']);
    const fq = calls.find((c) => c.kind === 'feedback')!.q;
    assert.deepEqual([fq.dateFrom, fq.dateTo, fq.status], ['2026-10-29', '2026-11-28', ['pending', 'in_progress']]);
    assert.equal(calls.find((c) => c.kind === 'assistant')!.q.status, undefined, 'status filters feedback only');
    const s = store.snapshot!;
    assert.deepEqual([s.from, s.to, s.filter], ['2026-10-29', '2026-11-28', DEFAULT_FILTER]);
    assert.deepEqual(
      s.pages.map((p) => [p.page, p.file?.path, p.thumbsDown, p.thumbsUp, p.comments.length, p.unanswered.length]),
      [
        ['/getting-started', 'getting-started.md', 7, 12, 1, 1],
        ['/old/removed-page', undefined, 0, 0, 1, 0],
        ['/webhooks', 'webhooks.md', 0, 3, 0, 0],
      ],
    );
    assert.deepEqual(
      s.unanswered.map((c) => c.id),
      ['c1'],
    );
    assert.deepEqual(
      s.clarifying.map((c) => c.id),
      ['c2'],
    );
    assert.equal(s.searches.length, 1);
    assert.deepEqual(s.notOffered, []);
    assert.equal(s.dropped, 1);
    assert.equal(s.fetchedAt, new Date(NOW).toISOString());
  });

  it('answers forFile from an index of the last snapshot', async () => {
    const { store } = setup();
    assert.equal(store.forFile({ folder: 'file:///ws', path: 'getting-started.md' }), undefined);
    await store.refresh();
    assert.equal(store.forFile({ folder: 'file:///ws', path: 'getting-started.md' })?.page, '/getting-started');
    assert.equal(store.forFile({ folder: 'file:///other', path: 'getting-started.md' }), undefined);
    assert.equal(store.forFile({ folder: 'file:///ws', path: 'faq.md' }), undefined);
  });

  it('maps pages again when the sites change, without fetching', async () => {
    const { store, calls } = setup();
    await store.refresh();
    const before = calls.length;
    store.setSites(new DocsSiteMap([{ folder: 'file:///ws', base: 'docs', files: new Set(['old/removed-page.mdx']) }]));
    assert.equal(store.forFile({ folder: 'file:///ws', path: 'docs/old/removed-page.mdx' })?.page, '/old/removed-page');
    assert.equal(store.forFile({ folder: 'file:///ws', path: 'getting-started.md' }), undefined);
    assert.equal(calls.length, before);
  });

  it('is fresh for 10 minutes: refresh does nothing until then, force fetches anyway', async () => {
    const { store, calls, clock } = setup();
    await store.refresh();
    await clock.advance(FRESH_MS - 1000);
    await store.refresh();
    assert.equal(calls.length, 4);
    await store.refresh({ force: true });
    assert.equal(calls.length, 8);
    await clock.advance(FRESH_MS);
    await store.refresh();
    assert.equal(calls.length, 12);
  });

  it('caches per filter and per project', async () => {
    const { store, calls, setProject } = setup();
    await store.refresh();
    store.setFilter({ days: 7, statuses: ['resolved'] });
    assert.equal(store.snapshot, undefined, 'another filter has no snapshot yet');
    await store.refresh();
    const fq = calls.filter((c) => c.kind === 'feedback').at(-1)!.q;
    assert.deepEqual([fq.dateFrom, fq.status], ['2026-11-21', ['resolved']]);
    store.setFilter(DEFAULT_FILTER);
    assert.deepEqual((store.snapshot as HealthSnapshot | undefined)?.filter, DEFAULT_FILTER, 'back to the first filter: its snapshot, at once');
    await store.refresh();
    assert.equal(calls.length, 8, 'and still fresh');
    setProject('proj_2');
    assert.equal(store.snapshot, undefined);
    assert.equal(store.forFile({ folder: 'file:///ws', path: 'getting-started.md' }), undefined);
    await store.refresh();
    assert.equal(calls.at(-1)!.project, 'proj_2');
    assert.ok(store.snapshot);
  });

  it('detects each read on its own: a 403 or 404 hides its part, the rest shows', async () => {
    const a = setup({ assistant: notOffered(403) });
    await a.store.refresh();
    assert.deepEqual(a.store.snapshot!.notOffered, ['assistant']);
    assert.equal(a.store.snapshot!.pages[0]!.comments.length, 1);
    assert.equal(a.store.lastError, undefined, 'not offered is not an error');
    const f = setup({ feedback: notOffered(404), feedbackByPage: notOffered(404), searches: notOffered(403) });
    await f.store.refresh();
    assert.deepEqual(f.store.snapshot!.notOffered, ['feedback', 'searches']);
    assert.deepEqual(
      f.store.snapshot!.pages.map((p) => [p.page, p.unanswered.length]),
      [['/getting-started', 1]],
    );
    assert.equal(f.store.snapshot!.searches.length, 0);
  });

  it('counts thumbs from the entries when the by-page counts are not offered', async () => {
    const { store } = setup({ feedbackByPage: notOffered(404) });
    await store.refresh();
    const s = store.snapshot!;
    assert.deepEqual(s.notOffered, []);
    assert.deepEqual(
      s.pages.map((p) => [p.page, p.thumbsDown, p.thumbsUp]),
      [
        ['/getting-started', 1, 0],
        ['/old/removed-page', 1, 0],
        ['/webhooks', 0, 1],
      ],
    );
  });

  it('keeps a failure as lastError (a 429 with its retryAt), never rejects, and keeps what was shown', async () => {
    let fail = false;
    const { store } = setup({
      searches: () => {
        if (fail) throw new ServiceError({ reason: { code: 'rateLimited', service: 'agent', retryAt: NOW + 3_600_000 }, status: 429 });
        return undefined as unknown as ServiceError;
      },
    });
    // The first fetch succeeds (the failing thunk returns nothing to throw), the forced one fails.
    await store.refresh().catch(() => assert.fail('refresh rejected'));
    assert.ok(store.snapshot);
    const shown = store.snapshot;
    fail = true;
    await store.refresh({ force: true });
    assert.equal(store.lastError?.reason.code, 'rateLimited');
    assert.equal((store.lastError!.reason as { retryAt?: number }).retryAt, NOW + 3_600_000);
    assert.equal(store.snapshot, shown);
    assert.equal(store.busy, false);
    fail = false;
    await store.refresh({ force: true });
    assert.equal(store.lastError, undefined);
  });

  it('a configuration problem is the lastError', async () => {
    const store = new ReaderSignalsStore({
      projectId: () => undefined,
      calls: async () => {
        throw new ServiceError({ reason: { code: 'keyMissing', keyKind: 'admin' } });
      },
    });
    await store.refresh();
    assert.equal(store.lastError?.reason.code, 'keyMissing');
    assert.equal(store.snapshot, undefined);
  });

  it('joins a refresh already running, says when it is busy, and hears an abort', async () => {
    const { store, calls, hold, changes } = setup();
    const release = hold();
    const one = store.refresh();
    const two = store.refresh({ force: true });
    await flush();
    assert.equal(store.busy, true);
    assert.equal(changes(), 1, 'busy is announced');
    release();
    await Promise.all([one, two]);
    assert.equal(calls.length, 4, 'one fetch');
    assert.equal(store.busy, false);
    assert.equal(changes(), 2);
    const release2 = hold();
    const ac = new AbortController();
    const three = store.refresh({ force: true, signal: ac.signal });
    await flush();
    ac.abort();
    release2();
    await three;
    assert.equal(store.lastError, undefined, 'an abort is not an error to show');
    assert.equal(store.busy, false);
  });

  it('after invalidate() (another key, other settings) a refresh starts afresh: the running fetch is dropped, not joined', async () => {
    const { store, calls, hold } = setup();
    await store.refresh();
    assert.ok(store.snapshot);
    const release = hold();
    const old = store.refresh({ force: true });
    await flush();
    store.invalidate();
    assert.equal(store.snapshot, undefined, 'what the old key or settings read is not shown');
    const fresh = store.refresh();
    await flush();
    assert.equal(calls.length, 12, 'a second fetch, with what is set now, beside the dropped one');
    release();
    await Promise.all([old, fresh]);
    assert.ok(store.snapshot, 'the fresh fetch is shown');
    assert.equal(store.busy, false);
  });
});

describe('readSignals', () => {
  it('stops the other reads at once when one fails with anything but "not offered"', async () => {
    const { readSignals } = await import('../../src/health/core/signalsRead');
    const seen: AbortSignal[] = [];
    const waitForAbort = async (_q: AnalyticsQuery, o: { signal?: AbortSignal }): Promise<never> => {
      seen.push(o.signal!);
      await new Promise((r) => o.signal!.addEventListener('abort', r));
      throw new ServiceError({ reason: { code: 'aborted' } });
    };
    const calls: AnalyticsCalls = {
      feedback: waitForAbort,
      feedbackByPage: waitForAbort,
      assistant: waitForAbort,
      searches: async () => {
        throw new ServiceError({ reason: { code: 'serverError' }, status: 500 });
      },
    };
    await assert.rejects(
      readSignals(calls, DEFAULT_FILTER, { from: '2026-11-01', to: '2026-11-28' }, {}),
      (e: ServiceError) => e.reason.code === 'serverError',
    );
    assert.equal(seen.length, 3);
    assert.ok(seen.every((s) => s.aborted));
  });
});
