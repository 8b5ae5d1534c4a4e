import * as assert from 'node:assert/strict';
import { ServiceError } from '../../src/api/errors';
import type { AnalyticsPage, AnalyticsQuery, FeedbackEntry } from '../../src/api/types';
import { drain, MAX_KEPT_ENTRIES, MAX_RATE_WAIT_MS, PAGE_LIMIT } from '../../src/health/core/signalsFetch';
import { FakeClock, flush } from './fakeClock';

// Draining one analytics read by cursor: at most 100 a request, at most 5,000 kept (the oldest
// dropped first, counted), an endless or repeating cursor stopped, a 429 waited out when the
// service asks for a short wait, and an abort heard everywhere.

const entry = (i: number, at: number | null = i): FeedbackEntry => ({
  id: `fb_${i}`,
  path: `/page-${i % 10}`,
  comment: null,
  createdAt: at === null ? null : new Date(Date.UTC(2026, 0, 1) + at * 1000).toISOString(),
  source: 'contextual',
  status: 'pending',
  helpful: false,
});
const dateOf = (e: FeedbackEntry): string | null => e.createdAt;
const Q: AnalyticsQuery = { dateFrom: '2026-01-01', dateTo: '2026-02-01', status: ['pending'] };

/** A read serving `all` by cursor (the cursor is the next index), recording every query. */
function served(all: FeedbackEntry[], pageDropped = 0) {
  const queries: AnalyticsQuery[] = [];
  const read = async (q: AnalyticsQuery): Promise<AnalyticsPage<FeedbackEntry>> => {
    queries.push(q);
    const start = q.cursor ? Number(q.cursor) : 0;
    const end = Math.min(all.length, start + (q.limit ?? 50));
    return { items: all.slice(start, end), nextCursor: end < all.length ? String(end) : null, hasMore: end < all.length, dropped: pageDropped };
  };
  return { read, queries };
}

