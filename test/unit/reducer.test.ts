import * as assert from 'node:assert/strict';
import {
  assembleFromBytes,
  classifyChunk,
  cloneMessage,
  createEmptyMessage,
  createSseDecoder,
  messageText,
  parseChunk,
  reduceChunk,
  type AssembledMessage,
  type AssembledToolCall,
  type UIMessageChunk,
} from '../../src/api';
import { SSE_FIXTURES, expectedTexts, loadFixture } from '../fixtures/streams';

function reduceAll(chunks: UIMessageChunk[]): AssembledMessage {
  return chunks.reduce(reduceChunk, createEmptyMessage());
}

const enc = new TextEncoder();
const dec = new TextDecoder();

describe('parseChunk', () => {
  it('accepts every chunk type of the UI message stream and keeps only the fields it uses', () => {
    const samples: unknown[] = [
      { type: 'start', messageId: 'm', messageMetadata: { a: 1 } },
      { type: 'start-step' },
      { type: 'finish-step' },
      { type: 'text-start', id: 't', providerMetadata: { x: 1 } },
      { type: 'text-delta', id: 't', delta: 'hi' },
      { type: 'text-end', id: 't' },
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'why' },
      { type: 'reasoning-end', id: 'r' },
      { type: 'tool-input-start', toolCallId: 'c', toolName: 'search' },
      { type: 'tool-input-delta', toolCallId: 'c', inputTextDelta: '{' },
      { type: 'tool-input-available', toolCallId: 'c', toolName: 'search', input: { q: 1 } },
      { type: 'tool-input-error', toolCallId: 'c', toolName: 'search', input: null, errorText: 'bad' },
      { type: 'tool-output-available', toolCallId: 'c', output: [1] },
      { type: 'tool-output-error', toolCallId: 'c', errorText: 'boom' },
      { type: 'source-url', sourceId: 's', url: 'https://x', title: 'X' },
      { type: 'source-document', sourceId: 'd', mediaType: 'text/plain', title: 'D', filename: 'd.txt' },
      { type: 'file', url: 'https://x/f.png', mediaType: 'image/png' },
      { type: 'data-weather', id: 'w', data: { t: 20 }, transient: false },
      { type: 'error', errorText: 'oops' },
      { type: 'abort', reason: 'user' },
      { type: 'message-metadata', messageMetadata: { threadId: 't1' } },
      { type: 'finish', finishReason: 'stop', messageMetadata: {}, threadId: 'thr' },
    ];
    for (const s of samples) {
      const c = parseChunk(s);
      assert.ok(c, `rejected ${JSON.stringify(s)}`);
      assert.equal(c.type, (s as { type: string }).type);
    }
    assert.deepEqual(parseChunk({ type: 'text-start', id: 't', providerMetadata: { x: 1 } }), { type: 'text-start', id: 't' });
    assert.deepEqual(parseChunk({ type: 'source-url', sourceId: 's', url: 'u' }), { type: 'source-url', sourceId: 's', url: 'u' });
  });

  it('returns undefined for unknown types and for known types with bad fields, saying which', () => {
    assert.equal(parseChunk({ type: 'tool-approval-request', approvalId: 'a' }), undefined);
    assert.deepEqual(classifyChunk({ type: 'x-new' }), { reason: 'unknown-type', detail: 'a chunk of unknown type "x-new"' });
    for (const bad of [
      null,
      42,
      'text',
      [],
      {},
      { type: 7 },
      { type: 'text-delta', id: 't' },
      { type: 'text-delta', id: 't', delta: 3 },
      { type: 'source-url', sourceId: 's' },
      { type: 'data-x', id: 3, data: 1 },
      { type: 'data-', data: 1 },
    ]) {
      assert.equal(parseChunk(bad), undefined, JSON.stringify(bad));
    }
    const r = classifyChunk({ type: 'text-delta', id: 't' });
    assert.ok('reason' in r && r.reason === 'malformed');
  });
});

