import type { CallOptions } from './agentClient';
import { keyedJson, adminUrl, optionalFeatureError, type AdminClientOptions, type AdminRequest } from './adminCall';
import { parseAssistantPage, parseFeedbackByPage, parseFeedbackPage, parseSearchPage } from './analyticsShape';
import { ServiceError } from './errors';
import {
  FEEDBACK_SOURCES,
  FEEDBACK_STATUSES,
  type AnalyticsPage,
  type AnalyticsQuery,
  type AssistantConversationRecord,
  type FeedbackEntry,
  type PageFeedbackCounts,
  type SearchRecord,
} from './types';

// Client for the reader analytics endpoints (notes.md "Reader analytics"), with the admin key.
// Each method reads ONE page; draining by cursor, and its bounds, are the caller's
// (src/health/core/signalsFetch.ts). They are beyond the interface, so they are detected: a 403
// (a plan without analytics) or a 404 (a service without the endpoint) is `notOffered`, which the
// caller turns into one quiet note and a hidden part. A 429 keeps when to retry; nothing is retried here.

export type AnalyticsClientOptions = AdminClientOptions;

/** 100 entries of at most ~25 KB each (a bounded snippet and comment) fit; a larger body is refused unread. */
const MAX_ANALYTICS_BODY_BYTES = 4 * 1024 * 1024;
export const MAX_ANALYTICS_LIMIT = 100;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

type Endpoint = 'feedback' | 'feedback/by-page' | 'assistant' | 'searches';

/** `YYYY-MM-DD` of a real day, or a refusal before anything is sent. */
function day(value: string, field: string): string {
  const m = DAY.exec(value);
  const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : undefined;
  if (!m || !d || d.toISOString().slice(0, 10) !== value) {
    throw new ServiceError({ reason: { code: 'badRequest' }, detail: `${field} must be a date as YYYY-MM-DD` });
  }
  return value;
}

/** The query string the service documents; `status` and `source` only on the feedback endpoints. */
export function analyticsParams(q: AnalyticsQuery, feedback: boolean): URLSearchParams {
  const p = new URLSearchParams();
  p.set('dateFrom', day(q.dateFrom, 'dateFrom'));
  p.set('dateTo', day(q.dateTo, 'dateTo'));
  const limit = q.limit === undefined || !Number.isFinite(q.limit) ? MAX_ANALYTICS_LIMIT : Math.round(q.limit);
  p.set('limit', String(Math.min(MAX_ANALYTICS_LIMIT, Math.max(1, limit))));
  if (q.cursor !== undefined && q.cursor !== '') p.set('cursor', q.cursor);
  if (feedback) {
    // Only the documented values, each once, in the documented order.
    const statuses = FEEDBACK_STATUSES.filter((s) => q.status?.includes(s));
    if (statuses.length > 0) p.set('status', statuses.join(','));
    if (q.source !== undefined && FEEDBACK_SOURCES.includes(q.source)) p.set('source', q.source);
  }
  return p;
}

export class AnalyticsClient {
  private readonly opts: AnalyticsClientOptions;
  /** 403/404: not offered (one quiet note); a 429 is this endpoint's limit, not the agent jobs' hourly one. */
  private readonly errorFor: AdminRequest['errorFor'];

  constructor(opts: AnalyticsClientOptions) {
    // Copied, so a later change to the caller's object cannot redirect the key mid-flight.
    this.opts = { ...opts };
    this.errorFor = optionalFeatureError('analytics', { service: 'agent', projectId: this.opts.projectId });
  }

  /** GET /v1/analytics/{projectId}/feedback: one page of readers' feedback, newest first. */
  feedback(q: AnalyticsQuery, opts: CallOptions = {}): Promise<AnalyticsPage<FeedbackEntry>> {
    return this.read('feedback', q, opts, parseFeedbackPage);
  }

  /** GET …/feedback/by-page: one page of per-page counts. */
  feedbackByPage(q: AnalyticsQuery, opts: CallOptions = {}): Promise<AnalyticsPage<PageFeedbackCounts>> {
    return this.read('feedback/by-page', q, opts, parseFeedbackByPage);
  }

  /** GET …/assistant: one page of assistant conversations, with their resolution status. */
  assistant(q: AnalyticsQuery, opts: CallOptions = {}): Promise<AnalyticsPage<AssistantConversationRecord>> {
    return this.read('assistant', q, opts, parseAssistantPage);
  }

  /** GET …/searches: one page of searches, by hits, with their click-through rate. */
  searches(q: AnalyticsQuery, opts: CallOptions = {}): Promise<AnalyticsPage<SearchRecord>> {
    return this.read('searches', q, opts, parseSearchPage);
  }

  private async read<T>(endpoint: Endpoint, q: AnalyticsQuery, opts: CallOptions, parse: (body: unknown) => AnalyticsPage<T>): Promise<AnalyticsPage<T>> {
    const base = adminUrl(this.opts, ['v1', 'analytics', this.opts.projectId.trim(), ...endpoint.split('/')]);
    const url = `${base}?${analyticsParams(q, endpoint.startsWith('feedback')).toString()}`;
    const { json } = await keyedJson(this.opts, { method: 'GET', url, signal: opts.signal, maxBodyBytes: MAX_ANALYTICS_BODY_BYTES, errorFor: this.errorFor });
    return parse(json);
  }
}
