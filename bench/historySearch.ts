import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { emptyAnswer } from '../src/chat/core/answerView';
import type { ChatFiles } from '../src/chat/core/chatFiles';
import { ConversationFiles } from '../src/chat/core/conversationFiles';
import { scanHistory, SEARCH_DELAY_MS } from '../src/chat/core/historySearch';
import type { StoredConversation } from '../src/chat/core/storedChats';
import { fullGc, median, seeded, type BenchResult } from './util';

// 11. Searching a large history (issue 33): 1,000 conversations, about 100 MB of files, in the
// store's own format, searched the way *Show Conversation History…* searches them (scanHistory
// over ConversationFiles: each file read, parsed, searched and let go). Beside it, in the same
// run, a plain read of the same files (readFile, nothing else), the floor any search stands on.
// The time to the first results counts the pick's typing pause (SEARCH_DELAY_MS), as the
// budget is "within 200 ms of a keystroke". Peak heap is sampled after every file, against idle after a
// full GC.

const CONVERSATIONS = 1_000;
const TURNS = 10;
/** Characters per answer: 10 turns of this make a conversation of about 100 KB. */
const ANSWER_CHARS = 9_800;
const RUNS = 5;

/** The extension's ChatFiles over Node's fs (the extension's own goes through vscode.workspace.fs). */
function nodeFiles(dir: string): ChatFiles {
  const at = (name: string) => join(dir, name);
  return {
    read: (name) => readFile(at(name), 'utf8').catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? undefined : Promise.reject(err))),
    write: async (name, text) => {
      await mkdir(dir, { recursive: true });
      await writeFile(at(name), text);
    },
    rename: (from, to) => rename(at(from), at(to)),
    delete: (name) => rm(at(name), { force: true }),
    list: () => readdir(dir).catch(() => []),
  };
}

const WORDS = 'queue message retention visibility timeout delivery webhook signature token project region replica backup export audit limit'.split(' ');

function conversation(i: number, random: () => number): StoredConversation {
  const text = (n: number) => {
    let s = '';
    while (s.length < n) s += `${WORDS[Math.floor(random() * WORDS.length)]} `;
    return s;
  };
  const turns = Array.from({ length: TURNS }, (_, t) => {
    // One conversation in 25 mentions the archive bucket, in its last answer: a rare query's hits.
    const rare = i % 25 === 0 && t === TURNS - 1 ? ' Audit logs stay ninety days in the archive bucket.' : '';
    return {
      id: `t${t}`,
      question: `Question ${t} of conversation ${i}: ${text(120)}`,
      context: [],
      answer: { ...emptyAnswer(), status: 'done' as const, parts: [{ kind: 'text' as const, text: text(ANSWER_CHARS) + rare }] },
    };
  });
  return {
    id: `c${i.toString(36).padStart(4, '0')}`,
    title: `Conversation ${i}`,
    createdAt: 1_700_000_000_000 + i * 60_000,
    turns,
    threadId: null,
    threadKey: null,
  };
}

interface Scan {
  firstMs: number | undefined;
  totalMs: number;
  hits: number;
  peakHeapMb: number;
}

async function scan(files: ConversationFiles, ids: readonly string[], query: string): Promise<Scan> {
  fullGc();
  const idle = getHeapStatistics().used_heap_size;
  let peak = idle;
  const started = performance.now();
  let firstMs: number | undefined;
  const hits = await scanHistory(
    ids.map((id) => ({ id })),
    async (id) => {
      const r = await files.read(id);
      peak = Math.max(peak, getHeapStatistics().used_heap_size);
      return r.kind === 'ok' ? r.conversation : undefined;
    },
    query,
    () => false,
    { show: () => (firstMs ??= performance.now() - started) },
  );
  return { firstMs, totalMs: performance.now() - started, hits: hits?.length ?? 0, peakHeapMb: (peak - idle) / 1024 / 1024 };
}

