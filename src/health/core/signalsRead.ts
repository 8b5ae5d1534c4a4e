import { ServiceError } from '../../api';
import type { AnalyticsQuery, AssistantConversationRecord, FeedbackEntry, PageFeedbackCounts, SearchRecord } from '../../api';
import type { HealthFilter, SignalKind } from './readerSignals';
import type { Clock } from '../../host/core/clock';
import { drain, type AnalyticsCalls } from './signalsFetch';

// Everything Docs Health reads for one project and filter: the four analytics reads, side by
// side, each drained and bounded (signalsFetch.ts). Each is detected on its own: a 403 or 404
// (`notOffered`) hides its part and the rest shows. Any other failure fails the whole read (the
// others are aborted at once), so a snapshot is never half of what the service holds.

export interface RawSignals {
  feedback: FeedbackEntry[];
  /** Undefined when the by-page counts are not offered: thumbs are then counted from the entries. */
  byPage?: PageFeedbackCounts[];
  conversations: AssistantConversationRecord[];
  searches: SearchRecord[];
  notOffered: SignalKind[];
  dropped: number;
}

const DAY_MS = 86_400_000;
const ymd = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The range of the last `days` days, today included: `from` inclusive, `to` (tomorrow) exclusive, in UTC. */
export function rangeOf(days: number, now: number): { from: string; to: string } {
  const tomorrow = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
  return { from: ymd(tomorrow - days * DAY_MS), to: ymd(tomorrow) };
}

const isNotOffered = (e: unknown): boolean => e instanceof ServiceError && e.reason.code === 'notOffered';

export async function readSignals(
  calls: AnalyticsCalls,
  filter: HealthFilter,
  range: { from: string; to: string },
  options: { signal?: AbortSignal; clock?: Clock },
): Promise<RawSignals> {
  const inner = new AbortController();
  const onAbort = (): void => inner.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) inner.abort();
  const q: AnalyticsQuery = { dateFrom: range.from, dateTo: range.to };
  const fq: AnalyticsQuery = { ...q, status: filter.statuses };
  const opts = { signal: inner.signal, clock: options.clock };
  // A read that is not offered is undefined; any other failure stops the others.
  const offered = <T>(p: Promise<T>): Promise<T | undefined> =>
    p.catch((e: unknown) => {
      if (isNotOffered(e)) return undefined;
      inner.abort();
      throw e;
    });
  try {
    const [feedback, byPage, assistant, searches] = await Promise.all([
      offered(drain((x, o) => calls.feedback(x, o), fq, { ...opts, dateOf: (e) => e.createdAt })),
      offered(drain((x, o) => calls.feedbackByPage(x, o), fq, opts)),
      offered(drain((x, o) => calls.assistant(x, o), q, { ...opts, dateOf: (c) => c.timestamp })),
      offered(drain((x, o) => calls.searches(x, o), q, opts)),
    ]);
    const notOffered: SignalKind[] = [];
    if (!feedback) notOffered.push('feedback');
    if (!assistant) notOffered.push('assistant');
    if (!searches) notOffered.push('searches');
    return {
      feedback: feedback?.items ?? [],
      byPage: byPage?.items,
      conversations: assistant?.items ?? [],
      searches: searches?.items ?? [],
      notOffered,
      dropped: (feedback?.dropped ?? 0) + (byPage?.dropped ?? 0) + (assistant?.dropped ?? 0) + (searches?.dropped ?? 0),
    };
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}
