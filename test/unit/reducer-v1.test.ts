import * as assert from 'node:assert/strict';
import { assembleFromBytes, createV1LineDecoder, messageText, type AssembledToolCall, type StreamItem, type UIMessageChunk } from '../../src/api';
import { loadFixture } from '../fixtures/streams';

// v1 answers (AI SDK v4 data stream protocol) mapped onto the v2 chunk types.

function chunksOf(lines: string[]): (UIMessageChunk | string)[] {
  const d = createV1LineDecoder();
  const items: StreamItem[] = [...lines.flatMap((l) => d.line(l)), ...d.finish()];
  return items.map((i) => (i.kind === 'chunk' ? i.chunk : i.kind === 'skip' ? `skip:${i.reason}` : 'done'));
}

const enc = new TextEncoder();

describe('v1 data stream decoder', () => {
  it('maps a text run onto text-start/delta/end with one id', () => {
    assert.deepEqual(chunksOf(['0:"Hel"', '0:"lo"', 'd:{"finishReason":"stop","usage":{"promptTokens":1}}']), [
      { type: 'text-start', id: 'v1-text-1' },
      { type: 'text-delta', id: 'v1-text-1', delta: 'Hel' },
      { type: 'text-delta', id: 'v1-text-1', delta: 'lo' },
      { type: 'text-end', id: 'v1-text-1' },
      { type: 'finish', finishReason: 'stop' },
    ]);
  });

  it('maps tool calls, results, sources, files, errors, annotations with a thread, and steps', () => {
    assert.deepEqual(
      chunksOf([
        'f:{"messageId":"m1"}',
        '8:[{"threadId":"thr_1"},{"note":1}]',
        'b:{"toolCallId":"t","toolName":"search"}',
        'c:{"toolCallId":"t","argsTextDelta":"{}"}',
        '9:{"toolCallId":"t","toolName":"search","args":{"q":"x"}}',
        'a:{"toolCallId":"t","result":[1,2]}',
        'h:{"sourceType":"url","id":"s1","url":"https://d/x","title":"X"}',
        'k:{"mimeType":"image/png","data":"AAAA"}',
        '3:"it broke"',
        'e:{"finishReason":"stop"}',
        'f:{"messageId":"m1"}',
      ]),
      [
        { type: 'start', messageId: 'm1' },
        { type: 'start-step' },
        { type: 'message-metadata', messageMetadata: { threadId: 'thr_1' } },
        { type: 'data-annotation', data: { note: 1 } },
        { type: 'tool-input-start', toolCallId: 't', toolName: 'search' },
        { type: 'tool-input-delta', toolCallId: 't', inputTextDelta: '{}' },
        { type: 'tool-input-available', toolCallId: 't', toolName: 'search', input: { q: 'x' } },
        { type: 'tool-output-available', toolCallId: 't', output: [1, 2] },
        { type: 'source-url', sourceId: 's1', url: 'https://d/x', title: 'X' },
        { type: 'file', url: 'data:image/png;base64,AAAA', mediaType: 'image/png' },
        { type: 'error', errorText: 'it broke' },
        { type: 'finish-step' },
        { type: 'start-step' },
      ],
    );
  });

  it('ends a text run at a tool call, so text after it is a new part in order', () => {
    const out = chunksOf(['0:"before "', '9:{"toolCallId":"t","toolName":"s","args":{}}', '0:"after"']);
    assert.deepEqual(out, [
      { type: 'text-start', id: 'v1-text-1' },
      { type: 'text-delta', id: 'v1-text-1', delta: 'before ' },
      { type: 'text-end', id: 'v1-text-1' },
      { type: 'tool-input-available', toolCallId: 't', toolName: 's', input: {} },
      { type: 'text-start', id: 'v1-text-2' },
      { type: 'text-delta', id: 'v1-text-2', delta: 'after' },
      { type: 'text-end', id: 'v1-text-2' },
    ]);
  });

  it('skips unknown codes and malformed lines without losing the text around them', () => {
    assert.deepEqual(chunksOf(['0:"a"', 'z:{"new":true}', '0:not json', 'garbage', '0:42', 'i:{"data":"x"}', '', '0:"b"\r']), [
      { type: 'text-start', id: 'v1-text-1' },
      { type: 'text-delta', id: 'v1-text-1', delta: 'a' },
      'skip:unknown-type',
      'skip:malformed',
      'skip:malformed',
      'skip:malformed',
      { type: 'text-delta', id: 'v1-text-1', delta: 'b' },
      { type: 'text-end', id: 'v1-text-1' },
    ]);
  });

  it('assembles the recorded v1 answer: tools, sources, reasoning, and the last thread annotation', () => {
    const { message } = assembleFromBytes([loadFixture('v1-answer.txt')], 'v1');
    assert.equal(message.messageId, 'msg_v1');
    assert.equal(message.threadId, 'thr_v1_final');
    assert.equal(message.finished, true);
    assert.equal(messageText(message), 'Assistant keys start with `svc_dsc_…` and are public — admin keys are secret. ✓ See the keys page.');
    const tool = message.parts.find((p) => p.type === 'tool') as AssembledToolCall;
    assert.deepEqual(tool.output, { results: [{ title: 'API keys', url: 'https://docs.example.com/keys' }] });
    assert.deepEqual(message.sources, [{ sourceId: 's1', kind: 'url', url: 'https://docs.example.com/keys', title: 'API keys' }]);
    assert.deepEqual(
      message.parts.map((p) => p.type),
      ['tool', 'text', 'reasoning', 'text'],
    );
    assert.deepEqual(message.data, [
      { type: 'data-v1', data: { kind: 'note', text: 'cached' } },
      { type: 'data-annotation', data: { other: true } },
    ]);
  });

  it('handles a last line without a line break, and skips a 5 MB line in linear time', () => {
    assert.equal(messageText(assembleFromBytes([enc.encode('0:"a"\n0:"b"')], 'v1').message), 'ab');
    // Past the 1 MB line cap (issue 16): reported once, never buffered whole; the next line counts.
    const big = 'x'.repeat(5_000_000);
    const bytes = enc.encode(`0:"before "\n0:${JSON.stringify(big)}\n0:"after"\nd:{"finishReason":"stop"}\n`);
    const pieces: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 16_384) pieces.push(bytes.subarray(i, i + 16_384));
    const t0 = performance.now();
    const { message } = assembleFromBytes(pieces, 'v1');
    assert.equal(messageText(message), 'before after');
    assert.equal(message.skippedChunks, 1);
    assert.equal(message.finished, true);
    assert.ok(performance.now() - t0 < 2000);
  });
});
