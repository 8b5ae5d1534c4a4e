import type { OutgoingHttpHeaders } from 'node:http';
import type { UIMessageChunk } from '../../src/api/types';
import type { Answer } from './compose';
import { Exchange, ExchangeGone } from './exchange';
import type { StreamFault } from './faults';
import type { RecordedRequest } from './config';

// The answer on the wire, in both protocols: v2 is the AI SDK v5 UI message stream over SSE,
// v1 the AI SDK v4 data stream protocol. A fault is a different script of the same frames, so
// each fault is written once for both protocols.

export interface AnswerPlan {
  messageId: string;
  toolCallId: string;
  textId: string;
  threadId: string;
  /** What the search tool was called with. */
  query: string;
  answer: Answer;
  deltas: string[];
}

/** One write, or how the stream stops early. */
type Step = { write: string } | { hold: true } | { drop: true };

interface Encoder {
  headers: OutgoingHttpHeaders;
  /** Frames before the first text delta. */
  open(plan: AnswerPlan): string[];
  delta(plan: AnswerPlan, text: string): string;
  /** Frames after the last text delta, through the finish. */
  close(plan: AnswerPlan, finishReason: 'stop' | 'error' | 'other'): string[];
  done: string[];
  malformed: string;
  /** Frames of types this client version cannot know. */
  unknown(n: number): string;
  progress(plan: AnswerPlan, percent: number): string;
  error(message: string): string[];
  abort(plan: AnswerPlan, reason: string): string[];
  source(sourceId: string, url: string, title?: string): string;
  /** A finished search tool call whose results are `results`. */
  toolCall(toolCallId: string, query: string, results: { url: string; title: string }[]): string[];
  /** The start of a text delta whose text never ends: no closing quote, no line break. */
  openDelta(plan: AnswerPlan): string;
}

// ---------------------------------------------------------------------------
// v2: UI message stream

/** Unknown chunk types are not `UIMessageChunk`s by definition, hence the wider parameter. */
const sse = (chunk: UIMessageChunk | { type: string; [k: string]: unknown }): string => `data: ${JSON.stringify(chunk)}\n\n`;

const v2: Encoder = {
  headers: {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-vercel-ai-ui-message-stream': 'v1',
    'x-accel-buffering': 'no',
  },
  open: (plan) => [
    sse({ type: 'start', messageId: plan.messageId }),
    sse({ type: 'start-step' }),
    sse({ type: 'tool-input-start', toolCallId: plan.toolCallId, toolName: 'searchDocs' }),
    sse({ type: 'tool-input-available', toolCallId: plan.toolCallId, toolName: 'searchDocs', input: { query: plan.query } }),
    sse({ type: 'tool-output-available', toolCallId: plan.toolCallId, output: { results: plan.answer.results } }),
    sse({ type: 'finish-step' }),
    sse({ type: 'start-step' }),
    ...plan.answer.sources.map((s) => v2.source(s.sourceId, s.url, s.title)),
    sse({ type: 'text-start', id: plan.textId }),
  ],
  delta: (plan, text) => sse({ type: 'text-delta', id: plan.textId, delta: text }),
  close: (plan, finishReason) => [
    sse({ type: 'text-end', id: plan.textId }),
    sse({ type: 'finish-step' }),
    sse({ type: 'finish', finishReason, messageMetadata: { threadId: plan.threadId }, threadId: plan.threadId }),
  ],
  done: ['data: [DONE]\n\n'],
  malformed: 'data: {not json\n\n',
  unknown: (n) =>
    n % 2 === 0
      ? sse({ type: 'x-future-thing', payload: { note: 'a chunk type from a newer protocol version' } })
      : sse({ type: 'x-citation-highlight', range: [0, 12], level: n }),
  progress: (plan, percent) => sse({ type: 'data-progress', id: `progress-${plan.messageId}`, data: { stage: 'writing', percent } }),
  error: (message) => [sse({ type: 'error', errorText: message })],
  abort: (_plan, reason) => [sse({ type: 'abort', reason })],
  source: (sourceId, url, title) => sse(title === undefined ? { type: 'source-url', sourceId, url } : { type: 'source-url', sourceId, url, title }),
  toolCall: (toolCallId, query, results) => [
    sse({ type: 'tool-input-available', toolCallId, toolName: 'searchDocs', input: { query } }),
    sse({ type: 'tool-output-available', toolCallId, output: { results } }),
  ],
  openDelta: (plan) => `data: {"type":"text-delta","id":${JSON.stringify(plan.textId)},"delta":"`,
};

