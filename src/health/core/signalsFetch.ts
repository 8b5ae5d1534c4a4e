import { abortedError, ServiceError } from '../../api';
import type { AnalyticsPage, AnalyticsQuery, AssistantConversationRecord, FeedbackEntry, PageFeedbackCounts, SearchRecord } from '../../api';
import { realClock, sleepOn, type Clock } from '../../host/core/clock';

// One analytics read drained by cursor, bounded whatever the service does: at most 100 entries a
// request, at most 5,000 kept (the oldest dropped first, and counted), a cursor that repeats or
// never ends stopped after a bounded number of requests, a 429 waited out when the service asks
// for a short wait (else it fails with it), and the caller's abort heard at every step. Linear
// in entries: pages are appended, and one pass at the end keeps the newest.

/** The four reads of src/api/analyticsClient.ts, as this feature uses them (one page each). */
export interface AnalyticsCalls {
  feedback(q: AnalyticsQuery, opts: { signal?: AbortSignal }): Promise<AnalyticsPage<FeedbackEntry>>;
  feedbackByPage(q: AnalyticsQuery, opts: { signal?: AbortSignal }): Promise<AnalyticsPage<PageFeedbackCounts>>;
  assistant(q: AnalyticsQuery, opts: { signal?: AbortSignal }): Promise<AnalyticsPage<AssistantConversationRecord>>;
  searches(q: AnalyticsQuery, opts: { signal?: AbortSignal }): Promise<AnalyticsPage<SearchRecord>>;
}

export type PageRead<T> = (q: AnalyticsQuery, opts: { signal?: AbortSignal }) => Promise<AnalyticsPage<T>>;

/** Entries asked for per request: the most the service gives. */
export const PAGE_LIMIT = 100;
/** Entries kept per read: enough to rank a site's pages, small enough to hold (issue 31). */
export const MAX_KEPT_ENTRIES = 5000;
/** The longest Retry-After waited out; past it the read fails with the 429 and the user refreshes later. */
export const MAX_RATE_WAIT_MS = 60_000;
/** 429s waited out per read before giving up. */
export const MAX_RATE_WAITS = 3;

export interface DrainOptions<T> {
  signal?: AbortSignal;
  clock?: Clock;
  /** Entries kept (default 5,000). */
  maxEntries?: number;
  /**
   * The entry's date, for reads where the newest matter (feedback, conversations): the oldest are
   * dropped first, and up to twice `maxEntries` are read to find the newest whatever the order.
   * Without it (searches ranked by hits, counts) the first `maxEntries` served are kept.
   */
  dateOf?: (item: T) => string | null;
}

export interface Drained<T> {
  /** Newest first when dated, else in the order served. */
  items: T[];
  /** Entries left out: past the bound (the oldest), or dropped by the shape check. */
  dropped: number;
  /** The read stopped while the service said there was more (a bound, a repeated or endless cursor). */
  truncated: boolean;
}

export async function drain<T>(read: PageRead<T>, query: AnalyticsQuery, options: DrainOptions<T> = {}): Promise<Drained<T>> {
  const { signal, dateOf } = options;
  const clock = options.clock ?? realClock;
  const max = Math.max(1, options.maxEntries ?? MAX_KEPT_ENTRIES);
  const readAtMost = dateOf ? 2 * max : max;
  const maxRequests = Math.ceil(readAtMost / PAGE_LIMIT);
  const items: T[] = [];
  const cursors = new Set<string>();
  let dropped = 0;
  let requests = 0;
  let waits = 0;
  let cursor: string | undefined;
  for (;;) {
    if (signal?.aborted) throw abortedError();
    let page: AnalyticsPage<T>;
    try {
      page = await read({ ...query, limit: PAGE_LIMIT, cursor }, { signal });
    } catch (error) {
      const wait = rateWait(error, clock);
      if (wait === undefined || wait > MAX_RATE_WAIT_MS || ++waits > MAX_RATE_WAITS) throw error;
      await sleepOn(clock, wait, signal);
      continue;
    }
    if (signal?.aborted) throw abortedError();
    requests++;
    dropped += page.dropped;
    for (const item of page.items) items.push(item);
    const next = page.hasMore && page.nextCursor ? page.nextCursor : undefined;
    if (next === undefined) return keep(items, max, dropped, false, dateOf);
    if (cursors.has(next) || requests >= maxRequests || items.length >= readAtMost) return keep(items, max, dropped, true, dateOf);
    cursors.add(next);
    cursor = next;
  }
}

/** The newest `max` (dated) or the first `max`, with what was left out counted. */
function keep<T>(items: T[], max: number, dropped: number, truncated: boolean, dateOf: ((item: T) => string | null) | undefined): Drained<T> {
  if (!dateOf) return { items: items.length > max ? items.slice(0, max) : items, dropped: dropped + Math.max(0, items.length - max), truncated };
  // Each date read once; an undated entry is the oldest. Already newest-first (as services serve it): no sort.
  const dated = items.map((item, i) => ({ item, at: timeOf(dateOf(item)), i }));
  let ordered = true;
  for (let i = 1; i < dated.length && ordered; i++) ordered = dated[i - 1]!.at >= dated[i]!.at;
  if (!ordered) dated.sort((a, b) => b.at - a.at || a.i - b.i);
  const kept = dated.length > max ? dated.slice(0, max) : dated;
  return { items: kept.map((d) => d.item), dropped: dropped + dated.length - kept.length, truncated };
}

function timeOf(date: string | null): number {
  const t = date ? Date.parse(date) : NaN;
  return Number.isFinite(t) ? t : -Infinity;
}

/** How long a 429 asks to wait (ms), or undefined when the error is not a 429. */
function rateWait(error: unknown, clock: Clock): number | undefined {
  if (!(error instanceof ServiceError) || error.reason.code !== 'rateLimited') return undefined;
  if (error.reason.retryAt !== undefined) return Math.max(0, error.reason.retryAt - clock.now());
  return error.retryAfterMs ?? 1000;
}
