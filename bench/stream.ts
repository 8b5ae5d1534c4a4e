import assert from 'node:assert/strict';
import { createParser } from 'eventsource-parser';
import { parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk as SdkChunk } from 'ai';
import { applyStreamItem, assembleFromBytes, createDecoder, createEmptyMessage, type AssembledMessage } from '../src/api';
import { fullGc, median, seeded, type BenchResult } from './util';

// 1. Stream assembly: the same 10,000-chunk UI message stream, in the same network-sized pieces,
// through (a) our SSE decoder + reducer, (b) the AI SDK's own parsing (parseJsonEventStream with
// uiMessageChunkSchema, as its DefaultChatTransport does) + readUIMessageStream, and (c) the floor:
// eventsource-parser and JSON.parse of every chunk, assembling nothing.

const CHUNKS = 10_000;

/** A long answer: reasoning, a search tool call, sources, text across several parts, finish with a thread. */
export function recordStream(): { bytes: Uint8Array; chunks: number } {
  const rnd = seeded(7);
  const words = [
    'relay',
    'timeout',
    'the',
    'configure',
    'request',
    'docs',
    'retry',
    'default',
    'is',
    'set',
    'with',
    'connection',
    '`connectTimeout`',
    '**note**',
    'and',
  ];
  const chunks: object[] = [{ type: 'start', messageId: 'msg-bench' }, { type: 'start-step' }];
  chunks.push({ type: 'reasoning-start', id: 'r1' });
  for (let i = 0; i < 200; i++) chunks.push({ type: 'reasoning-delta', id: 'r1', delta: `${words[Math.floor(rnd() * words.length)]} ` });
  chunks.push({ type: 'reasoning-end', id: 'r1' });
  chunks.push({ type: 'tool-input-start', toolCallId: 'call-1', toolName: 'search' });
  for (const d of ['{"query":', '"relay ', 'timeout"}']) chunks.push({ type: 'tool-input-delta', toolCallId: 'call-1', inputTextDelta: d });
  chunks.push({ type: 'tool-input-available', toolCallId: 'call-1', toolName: 'search', input: { query: 'relay timeout' } });
  chunks.push({
    type: 'tool-output-available',
    toolCallId: 'call-1',
    output: { results: [{ title: 'Configuration', url: 'https://docs.example.com/config' }] },
  });
  for (let s = 0; s < 8; s++) chunks.push({ type: 'source-url', sourceId: `src-${s}`, url: `https://docs.example.com/page-${s}`, title: `Page ${s}` });
  const parts = 5;
  const per = Math.floor((CHUNKS - chunks.length - parts * 2 - 3) / parts);
  for (let p = 0; p < parts; p++) {
    chunks.push({ type: 'text-start', id: `t${p}` });
    for (let i = 0; i < per; i++)
      chunks.push({ type: 'text-delta', id: `t${p}`, delta: `${words[Math.floor(rnd() * words.length)]}${i % 40 === 39 ? '\n\n' : ' '}` });
    chunks.push({ type: 'text-end', id: `t${p}` });
  }
  // Pad to exactly CHUNKS with one more part.
  if (chunks.length < CHUNKS - 2) {
    chunks.push({ type: 'text-start', id: 'tail' });
    while (chunks.length < CHUNKS - 3) chunks.push({ type: 'text-delta', id: 'tail', delta: 'more ' });
    chunks.push({ type: 'text-end', id: 'tail' });
  }
  chunks.push({ type: 'finish-step' }, { type: 'finish', messageMetadata: { threadId: 'thread-bench' } });
  const sse = chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n';
  return { bytes: new TextEncoder().encode(sse), chunks: chunks.length };
}

/** Network-sized pieces: 1–16 KB, the same for every candidate. */
export function piecesOf(bytes: Uint8Array): Uint8Array[] {
  const rnd = seeded(11);
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length;) {
    const n = 1024 + Math.floor(rnd() * 15 * 1024);
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}

function streamOf(pieces: Uint8Array[], onPiece?: () => void): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      onPiece?.();
      if (i < pieces.length) controller.enqueue(pieces[i++]!);
      else controller.close();
    },
  });
}

async function ours(pieces: Uint8Array[], onPiece?: () => void): Promise<AssembledMessage> {
  if (!onPiece) return assembleFromBytes(pieces, 'sse').message;
  // Piece by piece, as the client gets them from the network, so memory can be sampled between.
  const decoder = createDecoder('sse');
  const message = createEmptyMessage();
  for (const p of pieces) {
    onPiece();
    for (const item of decoder.push(p)) if (item.kind !== 'done') applyStreamItem(message, item);
    await new Promise((r) => setImmediate(r));
  }
  onPiece();
  return message;
}

