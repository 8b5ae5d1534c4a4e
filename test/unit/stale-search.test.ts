import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AssistantClient, SearchClient, ServiceError } from '../../src/api';
import { Assistant } from '../../src/assistant/core/assistant';
import { english } from '../../src/common/l10n';
import { assistantSearcher, chooseSearcher, searchEndpointSearcher } from '../../src/staleDocs/core/docsSearchers';
import { MAX_LINES_PER_PAGE, MAX_SEARCHES, SEARCH_GAP_MS, type ChangedItem, type DocsSearcher } from '../../src/staleDocs/core/staleDocs';
import { findStalePages, pageKey } from '../../src/staleDocs/core/staleSearch';
import { pageUrl } from '../../src/staleDocs/core/staleWords';
import { startEmulator, type RunningEmulator } from '../emulator';
import { FakeClock } from './fakeClock';

// Searching the docs for what a code change made wrong (issue 32), against the emulator over real
// HTTP: the search endpoint and, when the service does not offer it, the assistant's sources
// (said once, remembered); pages merged, lines matched by whole needles, ranked; pacing and the
// bound of searches checked on an injected clock (not timed); cancellation; hostile hits.

/** A small docs site of its own, so that what is stale and what is not is known line by line. */
const SITE: Record<string, string> = {
  'cli.md': [
    '# CLI',
    '',
    '## Create a queue',
    '',
    'Flags of `relay queues create`:',
    '',
    '- `--retention`: how long messages are kept.',
    '- `--dlq NAME`: the dead-letter queue that takes messages after too many deliveries.',
    '',
    '## Publish a message',
    '',
    "relay messages publish orders --body '{}' --delay 10s",
    '',
  ].join('\n'),
  'configuration.md': [
    '# Configuration',
    '',
    '## Queue defaults',
    '',
    '| Key | Default | Meaning |',
    '| `visibility_timeout` | `30s` | How long a received message stays hidden. |',
    '| `retention` | `4d` | How long a message is kept. |',
    '',
    'Slow consumers set `visibility_timeout` to `60s` or more.',
    '',
  ].join('\n'),
  // Only the new forms, and a flag that merely starts like the old one: never listed.
  'changelog.md': [
    '# Changelog',
    '',
    '## 2.0',
    '',
    '- New: `--dead-letter-queue NAME` names the dead-letter queue of a new queue.',
    '- New: `--dlq-retries N` sets how often the dead-letter queue retries.',
    '- The default `visibility_timeout` is now `60s`.',
    '',
  ].join('\n'),
};

/** An item as the extractor gives it: the old form's needles, the new form's, and where in the diff. */
function item(kind: ChangedItem['kind'], how: ChangedItem['how'], staleNeedles: string[], updatedNeedles: string[], file: string, line: number): ChangedItem {
  const oldForm = staleNeedles.join(': ');
  const out: ChangedItem = { id: `${kind}:${staleNeedles[0]}`, kind, how, oldForm, staleNeedles, updatedNeedles, old: { file, line }, weight: 10 };
  if (how !== 'removed') {
    out.newForm = updatedNeedles.join(': ');
    out.new = { file, line };
  }
  return out;
}
const DLQ = item('flag', 'renamed', ['--dlq'], ['--dead-letter-queue'], 'src/cli.ts', 12);
const DELAY = item('flag', 'removed', ['--delay'], [], 'src/cli.ts', 20);
const VISIBILITY = item('configKey', 'default', ['visibility_timeout', '30s'], ['visibility_timeout', '60s'], 'relay.defaults.yaml', 2);
const ITEMS = [DLQ, DELAY, VISIBILITY];

/** A flag item of its own, for checks that need many. */
const flag = (i: number): ChangedItem => ({ ...DELAY, id: `flag:--gone-${i}`, oldForm: `--gone-${i}`, staleNeedles: [`--gone-${i}`] });

/** Runs `p` while moving the fake clock, a step at a time, with real time in between for the HTTP. */
async function driven<T>(clock: FakeClock, p: Promise<T>): Promise<T> {
  let settled = false;
  const done = p.finally(() => (settled = true));
  done.catch(() => undefined);
  while (!settled) {
    await clock.advance(10);
    await new Promise((r) => setTimeout(r, 1));
  }
  return done;
}

