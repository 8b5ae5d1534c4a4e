import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AnalyticsClient,
  MAX_CODE_CHARS,
  MAX_COMMENT_CHARS,
  MAX_RESPONSE_CHARS,
  MAX_SOURCES_PER_CONVERSATION,
  type AnalyticsPage,
  type AnalyticsQuery,
  type FeedbackEntry,
} from '../../src/api';
import { ANALYTICS_RETRY_AFTER_S, DOCS_SITE_ORIGIN, SNIPPET_CODE, startEmulator, type RunningEmulator } from '../emulator';
import { faultFetch, rejection, words } from './helpers';

// AnalyticsClient against the emulator's reader analytics over real HTTP (notes.md "Reader
// analytics"): one page per call, cursors, the date range and the feedback filters, the plan
// without analytics (403) and a service without them (404) as `notOffered`, a 429 that keeps when
// to retry, pages that cannot be used, a cursor that never ends, hostile reader text bounded,
// and the key in no error.

const DAY_MS = 86_400_000;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
/** The last `days` days, today included (dateTo is exclusive: tomorrow). */
const lastDays = (days: number, extra: Partial<AnalyticsQuery> = {}): AnalyticsQuery => ({
  dateFrom: isoDay(Date.now() - days * DAY_MS),
  dateTo: isoDay(Date.now() + DAY_MS),
  ...extra,
});
const OPEN: AnalyticsQuery['status'] = ['pending', 'in_progress'];

/** Every page of a read, by cursor (the drain the health core does, here only to check the pages join up). */
async function all<T>(read: (q: AnalyticsQuery) => Promise<AnalyticsPage<T>>, q: AnalyticsQuery): Promise<{ items: T[]; pages: number; dropped: number }> {
  const items: T[] = [];
  let cursor: string | undefined;
  let pages = 0;
  let dropped = 0;
  do {
    const page = await read({ ...q, cursor });
    items.push(...page.items);
    dropped += page.dropped;
    pages++;
    cursor = page.nextCursor ?? undefined;
    assert.equal(page.hasMore, page.nextCursor !== null);
  } while (cursor !== undefined && pages < 1000);
  return { items, pages, dropped };
}