async function sdk(pieces: Uint8Array[], onPiece?: () => void): Promise<UIMessage> {
  const chunks = parseJsonEventStream({ stream: streamOf(pieces, onPiece), schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream<{ success: boolean; value?: unknown }, SdkChunk>({
      transform(r, c) {
        if (r.success) c.enqueue(r.value as SdkChunk);
      },
    }),
  );
  let last: UIMessage | undefined;
  for await (const m of readUIMessageStream({ stream: chunks })) last = m;
  onPiece?.();
  return last!;
}

async function floor(pieces: Uint8Array[]): Promise<number> {
  let n = 0;
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent(e) {
      if (e.data !== '[DONE]') {
        JSON.parse(e.data);
        n++;
      }
    },
  });
  for (const p of pieces) parser.feed(decoder.decode(p, { stream: true }));
  return n;
}

function comparable(texts: string[], sources: { url?: string }[], tools: unknown[]) {
  return { texts, sources: sources.map((s) => s.url), tools };
}

async function timeRuns(fn: () => Promise<unknown>, runs: number): Promise<number> {
  for (let i = 0; i < 3; i++) await fn(); // warm up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

/**
 * Peak live heap above the start while a pipeline runs: after each network piece, a full GC and a
 * reading, so what counts is what the pipeline holds (buffers, the message, its own state), not
 * how much short-lived garbage happened to sit in the young generation at one moment.
 */
async function peakLiveHeap(run: (onPiece: () => void) => Promise<unknown>): Promise<number> {
  fullGc();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  await run(() => {
    fullGc();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  });
  return peak - base;
}

export async function benchStream(): Promise<BenchResult> {
  const { bytes, chunks } = recordStream();
  const pieces = piecesOf(bytes);
  // Same result first: text by part, sources, tool results.
  const a = await ours(pieces);
  const b = await sdk(pieces);
  const oursCmp = comparable(
    a.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text),
    a.sources,
    a.parts.filter((p) => p.type === 'tool').map((p) => (p as { output?: unknown }).output),
  );
  const sdkParts = b.parts as unknown as Record<string, unknown>[];
  const sdkCmp = comparable(
    sdkParts.filter((p) => p.type === 'text').map((p) => p.text as string),
    sdkParts.filter((p) => p.type === 'source-url') as { url?: string }[],
    sdkParts.filter((p) => typeof p.type === 'string' && (p.type as string).startsWith('tool-')).map((p) => p.output),
  );
  assert.deepEqual(oursCmp, sdkCmp, 'our assembled message differs from the SDK’s');
  assert.equal(a.threadId, 'thread-bench');
  assert.equal(await floor(pieces), chunks);

  // Ours and the floor alternate, round by round, so that neither gets the quieter moments of a
  // busy machine; medians of 40 rounds. The SDK is 20–60× slower: 8 runs.
  const oursTimes: number[] = [];
  const floorTimes: number[] = [];
  for (let i = 0; i < 5; i++) await Promise.all([ours(pieces), floor(pieces)]);
  for (let i = 0; i < 40; i++) {
    let t = performance.now();
    await ours(pieces);
    oursTimes.push(performance.now() - t);
    t = performance.now();
    await floor(pieces);
    floorTimes.push(performance.now() - t);
  }
  const tOurs = median(oursTimes);
  const tFloor = median(floorTimes);
  const tSdk = await timeRuns(() => sdk(pieces), 8);
  const memOurs = await peakLiveHeap((on) => ours(pieces, on));
  const memSdk = await peakLiveHeap((on) => sdk(pieces, on));
  const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
  const speedup = tSdk / tOurs;
  const vsFloor = tOurs / tFloor;
  return {
    name: 'Stream assembly (10,000 chunks)',
    rows: [
      ['input', `${chunks.toLocaleString()} chunks, ${(bytes.length / 1024).toFixed(0)} KB in ${pieces.length} pieces; results of ours and the SDK equal`],
      ['ours: SSE decoder + reducer', `${(bytes.length / 1e6 / (tOurs / 1000)).toFixed(0)} MB/s, peak live heap +${mb(memOurs)}`],
      ['AI SDK: parseJsonEventStream + readUIMessageStream', `${(bytes.length / 1e6 / (tSdk / 1000)).toFixed(1)} MB/s, peak live heap +${mb(memSdk)}`],
      ['floor: eventsource-parser + JSON.parse', `${(bytes.length / 1e6 / (tFloor / 1000)).toFixed(0)} MB/s`],
    ],
    budgets: [
      { what: 'ours vs the SDK (throughput)', value: `${speedup.toFixed(1)}×`, budget: '≥ 10×', met: speedup >= 10 },
      { what: 'ours vs the floor (time)', value: `${vsFloor.toFixed(2)}×`, budget: '≤ 1.5×', met: vsFloor <= 1.5 },
      { what: 'peak live heap, ours vs the SDK', value: `${mb(memOurs)} vs ${mb(memSdk)}`, budget: 'no higher', met: memOurs <= memSdk },
    ],
    raw: {
      chunks,
      bytes: bytes.length,
      pieces: pieces.length,
      msOurs: tOurs,
      msSdk: tSdk,
      msFloor: tFloor,
      heapOurs: memOurs,
      heapSdk: memSdk,
      speedupVsSdk: speedup,
      ratioVsFloor: vsFloor,
    },
  };
}