/** A searcher that notes when each search starts (on the fake clock) and how many run at once. */
function watched(inner: DocsSearcher, clock: FakeClock): DocsSearcher & { starts: number[]; maxInFlight: number } {
  let inFlight = 0;
  const w = {
    via: inner.via,
    starts: [] as number[],
    maxInFlight: 0,
    async search(query: string, opts: { signal: AbortSignal }) {
      w.starts.push(clock.now());
      w.maxInFlight = Math.max(w.maxInFlight, ++inFlight);
      try {
        return await inner.search(query, opts);
      } finally {
        inFlight--;
      }
    },
  };
  return w;
}

describe('stale docs: searching the docs for what a change made wrong', function () {
  this.timeout(30_000);
  let site: string;
  let emu: RunningEmulator;

  before(async () => {
    site = mkdtempSync(join(tmpdir(), 'stale-search-site-'));
    for (const [name, text] of Object.entries(SITE)) writeFileSync(join(site, name), text);
    emu = await startEmulator({ port: 0, docsDir: site });
  });
  after(async () => {
    await emu?.close();
    rmSync(site, { recursive: true, force: true });
  });
  beforeEach(() => emu.reset());

  const searchClient = (): SearchClient => new SearchClient({ baseUrl: emu.url, domain: emu.domain, apiKey: emu.assistantKey, requestTimeoutMs: 5000 });
  const assistant = (): Assistant =>
    new Assistant({
      client: () => Promise.resolve(new AssistantClient({ baseUrl: emu.url, domain: emu.domain, apiKey: emu.assistantKey, requestTimeoutMs: 5000 })),
      settings: () => ({ fp: 'anonymous', retrievalPageSize: 5, filter: null }),
    });
  const paths = (prefix: string): string[] => emu.requests.filter((r) => r.path.startsWith(prefix)).map((r) => r.path);
  /** The workspace file of a page, as the wiring reads it when the docs live here. */
  const workspaceFile = (path: string): Promise<string | undefined> => {
    const name = `${path.replace(/^\//, '')}.md`;
    return Promise.resolve(SITE[name] === undefined ? undefined : readFileSync(join(site, name), 'utf8'));
  };

  it('the search endpoint: old and new forms searched, stale lines of each page with their items, ranked; new-form-only pages left out', async () => {
    const clock = new FakeClock();
    const client = searchClient();
    const searcher = watched(searchEndpointSearcher(client), clock);
    const progress: [number, number][] = [];
    const check = await driven(
      clock,
      findStalePages(ITEMS, searcher, {
        signal: new AbortController().signal,
        clock,
        readPage: async (path, signal) => (await client.page({ path }, { signal })).content,
        progress: (done, total) => progress.push([done, total]),
      }),
    );
    assert.equal(check.via, 'search');
    assert.equal(check.cut, false);
    assert.equal(check.requests, 5, 'old and new of the rename and the default, old of the removal');
    assert.deepEqual(paths('/discovery/v1/search/').length, 5);
    assert.deepEqual(
      emu.requests.filter((r) => r.path.startsWith('/discovery/v1/search/')).map((r) => (r.body as { query: string }).query),
      ['--dlq', '--dead-letter-queue', '--delay', 'visibility_timeout 30s', 'visibility_timeout 60s'],
    );
    assert.deepEqual(progress[progress.length - 1], [5, 5]);
    assert.deepEqual(
      check.pages.map((p) => [p.path, p.staleItemIds]),
      [
        ['/cli', ['flag:--dlq', 'flag:--delay']],
        ['/configuration', ['configKey:visibility_timeout']],
      ],
    );
    const [cli, config] = check.pages;
    assert.deepEqual(cli!.lines, [
      { line: 8, text: '- `--dlq NAME`: the dead-letter queue that takes messages after too many deliveries.', itemIds: ['flag:--dlq'] },
      { line: 12, text: "relay messages publish orders --body '{}' --delay 10s", itemIds: ['flag:--delay'] },
    ]);
    assert.deepEqual(cli!.updatedItemIds, []);
    assert.deepEqual(config!.lines, [
      { line: 6, text: '| `visibility_timeout` | `30s` | How long a received message stays hidden. |', itemIds: ['configKey:visibility_timeout'] },
    ]);
    assert.deepEqual(config!.updatedItemIds, ['configKey:visibility_timeout'], 'its other line already says 60s');
    assert.ok(!check.pages.some((p) => p.path === '/changelog'), '--dlq-retries is not --dlq, and the rest is the new forms');
    assert.ok(searcher.maxInFlight === 1);
    for (let i = 1; i < searcher.starts.length; i++) assert.ok(searcher.starts[i]! - searcher.starts[i - 1]! >= SEARCH_GAP_MS, String(searcher.starts));
    assert.equal(paths('/discovery/v1/page/').length, 2 + 1, 'each page a hit named is read once (cli, configuration, changelog)');
  });

  it('without readPage, the lines come from the hits themselves; the workspace file when given', async () => {
    const clock = new FakeClock();
    const fromHits = await driven(clock, findStalePages([DLQ], searchEndpointSearcher(searchClient()), { signal: new AbortController().signal, clock }));
    assert.deepEqual(
      fromHits.pages.map((p) => [p.path, p.lines.map((l) => l.text)]),
      [['/cli', ['- `--dlq NAME`: the dead-letter queue that takes messages after too many deliveries.']]],
    );
    const fromFiles = await driven(
      clock,
      findStalePages([DLQ], searchEndpointSearcher(searchClient()), { signal: new AbortController().signal, clock, readPage: workspaceFile }),
    );
    assert.deepEqual(fromFiles.pages[0]!.lines[0]!.line, 8);
  });

  it('at most one search in flight, at least 100 ms apart, and at most 50 in all: then cut', async () => {
    const clock = new FakeClock();
    const items = Array.from({ length: MAX_SEARCHES + 10 }, (_, i) => flag(i));
    const searcher = watched(searchEndpointSearcher(searchClient()), clock);
    const check = await driven(clock, findStalePages(items, searcher, { signal: new AbortController().signal, clock }));
    assert.equal(check.cut, true);
    assert.equal(check.requests, MAX_SEARCHES);
    assert.equal(paths('/discovery/v1/search/').length, MAX_SEARCHES);
    assert.equal(searcher.maxInFlight, 1);
    const gaps = searcher.starts.slice(1).map((t, i) => t - searcher.starts[i]!);
    assert.ok(Math.min(...gaps) >= SEARCH_GAP_MS, String(gaps));
    assert.deepEqual(check.items, items, 'the items are the extraction’s, in its order');
  });

  it('cancellation stops at once, also while a search is held by the service; nothing is sent after it', async () => {
    const clock = new FakeClock();
    emu.search.fault('stall-headers');
    const ac = new AbortController();
    const p = findStalePages(ITEMS, searchEndpointSearcher(searchClient()), { signal: ac.signal, clock });
    p.catch(() => undefined);
    while (paths('/discovery/v1/search/').length === 0) await new Promise((r) => setTimeout(r, 5));
    const started = Date.now();
    ac.abort();
    const e = await p.then(
      () => assert.fail('resolved'),
      (err: unknown) => err,
    );
    assert.ok(e instanceof ServiceError && e.reason.code === 'aborted', String(e));
    assert.ok(Date.now() - started < 1000);
    await clock.advance(10 * SEARCH_GAP_MS);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(paths('/discovery/v1/search/').length, 1);
  });

  it('hostile hits: odd and script paths dropped, `/cli`, `cli#x` and URLs merged into one page, long lines cut, at most 20 lines a page', async () => {
    assert.equal(pageKey('/cli'), '/cli');
    assert.equal(pageKey('cli'), '/cli');
    assert.equal(pageKey('https://docs.example.com/cli#flags', 'https://docs.example.com'), '/cli');
    assert.equal(pageKey('javascript:alert(1)'), undefined);
    assert.equal(pageKey('/../etc/passwd'), undefined);
    const many = Array.from({ length: 30 }, (_, i) => `line ${i} --dlq`).join('\n');
    const hits = [
      { path: '/cli', content: 'Use `--dlq` here.' },
      { path: 'cli#flags', content: '\u202E`--dlq`\u202C reversed' },
      { path: `https://docs.example.com/cli`, content: `--dlq ${'y'.repeat(50_000)}` },
      { path: 'javascript:alert(document.domain)', content: '--dlq <img src=x onerror=alert(1)>' },
      { path: '/../../etc/passwd', content: '--dlq' },
      { path: '/long', content: many },
    ];
    const searcher: DocsSearcher = { via: 'search', search: () => Promise.resolve(hits) };
    const clock = new FakeClock();
    const check = await driven(
      clock,
      findStalePages([DLQ], searcher, { signal: new AbortController().signal, clock, docsSiteUrl: 'https://docs.example.com' }),
    );
    assert.deepEqual(
      check.pages.map((p) => p.path),
      ['/cli', '/long'],
    );
    const cli = check.pages[0]!;
    assert.equal(cli.lines.length, 3);
    assert.ok(cli.lines.every((l) => l.text.length <= 1000));
    assert.equal(check.pages[1]!.lines.length, MAX_LINES_PER_PAGE);
    // And the emulator's own hostile hits, end to end.
    emu.search.fault('hostile');
    const real = await driven(clock, findStalePages([DLQ], searchEndpointSearcher(searchClient()), { signal: new AbortController().signal, clock }));
    assert.ok(
      real.pages.every((p) => p.path.startsWith('/') && p.path.length < 100),
      JSON.stringify(real.pages.map((p) => p.path)),
    );
    assert.ok(real.pages.some((p) => p.path === '/cli'));
  });

  it('a search that fails stops the check there: the pages found so far are kept, with the error; a bug still throws', async () => {
    const clock = new FakeClock();
    const inner = searchEndpointSearcher(searchClient());
    let made = 0;
    // The third search meets a 500 from the service (real HTTP): the first two found /cli and /configuration.
    const failing: DocsSearcher = {
      via: 'search',
      search: (query, opts) => {
        if (++made === 3) emu.search.fault('500');
        return inner.search(query, opts);
      },
    };
    const check = await driven(clock, findStalePages([DLQ, VISIBILITY, DELAY], failing, { signal: new AbortController().signal, clock }));
    assert.ok(check.failed instanceof ServiceError && check.failed.reason.code === 'serverError', String(check.failed));
    assert.equal(check.requests, 3);
    assert.equal(paths('/discovery/v1/search/').length, 3, 'nothing is sent after the failure');
    assert.equal(check.cut, true, 'not every item was searched');
    assert.deepEqual(
      check.pages.map((p) => p.path),
      ['/cli'],
      'what the first two searches found is kept (--dlq on /cli)',
    );
    const bug: DocsSearcher = { via: 'search', search: () => Promise.reject(new TypeError('a bug')) };
    await assert.rejects(driven(clock, findStalePages([DLQ], bug, { signal: new AbortController().signal, clock })), TypeError);
  });

  it('page reads: the raw path the service named, paced like the searches, counted, with their own progress', async () => {
    const clock = new FakeClock();
    const hits = [
      { path: 'cli.md#flags', content: 'Use `--dlq` here.' },
      { path: '/cli', content: 'Use `--dlq` there.' },
      { path: 'https://docs.example.com/configuration', content: 'Set `visibility_timeout` to `30s`.' },
    ];
    const searcher: DocsSearcher = { via: 'search', search: () => Promise.resolve(hits) };
    const asked: [string, string | undefined, number][] = [];
    const reading: [number, number][] = [];
    const check = await driven(
      clock,
      findStalePages([DLQ, VISIBILITY], searcher, {
        signal: new AbortController().signal,
        clock,
        readPage: (path, _signal, raw) => {
          asked.push([path, raw, clock.now()]);
          return Promise.resolve(undefined);
        },
        pageProgress: (done, total) => reading.push([done, total]),
        docsSiteUrl: 'https://docs.example.com',
      }),
    );
    assert.deepEqual(
      asked.map(([path, raw]) => [path, raw]),
      [
        ['/cli', 'cli.md#flags'],
        ['/configuration', 'https://docs.example.com/configuration'],
      ],
      'each page once: its key for the workspace file, and the first path a hit gave it for the page endpoint',
    );
    assert.ok(asked[1]![2] - asked[0]![2] >= SEARCH_GAP_MS, String(asked.map(([, , t]) => t)));
    assert.equal(check.pageReads, 2);
    assert.deepEqual(reading, [
      [1, 2],
      [2, 2],
    ]);
    assert.deepEqual(
      check.pages.map((p) => p.path),
      ['/cli', '/configuration'],
    );
  });

  it('the assistant’s sources are pages only on the docs site’s address, named from under its path', () => {
    const site = 'https://acme.example/docs/';
    assert.equal(pageKey('https://acme.example/docs/cli#flags', site), '/cli');
    assert.equal(pageKey('https://ACME.example:443/docs/api/auth.mdx', site), '/api/auth');
    assert.equal(pageKey('https://acme.example/docs', site), '/');
    assert.equal(pageKey('/cli', site), '/cli', 'a path the search endpoint gives is already the site’s');
    assert.equal(pageKey('https://evil.example/docs/cli', site), undefined, 'another host');
    assert.equal(pageKey('http://acme.example/docs/cli', site), undefined, 'another scheme');
    assert.equal(pageKey('https://acme.example/docsx/cli', site), undefined, 'outside the docs path');
    assert.equal(pageKey('https://acme.example/blog/post', site), undefined);
    assert.equal(pageKey('https://acme.example/docs/%2e%2e/admin', site), undefined);
    assert.equal(pageKey('https://acme.example/docs/cli', ''), undefined, 'no site set: a URL is no page of it');
    assert.equal(pageKey('https://acme.example/docs/cli', 'https://u:p@acme.example/docs'), undefined);
    assert.equal(pageKey('https://acme.example/cli', 'https://acme.example'), '/cli');
    // The page's key, back to its address on the site: the source's own page, not /docs/docs/cli.
    assert.equal(pageUrl(pageKey('https://acme.example/docs/cli#flags', site)!, site), 'https://acme.example/docs/cli');
  });

  it('falls back to the assistant’s sources when search is not offered: said once, remembered for the session', async () => {
    emu.search.offer(false);
    const notes: string[] = [];
    const chosen = chooseSearcher({
      endpoint: searchEndpointSearcher(searchClient()),
      assistant: assistantSearcher(assistant()),
      noteFallback: (note) => notes.push(note),
      t: english,
    });
    assert.equal(chosen.via, 'search');
    const clock = new FakeClock();
    const check = await driven(
      clock,
      findStalePages(ITEMS, chosen, { signal: new AbortController().signal, clock, readPage: workspaceFile, docsSiteUrl: `${emu.url}/docs` }),
    );
    assert.equal(check.via, 'assistant');
    assert.deepEqual(notes, ['Search is not offered by this service: the assistant’s sources were used.']);
    assert.equal(paths('/discovery/v1/search/').length, 1, 'one 404, then never again');
    assert.equal(paths('/discovery/v2/assistant/').length, 5);
    const asked = emu.requests.filter((r) => r.path.startsWith('/discovery/v2/assistant/')).map((r) => JSON.stringify(r.body));
    assert.ok(asked[0]!.includes('--dlq'), asked[0]);
    assert.deepEqual(
      check.pages.map((p) => [p.path, p.staleItemIds]),
      [
        ['/cli', ['flag:--dlq', 'flag:--delay']],
        ['/configuration', ['configKey:visibility_timeout']],
      ],
    );
    // The same chooser, later in the session: straight to the assistant.
    await driven(clock, findStalePages([DLQ], chosen, { signal: new AbortController().signal, clock }));
    assert.equal(paths('/discovery/v1/search/').length, 1);
    assert.equal(notes.length, 1);
  });

  it('the assistant alone: its sources and what they showed are the hits; other failures are not a fallback', async () => {
    const hits = await assistantSearcher(assistant()).search('--dlq', { signal: new AbortController().signal });
    assert.ok(
      hits.some((h) => pageKey(h.path, `${emu.url}/docs`) === '/cli' && h.content.includes('--dlq')),
      JSON.stringify(hits),
    );
    emu.search.fault('500');
    const chosen = chooseSearcher({ endpoint: searchEndpointSearcher(searchClient()), assistant: assistantSearcher(assistant()) });
    const e = await chosen.search('--dlq', { signal: new AbortController().signal }).then(
      () => undefined,
      (err: unknown) => err,
    );
    assert.ok(e instanceof ServiceError && e.reason.code === 'serverError', String(e));
    assert.equal(chosen.via, 'search');
    assert.equal(paths('/discovery/v2/assistant/').length, 1, 'only the first, direct ask');
  });
});
