import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  assembleFromBytes,
  createDecoder,
  applyStreamItem,
  createEmptyMessage,
  messageText,
  ServiceError,
  type AssembledMessage,
  type StreamFormat,
} from '../../src/api';

// Generated streams through the same pipeline the client runs per network read: the SSE decoder
// (or the v1 one) and the reducer (assembleFromBytes / createDecoder + applyStreamItem).
//
// Valid streams are built from a model: text (and reasoning) parts whose starts, deltas and ends
// are interleaved at random, tool calls, sources, data parts, unknown chunk types, known types with
// broken fields, lines the SSE format ignores (comments, `event:`, `id:`, `retry:`, unknown
// fields), events that are not JSON, multi-line `data:`, LF / CRLF / CR line ends, a BOM, and
// junk after [DONE]. The deltas are hard text: emoji, combining marks, lone surrogates, CR/LF,
// `data:` and `[DONE]` inside text. Every stream is cut into pieces at random byte offsets
// (inside UTF-8 sequences and between CR and LF included).
//
// Properties:
//   1. Nothing thrown but a ServiceError, whatever the bytes (random bytes, mutated and truncated
//      valid streams, both formats).
//   2. A valid stream assembles identically under any chunking.
//   3. The text of every valid part arrives exactly once: each part's text is the concatenation
//      of its deltas, in order; a truncated stream gives a prefix of it, never more.

const SEED = 7_20_2025;
const counts = { valid: 0, truncated: 0, hostile: 0, chunkings: 0, thrownServiceErrors: 0 };

// ---------------------------------------------------------------------------
// The model of a valid stream

interface PartPlan {
  kind: 'text' | 'reasoning';
  id: string;
  deltas: string[];
  /** A delta without its start still opens the part (the reducer keeps the text). */
  withStart: boolean;
  withEnd: boolean;
}

type Chunk = Record<string, unknown> & { type: string };
/** One event: a chunk, or an event whose data is not JSON (a skip), or an ignored line. */
type Event = { chunk: Chunk } | { notJson: string } | { ignored: string };

const hardText = fc.string({
  unit: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('a', 'b', ' ', 'ä', '語', '🙂', '👩‍💻', 'é', 'e\u0301', '\n', '\r', '\r\n', '\t', '"', '\\', '\u2028', '\u0000') },
    { weight: 2, arbitrary: fc.constantFrom('data: ', '[DONE]', 'event: x', ': comment', '\n\n', '{"type":"text-delta"}') },
    { weight: 1, arbitrary: fc.constantFrom('\ud800', '\udfff', '\ufeff') },
    { weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 3 }) },
  ),
  maxLength: 12,
});

const partPlan = (kind: 'text' | 'reasoning', id: string): fc.Arbitrary<PartPlan> =>
  fc.record({ deltas: fc.array(hardText, { minLength: 1, maxLength: 8 }), withStart: fc.boolean(), withEnd: fc.boolean() }).map((p) => ({ kind, id, ...p }));

const KNOWN_TYPES = ['text-delta', 'text-start', 'reasoning-delta', 'tool-input-start', 'source-url', 'finish', 'error', 'file'];

/** Chunks that must not change any text: unknown types, known types with broken fields. */
const noiseChunk: fc.Arbitrary<Chunk> = fc.oneof(
  fc.record({
    type: fc
      .string({ minLength: 1, maxLength: 12 })
      .filter((t) => !KNOWN_TYPES.includes(t) && !t.startsWith('data-') && !/^(start|finish|text|reasoning|tool|source|file|error|abort|message)/.test(t)),
    note: fc.jsonValue(),
  }),
  fc.record({ type: fc.constant('text-delta'), id: fc.integer(), delta: fc.string() }),
  fc.record({ type: fc.constant('text-delta'), id: fc.constant('t0') }),
  fc.record({ type: fc.constant('reasoning-delta'), delta: fc.string() }),
  fc.record({ type: fc.constant('source-url'), sourceId: fc.constant('s'), url: fc.integer() }),
  fc.record({ type: fc.constant('tool-input-delta'), toolCallId: fc.constant('c'), inputTextDelta: fc.integer() }),
);

