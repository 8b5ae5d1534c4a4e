import type { ResolvedOptions } from './config';
import { fixtureData, generatedData, hostileData, type AnalyticsData, type FeedbackRow } from './analyticsData';
import { errorBody, type Exchange } from './exchange';
import { chooseFault, FAULT_HEADER } from './faults';

// Reader analytics (notes.md "Reader analytics"; beyond the interface, so a client must detect
// them): GET /v1/analytics/{projectId}/feedback, …/feedback/by-page, …/assistant and …/searches,
// with the admin key, paged by cursor (limit 1–100), filtered by dateFrom/dateTo (dateTo
// exclusive) and, for feedback, by status and source. The data is analyticsData.ts's.

export const ANALYTICS_PATH = /^\/v1\/analytics\/([^/]+)\/(feedback|feedback\/by-page|assistant|searches)$/;

/**
 * `x-emulator-fault: <mode>` on an analytics call, or set for every call by `analytics.fault()`
 * (an extension's requests carry no header). 403: a plan without analytics; 404: a service
 * without the endpoint; 429 with Retry-After; a body that is not JSON or not the shape; junk
 * entries beside real ones; a cursor that never ends; the hostile entries on this one request.
 */
export const ANALYTICS_FAULTS = ['403', '404', '429', '500', 'bad-json', 'bad-shape', 'bad-entries', 'endless', 'hostile'] as const;
export type AnalyticsFault = (typeof ANALYTICS_FAULTS)[number];

/** Seconds the 429 fault asks a client to wait. */
export const ANALYTICS_RETRY_AFTER_S = 2;

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;
const DATE = /^\d{4}-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const STATUSES = ['pending', 'in_progress', 'resolved', 'dismissed'];
const SOURCES = ['code_snippet', 'contextual', 'agent', 'thumbs_only'];

type Kind = 'feedback' | 'feedback/by-page' | 'assistant' | 'searches';

/** What a test can do to the analytics of a running emulator. */
export interface AnalyticsControl {
  /** false plays a plan without analytics: every analytics call answers 403. */
  offer(offered: boolean): void;
  /** Adds the hostile entries (markup, command links, 100 KB text, bidi controls) to what is served. */
  hostile(on: boolean): void;
  /** Every analytics call answers with this fault until it is cleared (undefined). */
  fault(mode: AnalyticsFault | undefined): void;
  /** Replaces the fixtures by `entries` generated feedback entries over `pages` pages (0: the fixtures again). */
  generate(entries: number, pages?: number): void;
}

class BadQuery extends Error {}

export class Analytics implements AnalyticsControl {
  private offered: boolean;
  private withHostile: boolean;
  private stickyFault: AnalyticsFault | undefined;
  private data: AnalyticsData | undefined;
  private entries: number;
  private pages: number;
  private endlessPage = 0;

  constructor(private readonly opts: ResolvedOptions) {
    this.offered = opts.analytics;
    this.withHostile = opts.analyticsHostile;
    this.entries = opts.analyticsEntries;
    this.pages = opts.analyticsPages;
  }

  reset(): void {
    this.offered = this.opts.analytics;
    this.withHostile = this.opts.analyticsHostile;
    this.stickyFault = undefined;
    this.entries = this.opts.analyticsEntries;
    this.pages = this.opts.analyticsPages;
    this.data = undefined;
    this.endlessPage = 0;
  }

  offer(offered: boolean): void {
    this.offered = offered;
  }

  hostile(on: boolean): void {
    this.withHostile = on;
    this.data = undefined;
  }

  fault(mode: AnalyticsFault | undefined): void {
    this.stickyFault = mode;
  }

  generate(entries: number, pages = 1000): void {
    this.entries = entries;
    this.pages = pages;
    this.data = undefined;
  }