// ---------------------------------------------------------------------------
// v1: data stream protocol, one `CODE:JSON` line per part

const line = (code: string, value: unknown): string => `${code}:${JSON.stringify(value)}\n`;

function usage(plan: AnswerPlan): { promptTokens: number; completionTokens: number } {
  // Words, not tokens: there is no model, and the numbers are only there because v4 sends them.
  return { promptTokens: plan.query.split(/\s+/).filter(Boolean).length, completionTokens: plan.answer.markdown.split(/\s+/).length };
}

const v1: Encoder = {
  headers: {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-cache',
    'x-vercel-ai-data-stream': 'v1',
    'x-accel-buffering': 'no',
  },
  open: (plan) => [
    line('f', { messageId: plan.messageId }),
    // Early, so that a stream that breaks off still names its thread.
    line('8', [{ threadId: plan.threadId }]),
    line('9', { toolCallId: plan.toolCallId, toolName: 'searchDocs', args: { query: plan.query } }),
    line('a', { toolCallId: plan.toolCallId, result: { results: plan.answer.results } }),
    line('e', { finishReason: 'tool-calls', usage: { promptTokens: 0, completionTokens: 0 }, isContinued: false }),
    line('f', { messageId: plan.messageId }),
    ...plan.answer.sources.map((s) => v1.source(s.sourceId, s.url, s.title)),
  ],
  delta: (_plan, text) => line('0', text),
  close: (plan, finishReason) => [line('e', { finishReason, usage: usage(plan), isContinued: false }), line('d', { finishReason, usage: usage(plan) })],
  // v1 has no end marker beyond the `d` line.
  done: [],
  malformed: '0:{not json\n',
  unknown: (n) => line(n % 2 === 0 ? 'z' : 'y', { note: 'a part code from a newer protocol version' }),
  progress: (_plan, percent) => line('2', [{ progress: { stage: 'writing', percent } }]),
  error: (message) => [line('3', message)],
  // v4 has no abort part: the stream ends early, with the finish reason "other".
  abort: (plan) => [line('d', { finishReason: 'other', usage: usage(plan) })],
  source: (id, url, title) => line('h', title === undefined ? { sourceType: 'url', id, url } : { sourceType: 'url', id, url, title }),
  toolCall: (toolCallId, query, results) => [
    line('9', { toolCallId, toolName: 'searchDocs', args: { query } }),
    line('a', { toolCallId, result: { results } }),
  ],
  openDelta: () => '0:"',
};

// ---------------------------------------------------------------------------
// Scripts

/** Text deltas sent before a mid-stream fault strikes. */
const DELTAS_BEFORE_FAULT = 3;
const HUGE_DELTA_BYTES = 5 * 1024 * 1024;
/** One write of the line that never ends. */
const HUGE_LINE_PIECE = 'x'.repeat(64 * 1024);

/** Links a service must never get into the chat's DOM; the titles are what the user may still see. */
export const HOSTILE_SOURCES: readonly { sourceId: string; url: string; title?: string }[] = [
  { sourceId: 'src-js', url: 'javascript:alert(document.domain)', title: 'Run me' },
  { sourceId: 'src-js-untitled', url: 'JaVaScRiPt:alert(2)' },
  { sourceId: 'src-data', url: 'data:text/html,<script>alert(1)</script>', title: 'A data page' },
  { sourceId: 'src-userinfo', url: 'https://docs.example.com@evil.example/login', title: 'The docs (not really)' },
  { sourceId: 'src-vscode', url: 'command:workbench.action.terminal.new', title: 'Open a terminal' },
];
export const HOSTILE_TOOL_RESULTS: readonly { url: string; title: string }[] = [
  { url: 'javascript:alert(3)', title: 'A search result that runs script' },
  { url: 'https://user:secret@docs.example.com/', title: 'A search result with a password' },
];