/** Chunks that change the message but not the text parts. */
const sideChunk = (n: number): fc.Arbitrary<Chunk[]> =>
  fc.oneof(
    fc.constant<Chunk[]>([{ type: 'start-step' }]),
    fc.constant<Chunk[]>([{ type: 'finish-step' }]),
    fc
      .record({ url: fc.webUrl(), title: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }) })
      .map(({ url, title }) => [title === undefined ? { type: 'source-url', sourceId: `s${n}`, url } : { type: 'source-url', sourceId: `s${n}`, url, title }]),
    fc.record({ query: fc.string({ maxLength: 20 }) }).map(({ query }) => [
      { type: 'tool-input-start', toolCallId: `c${n}`, toolName: 'searchDocs' },
      { type: 'tool-input-delta', toolCallId: `c${n}`, inputTextDelta: JSON.stringify({ query }) },
      { type: 'tool-input-available', toolCallId: `c${n}`, toolName: 'searchDocs', input: { query } },
      { type: 'tool-output-available', toolCallId: `c${n}`, output: { results: [] } },
    ]),
    fc.record({ data: fc.jsonValue({ maxDepth: 2 }) }).map(({ data }) => [{ type: 'data-progress', id: `d${n}`, data }]),
    fc
      .record({ m: fc.dictionary(fc.constantFrom('a', 'b', 'threadId'), fc.string({ maxLength: 8 }), { maxKeys: 2 }) })
      .map(({ m }) => [{ type: 'message-metadata', messageMetadata: m }]),
  );

/** Lines the SSE format ignores, placed before an event's data. */
const ignoredLine = fc.oneof(
  fc.string({ maxLength: 20 }).map((s) => `:${s.replace(/[\r\n]/g, '')}`),
  fc.constantFrom(
    'event: message',
    'event: delta',
    'id: 42',
    'id:',
    'retry: 1000',
    'retry: soon',
    'foo: bar',
    'x-custom: 1',
    'dat: {"type":"text-delta"}',
    'DATA: nope',
  ),
);

interface StreamPlan {
  parts: PartPlan[];
  events: Event[];
  eol: '\n' | '\r\n' | '\r';
  bom: boolean;
  prettyJson: boolean;
  noSpace: boolean;
  done: boolean;
  afterDone: string;
}

/** Merges the parts' chunk sequences in the order `schedule` picks, keeping each part's own order. */
function interleave(sequences: Chunk[][], schedule: number[]): Chunk[] {
  const queues = sequences.map((s) => [...s]);
  const out: Chunk[] = [];
  let i = 0;
  for (;;) {
    const live = queues.filter((q) => q.length > 0);
    if (live.length === 0) return out;
    out.push(live[(schedule[i++ % Math.max(1, schedule.length)] ?? 0) % live.length]!.shift()!);
  }
}

function partChunks(p: PartPlan): Chunk[] {
  const out: Chunk[] = [];
  if (p.withStart) out.push({ type: `${p.kind}-start`, id: p.id });
  for (const delta of p.deltas) out.push({ type: `${p.kind}-delta`, id: p.id, delta });
  if (p.withEnd) out.push({ type: `${p.kind}-end`, id: p.id });
  return out;
}