describe('reduceChunk', () => {
  it('assembles text, reasoning, tools, sources, files, data and metadata like the SDK', () => {
    const m = reduceAll([
      { type: 'start', messageId: 'm1', messageMetadata: { a: { x: 1 } } },
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'think' },
      { type: 'reasoning-end', id: 'r' },
      { type: 'tool-input-start', toolCallId: 'c', toolName: 'search' },
      { type: 'tool-input-delta', toolCallId: 'c', inputTextDelta: '{"q":' },
      { type: 'tool-input-delta', toolCallId: 'c', inputTextDelta: '"x"}' },
      { type: 'tool-input-available', toolCallId: 'c', toolName: 'search', input: { q: 'x' } },
      { type: 'tool-output-available', toolCallId: 'c', output: { hits: 2 } },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hello ' },
      { type: 'text-delta', id: 't', delta: 'world' },
      { type: 'text-end', id: 't' },
      { type: 'source-url', sourceId: 's', url: 'https://d/x', title: 'X' },
      { type: 'file', url: 'https://d/i.png', mediaType: 'image/png' },
      { type: 'data-status', id: 'st', data: 1 },
      { type: 'data-status', id: 'st', data: 2 },
      { type: 'data-progress', data: 50, transient: true },
      { type: 'message-metadata', messageMetadata: { a: { y: 2 } } },
      { type: 'finish', finishReason: 'stop' },
    ]);
    assert.equal(m.messageId, 'm1');
    assert.deepEqual(m.parts, [
      { type: 'reasoning', id: 'r', text: 'think', done: true },
      { type: 'tool', toolCallId: 'c', toolName: 'search', state: 'output-available', inputText: '{"q":"x"}', input: { q: 'x' }, output: { hits: 2 } },
      { type: 'text', id: 't', text: 'Hello world', done: true },
    ]);
    assert.deepEqual(m.sources, [{ sourceId: 's', kind: 'url', url: 'https://d/x', title: 'X' }]);
    assert.deepEqual(m.files, [{ url: 'https://d/i.png', mediaType: 'image/png' }]);
    assert.deepEqual(m.data, [{ type: 'data-status', id: 'st', data: 2 }], 'same id replaces; transient is not kept');
    assert.deepEqual(m.metadata, { a: { x: 1, y: 2 } }, 'metadata is deep-merged');
    assert.equal(m.finished, true);
    assert.equal(m.finishReason, 'stop');
  });

  it('keeps interleaved text parts apart by id, in the order they started', () => {
    const m = reduceAll([
      { type: 'text-start', id: 'a' },
      { type: 'text-start', id: 'b' },
      { type: 'text-delta', id: 'b', delta: 'B1' },
      { type: 'text-delta', id: 'a', delta: 'A1' },
      { type: 'text-delta', id: 'b', delta: 'B2' },
      { type: 'text-end', id: 'a' },
      { type: 'text-delta', id: 'b', delta: 'B3' },
      { type: 'text-end', id: 'b' },
    ]);
    assert.deepEqual(
      m.parts.map((p) => (p.type === 'text' ? [p.id, p.text, p.done] : p.type)),
      [
        ['a', 'A1', true],
        ['b', 'B1B2B3', true],
      ],
    );
    assert.equal(messageText(m), 'A1B1B2B3');
  });

  it('starts a new part when an id is reused after it ended (a second step)', () => {
    const m = reduceAll([
      { type: 'text-start', id: '0' },
      { type: 'text-delta', id: '0', delta: 'first' },
      { type: 'text-end', id: '0' },
      { type: 'text-start', id: '0' },
      { type: 'text-delta', id: '0', delta: 'second' },
      { type: 'text-end', id: '0' },
    ]);
    assert.deepEqual(
      m.parts.map((p) => (p.type === 'text' ? p.text : '')),
      ['first', 'second'],
    );
  });

  it('never drops text that arrives out of order (delta before start, delta after end)', () => {
    const m = reduceAll([
      { type: 'text-delta', id: 'x', delta: 'orphan ' },
      { type: 'text-end', id: 'x' },
      { type: 'text-delta', id: 'x', delta: 'late' },
      { type: 'text-end', id: 'nope' },
    ]);
    assert.equal(messageText(m), 'orphan late');
  });

  it('creates tool calls it did not see start, and records tool errors', () => {
    const m = reduceAll([
      { type: 'tool-output-available', toolCallId: 'ghost', output: 1 },
      { type: 'tool-input-error', toolCallId: 'e1', toolName: 'fetch', input: { p: 1 }, errorText: 'bad input' },
      { type: 'tool-input-available', toolCallId: 'e2', toolName: 'fetch', input: {} },
      { type: 'tool-output-error', toolCallId: 'e2', errorText: 'not found' },
    ]);
    const tools = m.parts as AssembledToolCall[];
    assert.deepEqual(
      tools.map((t) => [t.toolCallId, t.toolName, t.state, t.errorText]),
      [
        ['ghost', 'unknown', 'output-available', undefined],
        ['e1', 'fetch', 'input-error', 'bad input'],
        ['e2', 'fetch', 'output-error', 'not found'],
      ],
    );
  });

  it('takes the thread from metadata and finish; the last one wins', () => {
    let m = reduceAll([{ type: 'start', messageMetadata: { threadId: 'a' } }]);
    assert.equal(m.threadId, 'a');
    m = reduceChunk(m, { type: 'message-metadata', messageMetadata: { threadId: 'b', threadKey: 'k1' } });
    assert.equal(m.threadId, 'b');
    assert.equal(m.threadKey, 'k1');
    m = reduceChunk(m, { type: 'finish', messageMetadata: { threadId: 'c' } });
    assert.equal(m.threadId, 'c');
    m = reduceChunk(m, { type: 'finish', threadId: 'd', messageMetadata: { threadId: 'c2' } });
    assert.equal(m.threadId, 'd', 'finish.threadId is applied after finish.messageMetadata');
    m = reduceChunk(m, { type: 'message-metadata', messageMetadata: { other: 1 } });
    assert.equal(m.threadId, 'd', 'metadata without a thread keeps it');
  });

  it('records error and abort chunks without ending anything else', () => {
    const m = reduceAll([
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'partial' },
      { type: 'error', errorText: 'overloaded' },
      { type: 'abort', reason: 'upstream' },
    ]);
    assert.deepEqual(m.errors, ['overloaded']);
    assert.equal(m.aborted, true);
    assert.equal(m.abortReason, 'upstream');
    assert.equal(messageText(m), 'partial');
    assert.equal(m.finished, false);
  });

  it('mutates and returns the same message (documented), and cloneMessage gives an independent snapshot', () => {
    const m = createEmptyMessage();
    const same = reduceChunk(m, { type: 'text-start', id: 't' });
    assert.equal(same, m);
    const snap = cloneMessage(m);
    reduceChunk(m, { type: 'text-delta', id: 't', delta: 'more' });
    assert.equal(messageText(snap), '');
    assert.equal(messageText(m), 'more');
  });

  it('gives identical results for identical chunk sequences (no hidden state between messages)', () => {
    const chunks: UIMessageChunk[] = [
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'a' },
      { type: 'tool-input-available', toolCallId: 'c', toolName: 'n', input: 1 },
      { type: 'data-x', id: '1', data: 1 },
      { type: 'finish', threadId: 'z' },
    ];
    assert.deepEqual(reduceAll(chunks), reduceAll(chunks));
  });

  it('stays linear: 10,000 deltas (and 10,000 mixed chunks) reduce in well under a second', () => {
    let t0 = performance.now();
    let m = createEmptyMessage();
    reduceChunk(m, { type: 'text-start', id: 't' });
    for (let i = 0; i < 10_000; i++) reduceChunk(m, { type: 'text-delta', id: 't', delta: `word${i} ` });
    const textMs = performance.now() - t0;
    assert.equal((m.parts[0] as { text: string }).text.split(' ').length, 10_001);

    t0 = performance.now();
    m = createEmptyMessage();
    for (let i = 0; i < 10_000; i++) {
      const k = i % 5;
      if (k === 0) reduceChunk(m, { type: 'text-start', id: `t${i}` });
      else if (k === 1) reduceChunk(m, { type: 'text-delta', id: `t${i - 1}`, delta: 'x' });
      else if (k === 2) reduceChunk(m, { type: 'source-url', sourceId: `s${i}`, url: 'u' });
      else if (k === 3) reduceChunk(m, { type: 'tool-input-available', toolCallId: `c${i}`, toolName: 'n', input: i });
      else reduceChunk(m, { type: 'tool-output-available', toolCallId: `c${i - 1}`, output: i });
    }
    const mixedMs = performance.now() - t0;
    assert.ok(textMs < 500 && mixedMs < 500, `text ${textMs.toFixed(1)} ms, mixed ${mixedMs.toFixed(1)} ms`);
  });
});