describe('AnalyticsClient against the emulator', function () {
  this.timeout(20_000);
  let emu: RunningEmulator;

  before(async () => {
    emu = await startEmulator({ port: 0 });
  });
  after(async () => {
    await emu?.close();
  });
  beforeEach(() => emu.reset());

  const client = (fetchFn?: typeof fetch): AnalyticsClient =>
    new AnalyticsClient({ baseUrl: emu.url, projectId: emu.projectId, apiKey: emu.adminKey, requestTimeoutMs: 5000, fetch: fetchFn });
  const analyticsRequests = (): string[] => emu.requests.filter((r) => r.path.startsWith('/v1/analytics/')).map((r) => r.path);

  it("reads a page's readers: /getting-started has 7 thumbs down, 12 up and 3 comments in the last 30 days, pending or in progress", async () => {
    const c = client();
    const { items } = await all((q) => c.feedback(q), lastDays(30, { status: OPEN }));
    const page = items.filter((f) => f.path === '/getting-started');
    assert.equal(page.filter((f) => f.helpful === false).length, 7);
    assert.equal(page.filter((f) => f.helpful === true).length, 12);
    assert.equal(page.filter((f) => f.comment !== null).length, 3);
    assert.ok(
      page.some((f) => f.comment?.includes('RELAY_API_KEY')),
      'the reader’s own words arrive',
    );
    assert.ok(!items.some((f) => f.status === 'resolved' || f.status === 'dismissed'));
    const sent = new URL(analyticsRequests()[0]!, emu.url);
    assert.equal(sent.pathname, `/v1/analytics/${emu.projectId}/feedback`);
    assert.equal(sent.searchParams.get('status'), 'pending,in_progress');
    assert.equal(sent.searchParams.get('limit'), '100');
    assert.match(sent.searchParams.get('dateFrom')!, /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(emu.requests[0]!.auth, 'admin');
  });

  it('pages by cursor: small pages join up to the same entries, each once; the last page says so', async () => {
    const c = client();
    const whole = await c.feedback(lastDays(90));
    assert.equal(whole.hasMore, false);
    assert.equal(whole.nextCursor, null);
    const paged = await all((q) => c.feedback(q), lastDays(90, { limit: 4 }));
    assert.ok(paged.pages > 5, String(paged.pages));
    assert.deepEqual(
      paged.items.map((f) => f.id),
      whole.items.map((f) => f.id),
    );
    assert.equal(new Set(paged.items.map((f) => f.id)).size, paged.items.length);
  });

  it('clamps the limit to 1–100 and sends only documented statuses, each once', async () => {
    const c = client();
    await c.feedback(lastDays(30, { limit: 5000 }));
    await c.feedback(lastDays(30, { limit: 0 }));
    await c.feedback(lastDays(30, { limit: Number.NaN }));
    await c.feedback(lastDays(30, { status: ['resolved', 'pending', 'resolved', 'bogus' as 'pending'] }));
    const sent = analyticsRequests().map((p) => new URL(p, emu.url).searchParams);
    assert.deepEqual(
      sent.map((s) => s.get('limit')),
      ['100', '1', '100', '100'],
    );
    assert.equal(sent[3]!.get('status'), 'pending,resolved');
  });

  it('filters by date (dateTo exclusive), status and source; the code snippet is code that really is in webhooks.md', async () => {
    const c = client();
    const month = await all((q) => c.feedback(q), lastDays(30));
    const quarter = await all((q) => c.feedback(q), lastDays(90));
    assert.ok(!month.items.some((f) => f.path === '/deployment'), 'the 45-day-old entry is outside 30 days');
    assert.ok(quarter.items.some((f) => f.path === '/deployment'));
    const nothingYet = await c.feedback({ dateFrom: isoDay(Date.now() + 2 * DAY_MS), dateTo: isoDay(Date.now() + 3 * DAY_MS) });
    assert.deepEqual(nothingYet.items, []);
    const resolved = await c.feedback(lastDays(30, { status: ['resolved'] }));
    assert.deepEqual(
      resolved.items.map((f) => f.path),
      ['/rate-limits'],
    );
    const snippets = await c.feedback(lastDays(30, { source: 'code_snippet' }));
    assert.equal(snippets.items.length, 1);
    const s = snippets.items[0]!;
    assert.equal(s.code, SNIPPET_CODE);
    assert.deepEqual([s.path, s.filename, s.language], ['/webhooks', 'verify.js', 'js']);
    const page = readFileSync(join(__dirname, '..', 'fixtures', 'docs-site', 'webhooks.md'), 'utf8');
    assert.ok(page.includes(SNIPPET_CODE), 'the snippet is in the page');
  });

  it('keeps feedback on pages that map to no file, and one given as a full URL on the docs site', async () => {
    const { items } = await client().feedbackByPage(lastDays(30, { status: OPEN }));
    const byPath = new Map(items.map((p) => [p.path, p]));
    assert.deepEqual(byPath.get('/getting-started'), { path: '/getting-started', thumbsUp: 12, thumbsDown: 7, code: 0, total: 19 });
    assert.equal(byPath.get('/webhooks')?.code, 1);
    assert.equal(byPath.get('/old/removed-page')?.thumbsDown, 2);
    assert.ok(byPath.has(`${DOCS_SITE_ORIGIN}/installation#python`));
  });

  it('reads the assistant: unanswered questions naming getting-started, and clarifying turns', async () => {
    const { items } = await all((q) => client().assistant(q), lastDays(30, { limit: 3 }));
    const unanswered = items.filter((c) => c.resolutionStatus === 'unanswered');
    assert.equal(unanswered.filter((c) => c.sources.some((s) => s.url === '/getting-started')).length, 2);
    assert.ok(unanswered.some((c) => c.query === 'How do I delete a queue?'));
    assert.equal(items.filter((c) => c.responseType === 'clarifying_question').length, 2);
    assert.ok(!items.some((c) => c.query.includes('2019')), 'the 50-day-old question is outside 30 days');
  });

  it('reads searches by hits, with low click-through ones among them', async () => {
    const { items } = await all((q) => client().searches(q), lastDays(30, { limit: 2 }));
    const hits = items.map((s) => s.hits);
    assert.deepEqual(
      hits,
      [...hits].sort((a, b) => b - a),
    );
    const low = items.filter((s) => s.hits >= 50 && s.ctr < 0.1).map((s) => s.searchQuery);
    assert.deepEqual(low, ['delete queue', 'webhook retries', 'dead letter queue']);
  });

  it('a plan without analytics (403) and a service without them (404) are notOffered for every read, in words naming analytics', async () => {
    const c = client();
    const reads = [() => c.feedback(lastDays(30)), () => c.feedbackByPage(lastDays(30)), () => c.assistant(lastDays(30)), () => c.searches(lastDays(30))];
    emu.analytics.offer(false);
    for (const read of reads) {
      const e = await rejection(read(), emu.adminKey);
      assert.deepEqual(e.reason, { code: 'notOffered', feature: 'analytics', status: 403 });
      assert.match(words(e), /^Reader analytics are not offered by this service or plan \(HTTP 403\)/);
    }
    emu.analytics.offer(true);
    const e404 = await rejection(client(faultFetch('404')).searches(lastDays(30)), emu.adminKey);
    assert.deepEqual(e404.reason, { code: 'notOffered', feature: 'analytics', status: 404 });
    const plan = await startEmulator({ port: 0, analytics: false });
    try {
      const off = new AnalyticsClient({ baseUrl: plan.url, projectId: plan.projectId, apiKey: plan.adminKey });
      assert.equal((await rejection(off.feedback(lastDays(7)), plan.adminKey)).reason.code, 'notOffered');
    } finally {
      await plan.close();
    }
  });

  it('a 429 keeps when to retry (Retry-After), as the rate limit of the admin key, not the agent jobs’ hourly one', async () => {
    emu.analytics.fault('429');
    const before = Date.now();
    const e = await rejection(client().feedback(lastDays(30)), emu.adminKey);
    assert.equal(e.reason.code, 'rateLimited');
    const retryAt = e.reason.code === 'rateLimited' ? e.reason.retryAt : undefined;
    assert.ok(
      retryAt !== undefined && retryAt >= before + ANALYTICS_RETRY_AFTER_S * 1000 - 50 && retryAt <= Date.now() + ANALYTICS_RETRY_AFTER_S * 1000 + 50,
      String(retryAt),
    );
    assert.ok(!('perHour' in e.reason));
    emu.analytics.fault(undefined);
    assert.ok((await client().feedback(lastDays(30))).items.length > 0, 'clearing the fault serves again');
  });

  it('refuses pages it cannot use: not JSON, or not the shape; drops and counts entries that are not entries', async () => {
    const notJson = await rejection(client(faultFetch('bad-json')).feedback(lastDays(30)), emu.adminKey);
    assert.equal(notJson.reason.code, 'notJson');
    const shapes: [string, () => Promise<unknown>][] = [
      ['feedback', () => client(faultFetch('bad-shape')).feedback(lastDays(30))],
      ['feedback', () => client(faultFetch('bad-shape')).feedbackByPage(lastDays(30))],
      ['conversations', () => client(faultFetch('bad-shape')).assistant(lastDays(30))],
      ['searches', () => client(faultFetch('bad-shape')).searches(lastDays(30))],
    ];
    for (const [field, read] of shapes) {
      const e = await rejection(read(), emu.adminKey);
      assert.ok(e.reason.code === 'badAnalytics' && e.reason.field === field, `${field}: ${e.message}`);
      assert.match(words(e), /reader analytics that cannot be read/);
    }
    const clean = await client().feedback(lastDays(30, { limit: 10 }));
    const junk = await client(faultFetch('bad-entries')).feedback(lastDays(30, { limit: 10 }));
    assert.equal(junk.dropped, 7);
    assert.deepEqual(junk.items, clean.items, 'the good entries beside the junk are all kept');
  });

  it('an endless cursor: every page says there is more, with a new cursor (the caller must stop)', async () => {
    const c = client(faultFetch('endless'));
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (let i = 0; i < 5; i++) {
      const page = await c.feedback(lastDays(30, { cursor }));
      assert.equal(page.hasMore, true);
      assert.ok(page.nextCursor !== null && !cursors.has(page.nextCursor));
      cursors.add(page.nextCursor);
      cursor = page.nextCursor;
    }
  });

  it('bounds hostile reader text: 100 KB comments and answers cut, huge code cut, too many sources cut, a page path too long dropped, ctr clamped', async () => {
    emu.analytics.hostile(true);
    const c = client();
    const feedback = await c.feedback(lastDays(30));
    const hostile = new Map(feedback.items.filter((f) => f.id.startsWith('fb_hostile')).map((f) => [f.id, f]));
    assert.equal(hostile.get('fb_hostile_huge')!.comment!.length, MAX_COMMENT_CHARS);
    assert.ok(hostile.get('fb_hostile_huge')!.comment!.endsWith('…'));
    assert.ok(hostile.get('fb_hostile_code')!.code!.length <= MAX_CODE_CHARS);
    assert.ok(!hostile.has('fb_hostile_path'), 'a 5,000-character path names no page');
    assert.equal(feedback.dropped, 1);
    // Kept as the reader wrote it (bounded): making it inert is for whoever shows it.
    assert.match(hostile.get('fb_hostile_bidi')!.comment!, /\u202E/);
    assert.match(hostile.get('fb_hostile_markup')!.comment!, /command:workbench/);
    for (const f of feedback.items) assert.ok(JSON.stringify(f).length < MAX_COMMENT_CHARS + MAX_CODE_CHARS + 2000, f.id);
    const conv = (await c.assistant(lastDays(30))).items.find((x) => x.id === 'conv_hostile')!;
    assert.equal(conv.response.length, MAX_RESPONSE_CHARS);
    assert.equal(conv.sources.length, MAX_SOURCES_PER_CONVERSATION);
    const search = (await c.searches(lastDays(30))).items[0]!;
    assert.equal(search.ctr, 1);
    assert.equal(search.hits, 999);
    // The same entries on one request, by header.
    emu.analytics.hostile(false);
    const once = await client(faultFetch('hostile')).feedback(lastDays(30));
    assert.ok(once.items.some((f: FeedbackEntry) => f.id === 'fb_hostile_markup'));
    assert.ok(!(await c.feedback(lastDays(30))).items.some((f) => f.id.startsWith('fb_hostile')));
  });

  it('serves a 10,000-entry project over 1,000 pages, 100 at a time', async () => {
    emu.analytics.generate(10_000, 1000);
    const c = client();
    const { items, pages } = await all((q) => c.feedback(q), lastDays(30));
    assert.equal(items.length, 10_000);
    assert.equal(pages, 100);
    const byPage = await all((q) => c.feedbackByPage(q), lastDays(30));
    assert.equal(byPage.items.length, 1000);
    assert.equal(
      byPage.items.reduce((n, p) => n + p.total, 0),
      10_000,
    );
  });

  it('never sends or shows the key: a bad date or key is refused unsent, an unknown key by the service (401)', async () => {
    const c = client();
    const date = await rejection(c.feedback({ dateFrom: '2026-02-30', dateTo: '2026-03-01' }), emu.adminKey);
    assert.equal(date.reason.code, 'badRequest');
    const wrongKind = new AnalyticsClient({ baseUrl: emu.url, projectId: emu.projectId, apiKey: emu.assistantKey });
    assert.equal((await rejection(wrongKind.feedback(lastDays(7)), emu.assistantKey)).reason.code, 'keyInvalid');
    assert.deepEqual(analyticsRequests(), []);
    const unknownKey = 'svc_unknown_0123456789abcdef';
    const unknown = new AnalyticsClient({ baseUrl: emu.url, projectId: emu.projectId, apiKey: unknownKey });
    const e401 = await rejection(unknown.searches(lastDays(7)), unknownKey);
    assert.deepEqual(e401.reason, { code: 'keyRefused', service: 'agent' });
    for (const mode of ['403', '404', '429', '500', 'bad-json', 'bad-shape']) {
      const e = await rejection(client(faultFetch(mode)).feedback(lastDays(7)), emu.adminKey);
      assert.ok(!JSON.stringify(e).includes(emu.adminKey), mode);
    }
  });

  it('stops when its signal is aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const e = await rejection(client().feedback(lastDays(7), { signal: ac.signal }), emu.adminKey);
    assert.equal(e.reason.code, 'aborted');
  });
});