function shuffled<T>(xs: T[], seed = 7): T[] {
  const out = xs.slice();
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('signalsFetch drain', () => {
  it('pages by cursor, 100 a request, with the query as given, until the last page', async () => {
    const { read, queries } = served(
      Array.from({ length: 250 }, (_, i) => entry(i)),
      2,
    );
    const got = await drain(read, Q, { dateOf });
    assert.equal(got.items.length, 250);
    assert.equal(got.dropped, 6, 'the shape check drops of each page are counted');
    assert.equal(got.truncated, false);
    assert.deepEqual(
      queries.map((q) => [q.limit, q.cursor, q.dateFrom, q.dateTo, q.status]),
      [
        [PAGE_LIMIT, undefined, '2026-01-01', '2026-02-01', ['pending']],
        [PAGE_LIMIT, '100', '2026-01-01', '2026-02-01', ['pending']],
        [PAGE_LIMIT, '200', '2026-01-01', '2026-02-01', ['pending']],
      ],
    );
  });

  it('keeps at most 5,000 entries: the oldest are dropped first and counted, whatever order they came in', async () => {
    const all = shuffled(Array.from({ length: 6000 }, (_, i) => entry(i, i === 5 ? null : i)));
    const got = await drain(served(all).read, Q, { dateOf });
    assert.equal(got.items.length, MAX_KEPT_ENTRIES);
    assert.equal(got.dropped, 1000);
    const kept = new Set(got.items.map((e) => e.id));
    assert.ok(kept.has('fb_5999') && kept.has('fb_1000'), 'the newest are kept');
    assert.ok(!kept.has('fb_999') && !kept.has('fb_0') && !kept.has('fb_5'), 'the oldest, and the undated, are dropped');
    assert.equal(got.items[0]!.id, 'fb_5999', 'newest first');
  });

  it('without dates (searches, by-page counts) keeps the first 5,000 in the order served and stops', async () => {
    const { read, queries } = served(Array.from({ length: 9000 }, (_, i) => entry(i, null)));
    const got = await drain(read, Q, {});
    assert.equal(got.items.length, MAX_KEPT_ENTRIES);
    assert.equal(got.items.at(-1)!.id, 'fb_4999');
    assert.equal(got.truncated, true);
    assert.equal(queries.length, 50);
  });

  it('stops an endless cursor (always more, always a new cursor) after a bounded number of requests', async () => {
    let n = 0;
    const read = async (): Promise<AnalyticsPage<FeedbackEntry>> => {
      n++;
      return { items: [entry(n)], nextCursor: `c${n}`, hasMore: true, dropped: 0 };
    };
    const got = await drain(read, Q, { dateOf });
    assert.equal(n, (2 * MAX_KEPT_ENTRIES) / PAGE_LIMIT);
    assert.equal(got.truncated, true);
    assert.equal(got.items.length, n);
  });

  it('stops when the service hands back a cursor it already gave', async () => {
    let n = 0;
    const read = async (): Promise<AnalyticsPage<FeedbackEntry>> => {
      n++;
      return { items: [entry(n)], nextCursor: 'same', hasMore: true, dropped: 0 };
    };
    const got = await drain(read, Q, { dateOf });
    assert.equal(n, 2);
    assert.equal(got.truncated, true);
  });

  it("waits out a 429's Retry-After when it is short, then asks again", async () => {
    const clock = new FakeClock();
    const { read: inner, queries } = served(Array.from({ length: 150 }, (_, i) => entry(i)));
    let limited = false;
    const read = async (q: AnalyticsQuery, _o: { signal?: AbortSignal }): Promise<AnalyticsPage<FeedbackEntry>> => {
      if (q.cursor === '100' && !limited) {
        limited = true;
        throw new ServiceError({ reason: { code: 'rateLimited', service: 'agent', retryAt: clock.now() + 5000 }, status: 429, retryAfterMs: 5000 });
      }
      return inner(q);
    };
    let done = false;
    const p = drain(read, Q, { dateOf, clock }).then((r) => ((done = true), r));
    await flush();
    await clock.advance(4000);
    assert.equal(done, false, 'still waiting before the Retry-After');
    await clock.advance(1000);
    const got = await p;
    assert.equal(got.items.length, 150);
    assert.deepEqual(
      queries.map((q) => q.cursor),
      [undefined, '100'],
    );
  });

  it('fails with the 429 when the wait asked for is too long, or keeps coming', async () => {
    const clock = new FakeClock();
    const long = new ServiceError({ reason: { code: 'rateLimited', service: 'agent', retryAt: MAX_RATE_WAIT_MS + 1000 }, status: 429 });
    await assert.rejects(
      drain(
        async () => {
          throw long;
        },
        Q,
        { dateOf, clock },
      ),
      (e) => e === long,
    );
    let calls = 0;
    const always = async (): Promise<AnalyticsPage<FeedbackEntry>> => {
      calls++;
      throw new ServiceError({ reason: { code: 'rateLimited', service: 'agent', retryAt: clock.now() + 1000 }, status: 429 });
    };
    const p = drain(always, Q, { dateOf, clock });
    const settled = p.then(
      () => 'resolved',
      (e: ServiceError) => e.reason.code,
    );
    for (let i = 0; i < 10; i++) await clock.advance(1000);
    assert.equal(await settled, 'rateLimited');
    assert.ok(calls <= 4, `gave up after a few waits (${calls} calls)`);
  });

  it('hears an abort while waiting and between pages', async () => {
    const clock = new FakeClock();
    const ac = new AbortController();
    const read = async (): Promise<AnalyticsPage<FeedbackEntry>> => {
      throw new ServiceError({ reason: { code: 'rateLimited', service: 'agent', retryAt: clock.now() + 30_000 }, status: 429 });
    };
    const p = drain(read, Q, { dateOf, clock, signal: ac.signal });
    await flush();
    ac.abort();
    await assert.rejects(p, (e: ServiceError) => e.reason.code === 'aborted');
    assert.equal(clock.pending, 0, 'the wait is cleared');
    const ac2 = new AbortController();
    const seen: (AbortSignal | undefined)[] = [];
    const slow = async (_q: AnalyticsQuery, o: { signal?: AbortSignal }): Promise<AnalyticsPage<FeedbackEntry>> => {
      seen.push(o.signal);
      ac2.abort();
      return { items: [entry(1)], nextCursor: 'x', hasMore: true, dropped: 0 };
    };
    await assert.rejects(drain(slow, Q, { dateOf, signal: ac2.signal }), (e: ServiceError) => e.reason.code === 'aborted');
    assert.deepEqual(seen, [ac2.signal], 'the signal reaches the read, and no page is asked for after the abort');
  });

  it('is linear in entries: each date read once, and 10× the entries in about 10× the time', async () => {
    let dates = 0;
    const counted = (e: FeedbackEntry): string | null => (dates++, e.createdAt);
    const time = async (n: number): Promise<number> => {
      const all = shuffled(Array.from({ length: n }, (_, i) => entry(i)));
      const runs: number[] = [];
      for (let r = 0; r < 7; r++) {
        dates = 0;
        const t0 = performance.now();
        const got = await drain(served(all).read, Q, { dateOf: counted, maxEntries: n });
        runs.push(performance.now() - t0);
        assert.equal(got.items.length, n);
        assert.equal(dates, n, 'each entry is dated once');
      }
      // The fastest run: what the machine's load added least to.
      return Math.min(...runs);
    };
    await time(2000);
    const small = await time(2000);
    const large = await time(20_000);
    assert.ok(large < 2000, `20,000 entries in ${large.toFixed(0)} ms`);
    // Linear is 10× (a sort, n log n, a little more); quadratic would be 100×.
    assert.ok(large / Math.max(small, 0.5) < 40, `10× the entries took ${(large / small).toFixed(1)}× the time`);
  });
});
