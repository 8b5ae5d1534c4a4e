import * as assert from 'node:assert/strict';
import { createDecoder, type StreamFormat } from '../../src/api/assemble';
import type { StreamItem } from '../../src/api/chunks';
import { MAX_LINE_CHARS } from '../../src/api/limits';
import { assembleFromBytes, messageText } from '../../src/api';

// Issue 16, item 8: the v1 line buffer had no cap (a 100 MB line gave no item and +210 MB of
// memory), and the SSE decoder buffered 64 MB for one event. Both now give up on a line past
// MAX_LINE_CHARS as soon as it gets there: one skip report, the rest of that line dropped as it
// arrives, and the stream goes on with the next line.

const enc = new TextEncoder();
const PIECE = 64 * 1024;

const frame = {
  sse: {
    line: (text: string) => `data: ${JSON.stringify({ type: 'text-delta', id: 't', delta: text })}\n\n`,
    start: 'data: {"type":"text-start","id":"t"}\n\n',
    open: 'data: {"type":"text-delta","id":"t","delta":"',
    end: 'data: {"type":"finish"}\n\ndata: [DONE]\n\n',
  },
  v1: {
    line: (text: string) => `0:${JSON.stringify(text)}\n`,
    start: '',
    open: '0:"',
    end: 'd:{"finishReason":"stop"}\n',
  },
} as const;

const skips = (items: StreamItem[]): string[] => items.flatMap((i) => (i.kind === 'skip' ? [i.detail] : []));

function pieces(text: string): Uint8Array[] {
  const bytes = enc.encode(text);
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += PIECE) out.push(bytes.subarray(i, i + PIECE));
  return out;
}

describe('stream lines are capped (issue 16)', () => {
  for (const format of ['sse', 'v1'] as StreamFormat[]) {
    const f = frame[format];
    const tooLong = format === 'sse' ? 'an event longer than 1 MB' : 'a v1 line longer than 1 MB';

    it(`${format}: a line past the cap is skipped once, in linear time, and the lines after it still count`, () => {
      const huge = 'x'.repeat(3 * MAX_LINE_CHARS);
      const t0 = performance.now();
      const { message } = assembleFromBytes(pieces(`${f.start}${f.line('before ')}${f.line(huge)}${f.line('after')}${f.end}`), format);
      const ms = performance.now() - t0;
      assert.equal(messageText(message), 'before after');
      assert.equal(message.skippedChunks, 1, 'reported once, not once per megabyte');
      assert.equal(message.finished, true);
      assert.ok(ms < 2000, `${ms.toFixed(0)} ms`);
    });

    it(`${format}: a line that never ends is given up on as soon as it passes the cap, not at the end of the stream`, () => {
      const decoder = createDecoder(format);
      const seen: string[] = skips(decoder.push(enc.encode(`${f.start}${f.line('before ')}${f.open}`)));
      const piece = enc.encode('x'.repeat(PIECE));
      let pushed = 0;
      while (pushed <= MAX_LINE_CHARS + PIECE) {
        seen.push(...skips(decoder.push(piece)));
        pushed += PIECE;
      }
      assert.deepEqual(seen, [tooLong], 'one report, once the line passed the cap');
      for (let i = 0; i < 64; i++) assert.deepEqual(skips(decoder.push(piece)), [], 'the rest of the line is dropped quietly');
      const rest = [...decoder.push(enc.encode(`"\n${format === 'sse' ? '\n' : ''}${f.line('after')}`)), ...decoder.end()];
      assert.deepEqual(skips(rest), []);
      assert.ok(
        rest.some((i) => i.kind === 'chunk' && i.chunk.type === 'text-delta' && i.chunk.delta === 'after'),
        'the next line is read',
      );
    });

    it(`${format}: a line just under the cap arrives whole`, () => {
      const big = 'y'.repeat(MAX_LINE_CHARS - 200);
      const { message } = assembleFromBytes(pieces(`${f.start}${f.line(big)}${f.end}`), format);
      assert.equal(messageText(message), big);
      assert.equal(message.skippedChunks, 0);
    });
  }

  it('sse: an event built of many short data: lines is capped too', () => {
    // Valid JSON once its lines are joined: a delta with a 2 MB list beside it.
    const event = `data: {"type":"text-delta","id":"t","delta":"z","pad":[\n${'data: 1111111111,\n'.repeat(Math.ceil((2 * MAX_LINE_CHARS) / 11))}data: 1]}\n\n`;
    const { message } = assembleFromBytes(pieces(`${frame.sse.start}${event}${frame.sse.line('after')}${frame.sse.end}`), 'sse');
    assert.equal(messageText(message), 'after');
    assert.equal(message.skippedChunks, 1);
  });
});