/** The steps of an answer: a list, or for the endless faults a generator that never runs dry. */
function script(enc: Encoder, plan: AnswerPlan, fault: StreamFault | undefined): Iterable<Step> {
  const w = (frames: string[]): Step[] => frames.map((write) => ({ write }));
  const open = enc.open(plan);
  const deltas = plan.deltas.map((d) => enc.delta(plan, d));
  const few = Math.min(DELTAS_BEFORE_FAULT, deltas.length);
  const whole = (middle: string[]): Step[] => w([...open, ...middle, ...enc.close(plan, 'stop'), ...enc.done]);
  switch (fault) {
    case 'stall-mid':
      return [...w([...open, ...deltas.slice(0, few)]), { hold: true }];
    case 'drop-mid':
      return [...w([...open, ...deltas.slice(0, few)]), { drop: true }];
    case 'malformed':
      return whole([...deltas.slice(0, 2), enc.malformed, ...deltas.slice(2)]);
    case 'unknown-chunks': {
      const half = Math.ceil(deltas.length / 2);
      return w([
        open[0]!,
        enc.unknown(0),
        ...open.slice(1),
        enc.progress(plan, 0),
        ...deltas.slice(0, half),
        enc.unknown(1),
        enc.progress(plan, 50),
        ...deltas.slice(half),
        enc.progress(plan, 100),
        ...enc.close(plan, 'stop'),
        ...enc.done,
      ]);
    }
    case 'error-chunk':
      return w([
        ...open,
        ...deltas.slice(0, few),
        ...enc.error('The search backend timed out while the answer was being written.'),
        ...enc.close(plan, 'error'),
        ...enc.done,
      ]);
    case 'abort-chunk':
      return w([...open, ...deltas.slice(0, few), ...enc.abort(plan, 'The answer was cancelled by the service.'), ...enc.done]);
    case 'no-done':
      return w([...open, ...deltas, ...enc.close(plan, 'stop')]);
    case 'huge-chunk': {
      const filler = 'Acme Relay delivers messages. ';
      const huge = `\n\n${filler.repeat(Math.ceil(HUGE_DELTA_BYTES / filler.length))}`;
      return whole([...deltas, enc.delta(plan, huge)]);
    }
    case 'endless':
      return endless(w(open), enc.delta(plan, `${plan.answer.markdown}\n\n`));
    case 'huge-line':
      return endless(w([...open, enc.openDelta(plan)]), HUGE_LINE_PIECE);
    case 'hostile-sources':
      return whole([
        ...HOSTILE_SOURCES.map((s) => enc.source(s.sourceId, s.url, s.title)),
        ...enc.toolCall(`${plan.toolCallId}-2`, plan.query, [...HOSTILE_TOOL_RESULTS]),
        ...deltas,
      ]);
    case 'slow':
    case undefined:
      return whole(deltas);
  }
}

/** `first`, then `again` forever: only the client going away ends it. */
function* endless(first: Step[], again: string): Generator<Step> {
  yield* first;
  for (;;) yield { write: again };
}

export interface StreamTiming {
  deltaDelayMs: number;
  slowDripMs: number;
}

/** A recorded answer request, with Date.now() when its stream's last text delta, and its last chunk, had been written. */
export type TimedRecord = RecordedRequest & { lastTextAt?: number; lastByteAt?: number };

/** Sends the answer; stops writing the moment the client goes away, leaving no timer behind. */
export async function streamAnswer(
  ex: Exchange,
  version: 'v1' | 'v2',
  plan: AnswerPlan,
  fault: StreamFault | undefined,
  extraHeaders: OutgoingHttpHeaders,
  timing: StreamTiming,
): Promise<void> {
  const enc = version === 'v2' ? v2 : v1;
  // An endless stream always pauses a little, so that it never keeps the emulator's event loop to itself.
  const pause = fault === 'slow' ? timing.slowDripMs : fault === 'endless' || fault === 'huge-line' ? Math.max(1, timing.deltaDelayMs) : timing.deltaDelayMs;
  ex.head(200, { ...enc.headers, ...extraHeaders });
  ex.res.flushHeaders();
  const firstText = plan.deltas.length ? enc.delta(plan, plan.deltas[0]!) : undefined;
  const lastText = plan.deltas.length ? enc.delta(plan, plan.deltas.at(-1)!) : undefined;
  try {
    let first = true;
    for (const step of script(enc, plan, fault)) {
      if ('hold' in step) return await ex.hold();
      if ('drop' in step) {
        await ex.flushed();
        return ex.drop();
      }
      if (!first) await ex.pause(pause);
      first = false;
      if (ex.record && ex.record.firstTextAt === undefined && step.write === firstText) ex.record.firstTextAt = Date.now();
      await ex.write(step.write);
      if (ex.record && step.write === lastText) (ex.record as TimedRecord).lastTextAt = Date.now();
    }
    // When the answer's last byte went out (test/e2e/stream-latency.e2e.ts times the final render from it).
    if (ex.record) (ex.record as TimedRecord).lastByteAt = Date.now();
    ex.res.end();
  } catch (e) {
    if (!(e instanceof ExchangeGone)) throw e;
  }
}