const streamPlan: fc.Arbitrary<StreamPlan> = fc
  .record({
    textCount: fc.integer({ min: 1, max: 4 }),
    reasoningCount: fc.integer({ min: 0, max: 2 }),
    sides: fc.array(fc.nat(), { maxLength: 5 }),
    noise: fc.array(noiseChunk, { maxLength: 4 }),
    notJson: fc.array(
      fc
        .string({ maxLength: 20 })
        .map((s) => s.replace(/\r\n|\r|\n/g, ' '))
        .filter((s) => s.trim() !== '[DONE]' && !isJson(s)),
      { maxLength: 3 },
    ),
    ignored: fc.array(ignoredLine, { maxLength: 4 }),
    schedule: fc.array(fc.nat(), { minLength: 1, maxLength: 64 }),
    placement: fc.array(fc.nat(), { minLength: 1, maxLength: 16 }),
    eol: fc.constantFrom('\n' as const, '\r\n' as const, '\r' as const),
    bom: fc.boolean(),
    prettyJson: fc.boolean(),
    noSpace: fc.boolean(),
    done: fc.boolean(),
    afterDone: fc.oneof(fc.constant(''), fc.constant('data: {"type":"text-delta","id":"t0","delta":"AFTER DONE"}\n\n'), fc.string({ maxLength: 30 })),
  })
  .chain((r) =>
    fc
      .tuple(
        fc.tuple(...Array.from({ length: r.textCount }, (_, i) => partPlan('text', `t${i}`))),
        r.reasoningCount === 0
          ? fc.constant([] as PartPlan[])
          : fc.tuple(...Array.from({ length: r.reasoningCount }, (_, i) => partPlan('reasoning', `r${i}`))),
        r.sides.length === 0 ? fc.constant([] as Chunk[][]) : fc.tuple(...r.sides.map((_, i) => sideChunk(i))),
      )
      .map(([texts, reasonings, sides]) => {
        const parts = [...texts, ...reasonings];
        const merged = interleave([...parts.map(partChunks), ...sides], r.schedule);
        // Noise, non-JSON events and ignored lines go in at random places; none may change the text.
        const events: Event[] = [{ chunk: { type: 'start', messageId: 'm1' } }, ...merged.map((chunk) => ({ chunk }))];
        const extras: Event[] = [
          ...r.noise.map((chunk) => ({ chunk })),
          ...r.notJson.map((notJson) => ({ notJson })),
          ...r.ignored.map((ignored) => ({ ignored })),
        ];
        extras.forEach((e, i) => events.splice(1 + (r.placement[i % r.placement.length]! % events.length), 0, e));
        events.push({ chunk: { type: 'finish', finishReason: 'stop' } });
        return { parts, events, eol: r.eol, bom: r.bom, prettyJson: r.prettyJson, noSpace: r.noSpace, done: r.done, afterDone: r.afterDone };
      }),
  );

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

function encode(plan: StreamPlan): Uint8Array {
  const { eol } = plan;
  const prefix = plan.noSpace ? 'data:' : 'data: ';
  let out = plan.bom ? '\ufeff' : '';
  for (const e of plan.events) {
    if ('ignored' in e) out += `${e.ignored}${eol}`;
    else if ('notJson' in e) out += `${prefix}${e.notJson}${eol}${eol}`;
    else {
      // Pretty JSON spreads one chunk over several `data:` lines, which SSE joins with "\n".
      const json = plan.prettyJson ? JSON.stringify(e.chunk, null, 1) : JSON.stringify(e.chunk);
      out +=
        json
          .split('\n')
          .map((line) => `${prefix}${line}${eol}`)
          .join('') + eol;
    }
  }
  if (plan.done) out += `${prefix}[DONE]${eol}${eol}${plan.afterDone}`;
  return new TextEncoder().encode(out);
}

/** What each part's text must be, in the order the parts first appear. */
function expectedParts(plan: StreamPlan): { kind: string; text: string }[] {
  const order: string[] = [];
  for (const e of plan.events) {
    if (!('chunk' in e) || isNoise(e.chunk)) continue;
    const m = /^(text|reasoning)-(start|delta)$/.exec(e.chunk.type);
    if (m && typeof e.chunk.id === 'string' && !order.includes(`${m[1]}:${e.chunk.id}`)) order.push(`${m[1]}:${e.chunk.id}`);
  }
  return order.map((key) => {
    const p = plan.parts.find((q) => `${q.kind}:${q.id}` === key)!;
    return { kind: p.kind, text: p.deltas.join('') };
  });
}