  /** Routes the analytics endpoints; false when `ex` is not one of them. `keyRefused` answers 401 itself. */
  route(ex: Exchange, keyRefused: (ex: Exchange) => boolean): boolean {
    const m = ANALYTICS_PATH.exec(ex.url.pathname);
    if (!m) return false;
    if (keyRefused(ex)) return true;
    if (ex.method !== 'GET') {
      ex.json(405, errorBody('Use GET here.'), { allow: 'GET' });
      return true;
    }
    const fault = chooseFault(ex.header(FAULT_HEADER) ?? this.stickyFault, '', ANALYTICS_FAULTS);
    if (fault && 'unknown' in fault) {
      ex.json(400, errorBody(`Unknown emulator fault "${fault.unknown}". Known: ${ANALYTICS_FAULTS.join(', ')}.`));
      return true;
    }
    const mode = fault?.mode;
    if (mode !== undefined && this.answerFault(ex, mode)) return true;
    // The plan decides before anything else is looked at, as a gateway in front of the service would.
    if (!this.offered) {
      ex.json(403, errorBody('Analytics are not available on your plan.'));
      return true;
    }
    let projectId = m[1]!;
    try {
      projectId = decodeURIComponent(projectId);
    } catch {
      // Left as sent: it matches no project.
    }
    if (projectId !== this.opts.projectId) {
      ex.json(404, errorBody(`Project "${projectId}" not found`));
      return true;
    }
    try {
      this.answer(ex, m[2] as Kind, mode);
    } catch (e) {
      if (!(e instanceof BadQuery)) throw e;
      ex.json(400, { error: 'Invalid query parameters', details: [{ message: e.message }] });
    }
    return true;
  }

  private current(): AnalyticsData {
    if (this.data) return this.data;
    const now = Date.now();
    const base = this.entries > 0 ? generatedData(now, this.entries, this.pages) : fixtureData(now);
    if (this.withHostile) {
      const h = hostileData(now);
      base.feedback = [...h.feedback, ...base.feedback];
      base.conversations = [...h.conversations, ...base.conversations];
      base.searches = [...h.searches, ...base.searches];
    }
    this.data = base;
    return base;
  }

  private answer(ex: Exchange, kind: Kind, mode: AnalyticsFault | undefined): void {
    const q = ex.url.searchParams;
    const limit = limitOf(q.get('limit'));
    const inRange = rangeOf(q.get('dateFrom'), q.get('dateTo'));
    // An endless cursor's own cursors mean nothing: every page is "more".
    const offset = mode === 'endless' ? 0 : cursorOffset(q.get('cursor'), kind);
    const data = mode === 'hostile' && !this.withHostile ? mergedHostile(this.current()) : this.current();
    if (kind === 'feedback' || kind === 'feedback/by-page') {
      const rows = data.feedback.filter(feedbackFilter(q, inRange));
      if (kind === 'feedback') {
        if (mode === 'endless') return this.endless(ex, rows.slice(0, limit));
        const page = pageOf(rows, offset, limit, kind);
        const items = mode === 'bad-entries' ? [...JUNK, ...page.items] : page.items;
        return ex.json(200, { feedback: items, nextCursor: page.nextCursor, hasMore: page.hasMore });
      }
      const page = pageOf(byPage(rows), offset, limit, kind);
      return ex.json(200, { feedback: page.items, nextCursor: page.nextCursor, hasMore: page.hasMore });
    }
    if (kind === 'assistant') {
      const page = pageOf(
        data.conversations.filter((c) => inRange(c.timestamp)),
        offset,
        limit,
        kind,
      );
      return ex.json(200, { conversations: page.items, nextCursor: page.nextCursor, hasMore: page.hasMore });
    }
    const rows = data.searches.filter((s) => inRange(s.lastSearchedAt)).sort((a, b) => b.hits - a.hits);
    const page = pageOf(rows, offset, limit, kind);
    ex.json(200, { searches: page.items, totalSearches: rows.reduce((sum, s) => sum + s.hits, 0), nextCursor: page.nextCursor, hasMore: page.hasMore });
  }

  /** A cursor that never ends: always hasMore, always a new cursor, entries with new ids. */
  private endless(ex: Exchange, rows: FeedbackRow[]): void {
    const n = ++this.endlessPage;
    ex.json(200, { feedback: rows.map((r) => ({ ...r, id: `${r.id}~${n}` })), nextCursor: `endless-${n}`, hasMore: true });
  }

  /** Answers as a replacing fault says; true when it did. */
  private answerFault(ex: Exchange, mode: AnalyticsFault): boolean {
    switch (mode) {
      case '403':
        ex.json(403, errorBody('Analytics are not available on your plan.'));
        return true;
      case '404':
        ex.json(404, { message: 'Not Found' });
        return true;
      case '429':
        ex.json(
          429,
          { error: 'Rate limit exceeded.', details: [{ message: 'Too many analytics requests.' }] },
          { 'retry-after': String(ANALYTICS_RETRY_AFTER_S) },
        );
        return true;
      case '500':
        ex.json(500, errorBody('Internal server error'));
        return true;
      case 'bad-json':
        ex.send(200, 'application/json; charset=utf-8', '{"feedback": [{"id": "fb_');
        return true;
      case 'bad-shape':
        ex.json(200, { feedback: 'not a list', conversations: { id: 1 }, searches: 42, nextCursor: 7, hasMore: 'yes' });
        return true;
      default:
        return false;
    }
  }
}