async function plainRead(dir: string, ids: readonly string[]): Promise<{ ms: number; bytes: number }> {
  fullGc(); // as before each search: neither pays for the other's garbage
  const started = performance.now();
  let bytes = 0;
  for (const id of ids) bytes += (await readFile(join(dir, `${id}.json`), 'utf8')).length;
  return { ms: performance.now() - started, bytes };
}

export async function benchHistorySearch(): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'docs-assistant-history-'));
  try {
    const files = new ConversationFiles(nodeFiles(dir), (what, err) => {
      throw new Error(`${what}: ${String(err)}`);
    });
    const random = seeded(33);
    const ids: string[] = [];
    for (let i = 0; i < CONVERSATIONS; i++) {
      const c = conversation(i, random);
      files.save(c);
      ids.push(c.id);
      if (i % 50 === 49) await files.settled();
    }
    await files.settled();
    ids.reverse(); // the history lists the newest first
    // Warm the page cache once, so the floor and the search read the same way.
    const { bytes } = await plainRead(dir, ids);

    const queries = [
      { name: 'rare (40 conversations)', query: 'ninety days archive' },
      { name: 'common (every conversation)', query: 'retention' },
      { name: 'absent (none)', query: 'kubernetes' },
    ];
    const floor: number[] = [];
    const results = new Map<string, Scan[]>(queries.map((q) => [q.name, []]));
    for (let run = 0; run < RUNS; run++) {
      // Side by side in each run: the floor before and after each query, so neither is always first.
      for (const q of queries) {
        floor.push((await plainRead(dir, ids)).ms);
        results.get(q.name)!.push(await scan(files, ids, q.query));
      }
      floor.push((await plainRead(dir, ids)).ms);
    }
    const floorMs = median(floor);
    const rows: [string, string][] = [
      ['history', `${CONVERSATIONS} conversations, ${(bytes / 1024 / 1024).toFixed(1)} MB of files (${TURNS} turns each)`],
      ['plain read of every file (the floor)', `${floorMs.toFixed(0)} ms (median of ${floor.length}: ${floor.map((x) => x.toFixed(0)).join(', ')})`],
    ];
    const budgets = [];
    const raw: Record<string, unknown> = { conversations: CONVERSATIONS, bytes, floorMs, runs: RUNS };
    for (const q of queries) {
      const rs = results.get(q.name)!;
      const total = median(rs.map((r) => r.totalMs));
      const firsts = rs.map((r) => r.firstMs).filter((x): x is number => x !== undefined);
      const first = firsts.length ? median(firsts) + SEARCH_DELAY_MS : undefined;
      const peak = Math.max(...rs.map((r) => r.peakHeapMb));
      const ratio = total / floorMs;
      rows.push([
        `search "${q.query}": ${q.name}`,
        `${rs[0]!.hits} hits; first results ${first === undefined ? '—' : `${first.toFixed(0)} ms after the keystroke`}; whole search ${total.toFixed(0)} ms (${ratio.toFixed(2)}× the read); peak heap +${peak.toFixed(1)} MB`,
      ]);
      if (first !== undefined)
        budgets.push({
          what: `history search, ${q.name}: first results after a keystroke`,
          value: `${first.toFixed(0)} ms`,
          budget: '≤ 200 ms',
          met: first <= 200,
        });
      budgets.push({ what: `history search, ${q.name}: whole search vs a plain read`, value: `${ratio.toFixed(2)}×`, budget: '≤ 2×', met: ratio <= 2 });
      budgets.push({ what: `history search, ${q.name}: peak heap over idle`, value: `${peak.toFixed(1)} MB`, budget: '< 30 MB', met: peak < 30 });
      raw[q.name] = { hits: rs[0]!.hits, firstMs: first, totalMs: total, ratio, peakHeapMb: peak, runs: rs };
    }
    return { name: '11. Searching 1,000 conversations on disk (issue 33)', rows, budgets, raw };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