function textParts(m: AssembledMessage): { kind: string; text: string }[] {
  return m.parts.flatMap((p) => (p.type === 'text' || p.type === 'reasoning' ? [{ kind: p.type, text: p.text }] : []));
}

// ---------------------------------------------------------------------------
// Chunking

function splitAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const p of points) {
    if (p > from) out.push(bytes.subarray(from, p));
    from = Math.max(from, p);
  }
  if (from < bytes.length) out.push(bytes.subarray(from));
  return out;
}

/** Cut points: a few, many, or every byte. */
const cuts = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.nat(), { minLength: 1, maxLength: 8 }) },
  { weight: 3, arbitrary: fc.array(fc.nat(), { minLength: 20, maxLength: 300 }) },
  { weight: 1, arbitrary: fc.constant('every-byte' as const) },
);

const fewCuts = fc.array(fc.nat(), { minLength: 1, maxLength: 8 });

function chunked(bytes: Uint8Array, c: number[] | 'every-byte'): Uint8Array[] {
  counts.chunkings++;
  return c === 'every-byte' ? Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1)) : splitAt(bytes, c);
}

/** Runs the pipeline; a ServiceError is an allowed outcome (counted), anything else fails. */
function assembleSafely(pieces: Uint8Array[], format: StreamFormat): AssembledMessage | undefined {
  try {
    const { message } = assembleFromBytes(pieces, format);
    // The result is plain data a view can use.
    assert.equal(typeof messageText(message), 'string');
    structuredClone(message);
    return message;
  } catch (e) {
    if (e instanceof ServiceError) {
      counts.thrownServiceErrors++;
      return undefined;
    }
    throw e;
  }
}