/** Entries that are not entries, served beside real ones by `bad-entries`: a client drops and counts them. */
const JUNK: unknown[] = [
  null,
  42,
  'fb_text',
  [],
  { id: 7, path: '/getting-started', source: 'contextual', status: 'pending' },
  { id: 'fb_junk_nopath', source: 'contextual', status: 'pending' },
  { id: 'fb_junk_source', path: '/getting-started', source: 'carrier_pigeon', status: 'pending' },
];

function mergedHostile(d: AnalyticsData): AnalyticsData {
  const h = hostileData(Date.now());
  return { feedback: [...h.feedback, ...d.feedback], conversations: [...h.conversations, ...d.conversations], searches: [...h.searches, ...d.searches] };
}

function limitOf(raw: string | null): number {
  if (raw === null) return DEFAULT_LIMIT;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT) throw new BadQuery(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  return n;
}

/** Whether a date falls in [dateFrom, dateTo); undefined dates fall in only when no range is asked. */
function rangeOf(from: string | null, to: string | null): (at: string | null) => boolean {
  const bound = (raw: string | null, name: string): number | undefined => {
    if (raw === null) return undefined;
    const t = DATE.test(raw) ? Date.parse(raw) : NaN;
    if (!Number.isFinite(t)) throw new BadQuery(`${name} must be an ISO 8601 date or YYYY-MM-DD`);
    return t;
  };
  const lo = bound(from, 'dateFrom');
  const hi = bound(to, 'dateTo');
  return (at) => {
    if (lo === undefined && hi === undefined) return true;
    const t = at === null ? NaN : Date.parse(at);
    return Number.isFinite(t) && (lo === undefined || t >= lo) && (hi === undefined || t < hi);
  };
}

function feedbackFilter(q: URLSearchParams, inRange: (at: string | null) => boolean): (r: FeedbackRow) => boolean {
  const statusParam = q.get('status');
  const statuses = statusParam === null ? undefined : statusParam.split(',').map((s) => s.trim());
  if (statuses && statuses.some((s) => !STATUSES.includes(s))) throw new BadQuery(`status must be a comma-separated list of ${STATUSES.join(', ')}`);
  const source = q.get('source');
  if (source !== null && !SOURCES.includes(source)) throw new BadQuery(`source must be one of ${SOURCES.join(', ')}`);
  return (r) => inRange(r.createdAt) && (!statuses || statuses.includes(r.status)) && (source === null || r.source === source);
}

/** The counts per page, most feedback first. */
function byPage(rows: FeedbackRow[]): { path: string; thumbsUp: number; thumbsDown: number; code: number; total: number }[] {
  const pages = new Map<string, { path: string; thumbsUp: number; thumbsDown: number; code: number; total: number }>();
  for (const r of rows) {
    let p = pages.get(r.path);
    if (!p) pages.set(r.path, (p = { path: r.path, thumbsUp: 0, thumbsDown: 0, code: 0, total: 0 }));
    if (r.helpful === true) p.thumbsUp++;
    if (r.helpful === false) p.thumbsDown++;
    if (r.source === 'code_snippet') p.code++;
    p.total++;
  }
  return [...pages.values()].sort((a, b) => b.total - a.total);
}

/** Cursors are opaque to a client: the endpoint and an offset, so one endpoint's cursor is refused by another. */
function cursorOf(kind: Kind, offset: number): string {
  return Buffer.from(`${kind}:${offset}`).toString('base64url');
}

function cursorOffset(raw: string | null, kind: Kind): number {
  if (raw === null || raw === '') return 0;
  const m = /^(.+):(\d+)$/.exec(Buffer.from(raw, 'base64url').toString('utf8'));
  if (!m || m[1] !== kind) throw new BadQuery('cursor is not valid here');
  return Number(m[2]);
}

function pageOf<T>(rows: T[], offset: number, limit: number, kind: Kind): { items: T[]; nextCursor: string | null; hasMore: boolean } {
  const items = rows.slice(offset, offset + limit);
  const hasMore = offset + limit < rows.length;
  return { items, nextCursor: hasMore ? cursorOf(kind, offset + limit) : null, hasMore };
}
