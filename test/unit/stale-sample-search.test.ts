import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AssistantClient, SearchClient } from '../../src/api';
import { Assistant } from '../../src/assistant/core/assistant';
import { assistantSearcher, searchEndpointSearcher } from '../../src/staleDocs/core/docsSearchers';
import type { ChangedItem, DocsSearcher, StaleCheck } from '../../src/staleDocs/core/staleDocs';
import { findStalePages } from '../../src/staleDocs/core/staleSearch';
import { DocsSiteMap, navigationPages, pageCandidates } from '../../src/host/core/docsSiteMap';
import { startEmulator, type RunningEmulator } from '../emulator';
import { expectedChanges, expectedNotStale, expectedStaleLines, expectedStalePages } from '../fixtures/staleDocsChange';

// The scripted change's expectations (test/fixtures/staleDocsChange.ts) through the real search,
// over real HTTP, on the docs the emulator serves by default (the ones the e2e and the demo use):
// its items, searched both ways the check searches, list exactly the expected pages and lines,
// and none of the pages that must not be listed, though the search returns them.

const DOCS = join(__dirname, '..', 'fixtures', 'docs-site');
/**
 * The docs in the workspace as the wiring maps them (src/host): the pages docs.json names, to the
 * files that exist. The assistant's sources are URLs of the emulator's site, which serves its pages
 * under /docs/ (`${emu.url}/docs/cli`); the check, told that address, names them as docs.json does.
 */
const named = navigationPages(readFileSync(join(DOCS, 'docs.json'), 'utf8'))!;
const siteMap = new DocsSiteMap([
  { folder: 'file:///docs', base: '', files: new Set(named.flatMap((p) => pageCandidates(p)).filter((f) => existsSync(join(DOCS, f)))) },
]);
const items: ChangedItem[] = expectedChanges.map((c, i) => ({ ...c, id: `${c.kind}:${c.oldForm}`, weight: 10 - i }));

describe('the scripted change against the emulator’s docs: the pages the check lists (issue 32)', function () {
  let emu: RunningEmulator;
  before(async () => {
    emu = await startEmulator({ port: 0 });
  });
  after(async () => emu?.close());
  beforeEach(() => emu.reset());

  const opts = { baseUrl: '', domain: '', apiKey: '', requestTimeoutMs: 5000 };
  const connect = () => ({ ...opts, baseUrl: emu.url, domain: emu.domain, apiKey: emu.assistantKey });

  /** Runs the check, recording the pages it read. */
  async function check(searcher: DocsSearcher, readPage: (path: string, signal: AbortSignal) => Promise<string | undefined>) {
    const read: string[] = [];
    const result: StaleCheck = await findStalePages(items, searcher, {
      signal: new AbortController().signal,
      readPage: (path, signal) => (read.push(path), readPage(path, signal)),
      docsSiteUrl: `${emu.url}/docs`,
    });
    return { result, read };
  }

  function assertExpected({ result, read }: { result: StaleCheck; read: string[] }): void {
    assert.deepEqual(
      result.pages.map((p) => p.path),
      [...expectedStalePages],
    );
    for (const stale of result.pages) {
      const fragments = expectedStaleLines[stale.path]!;
      assert.equal(stale.lines.length, fragments.length, `${stale.path}: ${JSON.stringify(stale.lines)}`);
      fragments.forEach((f, i) => assert.ok(stale.lines[i]!.text.includes(f), `${stale.path}: ${stale.lines[i]!.text}`));
    }
    for (const path of expectedNotStale) assert.ok(!result.pages.some((p) => p.path === path), path);
    assert.ok(read.includes('/changelog'), `the new-form-only page was found and read, and not listed (read: ${read.join(', ')})`);
  }

  it('through the search endpoint, each page read through the page endpoint', async () => {
    const client = new SearchClient(connect());
    const run = await check(searchEndpointSearcher(client), async (path, signal) => (await client.page({ path }, { signal })).content);
    assert.equal(run.result.via, 'search');
    assertExpected(run);
  });

  it("through the assistant's sources, each page read from its file (the docs in the workspace)", async () => {
    const assistant = new Assistant({
      client: () => Promise.resolve(new AssistantClient(connect())),
      settings: () => ({ fp: 'anonymous', retrievalPageSize: 5, filter: null }),
    });
    const file = (path: string) => siteMap.fileFor(path)?.path;
    const run = await check(assistantSearcher(assistant), (path) => Promise.resolve(file(path) && readFileSync(join(DOCS, file(path)!), 'utf8')));
    assert.equal(run.result.via, 'assistant');
    assertExpected(run);
  });
});