describe('fuzz: SSE decoder + reducer on generated streams', function () {
  this.timeout(60_000);

  after(() => {
    const streams = counts.valid + counts.truncated + counts.hostile;
    console.log(
      `      (${streams} generated streams: ${counts.valid} valid, ${counts.truncated} truncated, ${counts.hostile} hostile; ${counts.chunkings} random chunkings; ${counts.thrownServiceErrors} ServiceErrors, 0 other throws)`,
    );
  });

  it('valid streams (interleaved parts, unknown chunks, garbage lines): identical under any chunking, every part text exactly once', () => {
    fc.assert(
      fc.property(streamPlan, cuts, fewCuts, (plan, c1, c2) => {
        counts.valid++;
        const bytes = encode(plan);
        const whole = assembleSafely([bytes], 'sse');
        assert.ok(whole, 'a valid stream assembles');
        // Property 3: each part's text is exactly its deltas, in the order the parts began.
        assert.deepEqual(textParts(whole), expectedParts(plan));
        assert.equal(whole.finished, true);
        assert.equal(whole.skippedChunks, plan.events.filter((e) => 'notJson' in e || ('chunk' in e && isNoise(e.chunk))).length);
        // Property 2: the same message, however the bytes were cut.
        const pieces = chunked(bytes, c1);
        assert.deepEqual(assembleSafely(pieces, 'sse'), whole);
        assert.deepEqual(assembleSafely(chunked(bytes, c2), 'sse'), whole);
        // And piece by piece through the decoder, as the client reads, without assembleFromBytes.
        assert.deepEqual(byDecoder(pieces), whole);
      }),
      { numRuns: 3000, seed: SEED },
    );
  });

  it('truncated valid streams: no throw, each part a prefix of its text, the same under any chunking', () => {
    fc.assert(
      fc.property(streamPlan, fc.double({ min: 0, max: 1, noNaN: true }), cuts, (plan, where, c) => {
        counts.truncated++;
        const full = encode(plan);
        const bytes = full.subarray(0, Math.floor(full.length * where));
        const whole = assembleSafely([bytes], 'sse');
        if (!whole) return;
        const expected = expectedParts(plan);
        const got = textParts(whole);
        assert.ok(got.length <= expected.length, 'no part that was not sent');
        got.forEach((p, i) => {
          assert.equal(p.kind, expected[i]!.kind);
          assert.ok(expected[i]!.text.startsWith(p.text), `part ${i} is a prefix of what was sent`);
        });
        assert.deepEqual(assembleSafely(chunked(bytes, c), 'sse'), whole);
      }),
      { numRuns: 3000, seed: SEED + 1 },
    );
  });

  it('hostile bytes (random bytes, mutated valid streams, both formats): never throws anything but a ServiceError', () => {
    const mutated = fc
      .tuple(
        streamPlan,
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('flip', 'insert', 'delete')), { minLength: 1, maxLength: 20 }),
      )
      .map(([plan, edits]) => {
        const bytes = [...encode(plan)];
        for (const [at, value, op] of edits) {
          const i = at % (bytes.length + 1);
          if (op === 'insert') bytes.splice(i, 0, value);
          else if (op === 'delete') bytes.splice(i, 1);
          else if (i < bytes.length) bytes[i] = value;
        }
        return Uint8Array.from(bytes);
      });
    const lines = fc
      .array(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 40 }),
          fc.jsonValue().map((v) => `data: ${JSON.stringify(v)}`),
          fc.constantFrom(
            'data: [DONE]',
            'data:',
            ':',
            '',
            'data: {"type":"text-delta","id":"x","delta":"y"}',
            'data: {"type":"tool-output-available","toolCallId":"__proto__","output":1}',
            'data: {"type":"data-x","id":"constructor","data":{"__proto__":{"polluted":true}}}',
            '0:"v1 text"',
            '3:"v1 error"',
            'd:{"finishReason":"stop"}',
            'z:{}',
          ),
        ),
        { maxLength: 40 },
      )
      .chain((ls) => fc.constantFrom('\n', '\r\n', '\r').map((eol) => new TextEncoder().encode(ls.join(eol))));
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 2000 }), mutated, lines), fc.constantFrom<StreamFormat>('sse', 'v1'), cuts, (bytes, format, c) => {
        counts.hostile++;
        const whole = assembleSafely([bytes], format);
        assert.deepEqual(assembleSafely(chunked(bytes, c), format), whole, 'hostile bytes too assemble the same under any chunking');
        assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype was polluted');
      }),
      { numRuns: 4000, seed: SEED + 2 },
    );
  });

  it(`ran at least 10,000 generated streams`, () => {
    assert.ok(counts.valid + counts.truncated + counts.hostile >= 10_000, JSON.stringify(counts));
  });
});

function isNoise(chunk: Chunk): boolean {
  // Generated noise is exactly what the chunk classifier skips; everything else in a plan is valid.
  const known =
    /^(start|finish|start-step|finish-step|text-(start|delta|end)|reasoning-(start|delta|end)|tool-input-(start|delta|available)|tool-output-available|source-url|message-metadata|data-progress)$/;
  if (!known.test(chunk.type)) return true;
  if (chunk.type === 'text-delta' || chunk.type === 'reasoning-delta') return typeof chunk.id !== 'string' || typeof chunk.delta !== 'string';
  if (chunk.type === 'source-url') return typeof chunk.url !== 'string';
  if (chunk.type === 'tool-input-delta') return typeof chunk.inputTextDelta !== 'string';
  return false;
}

function byDecoder(pieces: Uint8Array[]): AssembledMessage {
  const decoder = createDecoder('sse');
  const message = createEmptyMessage();
  for (const items of [...pieces.map((p) => decoder.push(p)), decoder.end()]) {
    for (const item of items) {
      if (item.kind === 'done') return message;
      applyStreamItem(message, item);
    }
  }
  return message;
}