describe('SSE decoding + reduce on the recordings', () => {
  for (const { name } of SSE_FIXTURES) {
    it(`${name}: text parts are exactly what the recording holds`, () => {
      const bytes = loadFixture(name);
      const { message, done } = assembleFromBytes([bytes], 'sse');
      assert.equal(done, true);
      assert.deepEqual(
        message.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text),
        expectedTexts(dec.decode(bytes)),
      );
    });
  }

  it('search-answer.sse: tool output, sources and the thread from finish metadata', () => {
    const { message } = assembleFromBytes([loadFixture('search-answer.sse')], 'sse');
    assert.equal(message.messageId, 'msg_7Qd2hX');
    assert.equal(message.threadId, 'thr_01HZX3K9');
    assert.equal(message.finished, true);
    assert.deepEqual(
      message.sources.map((s) => s.url),
      ['https://docs.example.com/guides/webhooks', 'https://docs.example.com/reference/retries'],
    );
    const tool = message.parts[0] as AssembledToolCall;
    assert.equal(tool.state, 'output-available');
    assert.equal(tool.inputText, '{"query":"configure webhooks retries"}');
    assert.match(messageText(message), /🚀[\s\S]*日本語[\s\S]*👩‍💻/u);
  });

  it('interleaved.sse: reasoning, data updates, merged metadata, finish.threadId wins', () => {
    const { message } = assembleFromBytes([loadFixture('interleaved.sse')], 'sse');
    assert.equal(message.threadId, 'thr_final_42');
    assert.deepEqual(message.data, [
      { type: 'data-status', id: 'st', data: { phase: 'done' } },
      { type: 'data-citation', data: { n: 1, page: '/limits' } },
    ]);
    assert.deepEqual(message.metadata, { createdAt: 1732350000000, tags: ['b'], threadId: 'thr_from_metadata', nested: { x: 1, y: 2 } });
    assert.equal(message.parts[0]!.type, 'reasoning');
    assert.deepEqual(message.sources, [{ sourceId: 'doc-9', kind: 'document', title: 'Limits', mediaType: 'text/markdown', filename: 'limits.md' }]);
    assert.equal(message.files.length, 1);
  });

  it('error-abort.sse: error recorded, abort flagged, text kept', () => {
    const { message } = assembleFromBytes([loadFixture('error-abort.sse')], 'sse');
    assert.deepEqual(message.errors, ['Upstream model overloaded; answer truncated.']);
    assert.equal(message.aborted, true);
    assert.equal(message.abortReason, 'upstream-error');
    assert.match(messageText(message), /^The deployment guide/);
  });

  it('skips.sse: unknown and malformed chunks are counted and skipped; the answer survives', () => {
    const decoder = createSseDecoder();
    const items = [...decoder.push(loadFixture('skips.sse')), ...decoder.end()];
    const skips = items.filter((i) => i.kind === 'skip');
    assert.deepEqual(
      skips.map((s) => (s.kind === 'skip' ? s.reason : '')),
      ['unknown-type', 'malformed', 'malformed', 'unknown-type', 'malformed'],
    );
    const { message } = assembleFromBytes([loadFixture('skips.sse')], 'sse');
    assert.equal(message.skippedChunks, 5);
    assert.equal(messageText(message), 'Still here: the answer survives skipped chunks.');
    assert.equal(message.threadId, 'thr_skips');
  });

  it('ignores everything after [DONE], and treats a last event without its blank line as complete', () => {
    const after = enc.encode(
      'data: {"type":"text-start","id":"a"}\n\ndata: {"type":"text-delta","id":"a","delta":"x"}\n\ndata: [DONE]\n\ndata: {"type":"text-delta","id":"a","delta":"AFTER"}\n\n',
    );
    assert.equal(messageText(assembleFromBytes([after], 'sse').message), 'x');
    const unterminated = enc.encode('data: {"type":"text-start","id":"a"}\n\ndata: {"type":"text-delta","id":"a","delta":"end"}\n');
    const r = assembleFromBytes([unterminated], 'sse');
    assert.equal(r.done, false);
    assert.equal(messageText(r.message), 'end');
  });

  it('reports a truncated last event as malformed instead of inventing text', () => {
    const cut = enc.encode('data: {"type":"text-start","id":"a"}\n\ndata: {"type":"text-delta","id":"a","del');
    const r = assembleFromBytes([cut], 'sse');
    assert.equal(r.message.skippedChunks, 1);
    assert.equal(messageText(r.message), '');
  });

  it('skips a 5 MB delta in one event, split into 64 KB reads, in linear time, and reads on after it', () => {
    // Past the 1 MB line cap (issue 16): reported once, never buffered whole.
    const big = 'é'.repeat(2_500_000);
    const bytes = enc.encode(
      `data: {"type":"text-start","id":"h"}\n\ndata: ${JSON.stringify({ type: 'text-delta', id: 'h', delta: big })}\n\ndata: {"type":"text-delta","id":"h","delta":"after"}\n\ndata: [DONE]\n\n`,
    );
    const pieces: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 65_536) pieces.push(bytes.subarray(i, i + 65_536));
    const t0 = performance.now();
    const { message, done } = assembleFromBytes(pieces, 'sse');
    const ms = performance.now() - t0;
    assert.equal(messageText(message), 'after');
    assert.equal(message.skippedChunks, 1);
    assert.equal(done, true);
    assert.ok(ms < 2000, `${ms.toFixed(0)} ms`);
  });
});
