import * as assert from 'node:assert/strict';
import { MAX_SEARCH_HITS, MAX_HIT_CONTENT_CHARS, MAX_HIT_PATH_CHARS, MAX_PAGE_CONTENT_CHARS, SearchClient } from '../../src/api';
import { SEARCH_RETRY_AFTER_S, startEmulator } from '../emulator';
import { emulatorPerSuite, faultFetch, rejection, words } from './helpers';

// SearchClient against the emulator's search and page endpoints over real HTTP (notes.md,
// "Beyond the interface": POST /discovery/v1/search/{domain} and /discovery/v1/page/{domain}):
// BM25 hits with pageSize, scoreThreshold and filter, the page's full text, the assistant key
// (never the admin key), a service without the endpoints (404) or a plan without them (403) as
// `notOffered` naming search, a 429 that keeps when to retry, answers that cannot be used, hostile
// hits bounded, and the key in no error.

describe('SearchClient against the emulator', function () {
  this.timeout(20_000);
  const emu = emulatorPerSuite();

  const client = (fetchFn?: typeof fetch, apiKey = emu().assistantKey): SearchClient =>
    new SearchClient({ baseUrl: emu().url, domain: emu().domain, apiKey, requestTimeoutMs: 5000, fetch: fetchFn });
  const searchRequests = () => emu().requests.filter((r) => r.path.startsWith('/discovery/v1/'));

  it('finds the CLI reference for a flag, with the passage that names it, the assistant key and the body as sent', async () => {
    const { hits, dropped } = await client().search({ query: '--dlq', pageSize: 5 });
    assert.equal(dropped, 0);
    assert.ok(hits.length >= 1 && hits.length <= 5, String(hits.length));
    const cli = hits.find((h) => h.path === '/cli');
    assert.ok(cli, JSON.stringify(hits.map((h) => h.path)));
    assert.match(cli.content, /`--dlq`/);
    assert.equal(cli.title, 'CLI reference');
    const [req] = searchRequests();
    assert.equal(req!.path, `/discovery/v1/search/${emu().domain}`);
    assert.equal(req!.method, 'POST');
    assert.equal(req!.auth, 'assistant');
    assert.deepEqual(req!.body, { query: '--dlq', pageSize: 5 });
  });

  it('pageSize (clamped to 1–50), scoreThreshold (0–1) and filter (only known fields) reach the service and narrow the hits', async () => {
    const c = client();
    const wide = await c.search({ query: 'visibility timeout retention', pageSize: 50 });
    const one = await c.search({ query: 'visibility timeout retention', pageSize: 1 });
    assert.equal(one.hits.length, 1);
    assert.ok(wide.hits.length > 1);
    const best = await c.search({ query: 'visibility timeout retention', pageSize: 50, scoreThreshold: 1 });
    assert.ok(best.hits.length >= 1 && best.hits.length < wide.hits.length, `${best.hits.length} of ${wide.hits.length}`);
    const german = await c.search({ query: 'relay queues create', filter: { language: 'de', groups: ['guides'], bogus: 1 } as never });
    assert.deepEqual([...new Set(german.hits.map((h) => h.path))], ['/erste-schritte']);
    await c.search({ query: 'x y', pageSize: 500, scoreThreshold: 7 });
    await c.search({ query: 'x y', pageSize: 0, scoreThreshold: -1 });
    await c.search({ query: 'x y', pageSize: Number.NaN, scoreThreshold: Number.NaN });
    const bodies = searchRequests().map((r) => r.body as Record<string, unknown>);
    assert.deepEqual(bodies[3], { query: 'relay queues create', filter: { language: 'de', groups: ['guides'] } });
    assert.deepEqual(bodies.slice(4), [{ query: 'x y', pageSize: 50, scoreThreshold: 1 }, { query: 'x y', pageSize: 1, scoreThreshold: 0 }, { query: 'x y' }]);
  });

  it("reads a page's full text by the path a search returned, and by its URL", async () => {
    const c = client();
    const page = await c.page({ path: '/configuration' });
    assert.equal(page.path, '/configuration');
    assert.equal(page.cut, false);
    assert.match(page.content, /\| `visibility_timeout` \| `30s` \|/);
    assert.match(page.content, /## Changing the visibility timeout/);
    const byUrl = await c.page({ path: `${emu().url}/docs/cli#flags` });
    assert.match(byUrl.content, /`--dlq`/);
    const req = searchRequests().find((r) => r.path.startsWith('/discovery/v1/page/'))!;
    assert.deepEqual(req.body, { path: '/configuration' });
    assert.equal(req.auth, 'assistant');
  });

  it('a service without the endpoints (404) and a plan without them (403) are notOffered naming search, for both calls', async () => {
    emu().search.offer(false);
    for (const call of [() => client().search({ query: 'retention' }), () => client().page({ path: '/cli' })]) {
      const e = await rejection(call(), emu().assistantKey);
      assert.deepEqual(e.reason, { code: 'notOffered', feature: 'search', status: 404 });
      assert.match(words(e), /^Docs search is not offered by this service or plan \(HTTP 404\)/);
    }
    emu().search.offer(true);
    const e403 = await rejection(client(faultFetch('403')).search({ query: 'retention' }), emu().assistantKey);
    assert.deepEqual(e403.reason, { code: 'notOffered', feature: 'search', status: 403 });
    const off = await startEmulator({ port: 0, search: false });
    try {
      const c = new SearchClient({ baseUrl: off.url, domain: off.domain, apiKey: off.assistantKey });
      assert.equal((await rejection(c.search({ query: 'retention' }), off.assistantKey)).reason.code, 'notOffered');
      assert.equal(off.requests[0]!.status, 404);
    } finally {
      await off.close();
    }
  });

  it('a 429 keeps when to retry, as the assistant key’s limit; the fault stays until cleared', async () => {
    emu().search.fault('429');
    const before = Date.now();
    const e = await rejection(client().search({ query: 'retention' }), emu().assistantKey);
    assert.equal(e.reason.code, 'rateLimited');
    const reason = e.reason as { service: string; retryAt?: number; perHour?: number };
    assert.equal(reason.service, 'assistant');
    assert.ok(reason.retryAt !== undefined && reason.retryAt >= before + SEARCH_RETRY_AFTER_S * 1000 - 50, String(reason.retryAt));
    assert.ok(!('perHour' in reason));
    emu().search.fault(undefined);
    assert.ok((await client().search({ query: 'retention' })).hits.length > 0);
  });

  it('refuses answers it cannot use (not JSON, not a list, a page without text, too large) and drops hits that are not hits', async () => {
    assert.equal((await rejection(client(faultFetch('bad-json')).search({ query: 'retention' }), emu().assistantKey)).reason.code, 'notJson');
    const shape = await rejection(client(faultFetch('bad-shape')).search({ query: 'retention' }), emu().assistantKey);
    assert.equal(shape.reason.code, 'badSearch');
    assert.match(words(shape), /search results that cannot be read/);
    const page = await rejection(client(faultFetch('bad-shape')).page({ path: '/cli' }), emu().assistantKey);
    assert.ok(page.reason.code === 'badSearch' && page.reason.field === 'content', page.message);
    const huge = await rejection(client(faultFetch('huge')).search({ query: 'retention' }), emu().assistantKey);
    assert.equal(huge.reason.code, 'tooLarge');
    const clean = await client().search({ query: 'retention', pageSize: 5 });
    const junk = await client(faultFetch('bad-entries')).search({ query: 'retention', pageSize: 5 });
    assert.equal(junk.dropped, 7);
    assert.deepEqual(junk.hits, clean.hits, 'the good hits beside the junk are all kept, in order');
  });

  it('bounds hostile hits: content cut, long paths dropped, at most 50 hits; a page’s text cut at 2 MB; strings kept inert for the caller', async () => {
    const { hits, dropped } = await client(faultFetch('hostile')).search({ query: 'retention' });
    assert.equal(hits.length, MAX_SEARCH_HITS);
    assert.ok(dropped >= 2, String(dropped));
    for (const h of hits) {
      assert.ok(h.content.length <= MAX_HIT_CONTENT_CHARS, String(h.content.length));
      assert.ok(h.path.length <= MAX_HIT_PATH_CHARS);
      assert.ok(!Object.hasOwn(h, 'polluted'));
    }
    assert.ok(hits.some((h) => h.content.endsWith('…') && h.content.length === MAX_HIT_CONTENT_CHARS));
    assert.ok(
      hits.some((h) => /\u202E/.test(h.content)),
      'bidi text arrives as text (made visible by whoever shows it)',
    );
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const page = await client(faultFetch('hostile')).page({ path: '/cli' });
    assert.equal(page.cut, true);
    assert.ok(page.content.length <= MAX_PAGE_CONTENT_CHARS);
  });

  it('never sends the admin key, a blank query or an overlong path; never shows the key', async () => {
    const admin = await rejection(client(undefined, emu().adminKey).search({ query: 'retention' }), emu().adminKey);
    assert.equal(admin.reason.code, 'keyInvalid');
    assert.equal((await rejection(client().search({ query: '   ' }), emu().assistantKey)).reason.code, 'badRequest');
    assert.equal((await rejection(client().page({ path: 'x'.repeat(MAX_HIT_PATH_CHARS + 1) }), emu().assistantKey)).reason.code, 'badRequest');
    assert.deepEqual(searchRequests(), []);
    const unknownKey = 'svc_dsc_unknown_0123456789abcdef';
    const e401 = await rejection(client(undefined, unknownKey).search({ query: 'retention' }), unknownKey);
    assert.deepEqual(e401.reason, { code: 'keyRefused', service: 'assistant' });
    for (const mode of ['403', '404', '429', '500', 'html-502', 'bad-json', 'bad-shape']) {
      const e = await rejection(client(faultFetch(mode)).search({ query: 'retention' }), emu().assistantKey);
      assert.ok(!JSON.stringify(e).includes(emu().assistantKey), mode);
    }
  });

  it('stops when its signal is aborted, also while the service holds the answer back', async () => {
    const ac = new AbortController();
    const pending = rejection(client(faultFetch('stall-headers')).search({ query: 'retention' }, { signal: ac.signal }));
    setTimeout(() => ac.abort(), 50);
    assert.equal((await pending).reason.code, 'aborted');
  });
});
