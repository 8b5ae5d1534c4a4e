import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AssistantClient, SearchClient } from '../src/api';
import { Assistant } from '../src/assistant/core/assistant';
import { extractChanges } from '../src/staleDocs/core/changeExtractor';
import { assistantSearcher, chooseSearcher, searchEndpointSearcher } from '../src/staleDocs/core/docsSearchers';
import type { StaleCheck } from '../src/staleDocs/core/staleDocs';
import { findStalePages } from '../src/staleDocs/core/staleSearch';
import { startEmulator } from '../test/emulator';
import { applyStaleDocsChange, commitSampleWorkspace } from '../test/fixtures/staleDocsChange';
import { ROOT } from './shadow';
import { median, type BenchResult } from './util';

// 14. The whole check on the scripted change (issue 32): sample-workspace/ as a real Git
// repository, the scripted change applied (test/fixtures/staleDocsChange.ts), its `git diff HEAD`
// read into items, the docs searched for each over real HTTP on 127.0.0.1 (the emulator), and
// each hit page read through the page endpoint: the check's own work from the click to the
// result the tree shows, without VS Code's drawing (the e2e, test/e2e/stale-docs.e2e.ts, runs the
// same change through the real UI). Side by side: the search endpoint, and the assistant's
// sources when the service has no search (404) and the docs are in the workspace. The pacing of one search per 100 ms is most of
// the time by design, so the requests it made are printed beside it.

const RUNS = 5;
const DOCS = join(ROOT, 'test', 'fixtures', 'docs-site');

/** A page's file in the docs folder (`/docs/cli` or `/cli` → cli.md), as docs.json maps it. */
function docsFile(path: string): string | undefined {
  const file = ['.md', '.mdx'].map((ext) => join(DOCS, `${path.replace(/^\/(docs\/)?/, '')}${ext}`)).find((f) => existsSync(f));
  return file && readFileSync(file, 'utf8');
}
const NAME = '14. Check Docs for My Changes: the scripted change, diff to stale pages (issue 32)';

interface Run {
  ms: number;
  extractMs: number;
  check: StaleCheck;
  requests: Record<string, number>;
}

export async function benchStaleCheck(): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'stale-check-'));
  const rows: [string, string][] = [];
  const raw: Record<string, unknown> = {};
  try {
    cpSync(join(ROOT, 'sample-workspace'), dir, { recursive: true });
    commitSampleWorkspace(dir);
    applyStaleDocsChange(dir);
    for (const search of [true, false]) {
      const emu = await startEmulator({ port: 0, search, docsDir: DOCS });
      try {
        const opts = { baseUrl: emu.url, domain: emu.domain, apiKey: emu.assistantKey, requestTimeoutMs: 10_000 };
        const runs: Run[] = [];
        for (let r = 0; r <= RUNS; r++) {
          emu.reset();
          const signal = new AbortController().signal;
          const t0 = performance.now();
          const patch = execFileSync('git', ['diff', 'HEAD'], { cwd: dir, encoding: 'utf8' });
          const { items } = extractChanges(patch);
          const extractMs = performance.now() - t0;
          const client = new SearchClient(opts);
          const assistant = new Assistant({
            client: () => Promise.resolve(new AssistantClient(opts)),
            settings: () => ({ fp: 'anonymous', retrievalPageSize: 5, filter: null }),
          });
          const searcher = chooseSearcher({ endpoint: searchEndpointSearcher(client), assistant: assistantSearcher(assistant) });
          const check = await findStalePages(items, searcher, {
            signal,
            // As the wiring reads a page: its file when the docs live in the workspace, else the page endpoint.
            readPage: async (path, s) => (search ? (await client.page({ path }, { signal: s })).content : docsFile(path)),
          });
          const ms = performance.now() - t0;
          const requests: Record<string, number> = {};
          for (const q of emu.requests) {
            const kind = /\/(search|page|message)\b/.exec(q.path)?.[1] ?? q.path;
            requests[kind] = (requests[kind] ?? 0) + 1;
          }
          // The first run warms the emulator's index and the JIT: not counted.
          if (r > 0) runs.push({ ms, extractMs, check, requests });
        }
        const last = runs.at(-1)!;
        const label = search
          ? 'search endpoint, pages read through the page endpoint'
          : 'no search (404): the assistant’s sources, pages read from the docs in the workspace';
        rows.push([
          label,
          `median ${median(runs.map((x) => x.ms)).toFixed(0)} ms (${runs.map((x) => x.ms.toFixed(0)).join(', ')}); reading the diff into ${last.check.items.length} items ${median(runs.map((x) => x.extractMs)).toFixed(0)} ms; requests: ${Object.entries(
            last.requests,
          )
            .map(([k, n]) => `${n} ${k}`)
            .join(
              ', ',
            )}; stale pages: ${last.check.pages.map((p) => `${p.path} (${p.lines.length} line${p.lines.length === 1 ? '' : 's'})`).join(', ')}; via ${last.check.via}`,
        ]);
        raw[search ? 'search' : 'assistant'] = {
          ms: runs.map((x) => x.ms),
          extractMs: runs.map((x) => x.extractMs),
          requests: last.requests,
          pages: last.check.pages.map((p) => p.path),
        };
      } finally {
        await emu.close();
      }
    }
    return { name: NAME, rows, budgets: [], raw };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
