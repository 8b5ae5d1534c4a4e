import * as assert from 'node:assert/strict';
import {
  JsonToSseTransformStream,
  createUIMessageStream,
  parseJsonEventStream,
  readUIMessageStream,
  simulateReadableStream,
  stepCountIs,
  streamText,
  tool,
  uiMessageChunkSchema,
  type UIMessage,
  type UIMessageChunk as SdkChunk,
} from 'ai';
import { MockLanguageModelV2 } from 'ai/test';
import { z } from 'zod';
import { assembleFromBytes, type AssembledMessage } from '../../src/api';
import { SSE_FIXTURES, loadFixture, randomCuts, seededRandom, splitAt } from '../fixtures/streams';

// Our stream handling against the `ai` package's own: the same bytes go through the SDK's
// transport parsing (parseJsonEventStream with uiMessageChunkSchema, as DefaultChatTransport does)
// and readUIMessageStream, and through our decoder + reducer. Text, reasoning, sources, tool
// calls, data parts and metadata must agree. Some of the bytes come from the SDK's own server
// helpers (streamText on a mock model, createUIMessageStream, JsonToSseTransformStream), so the
// check does not rest only on recordings we wrote ourselves.

function bytesStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

/** The SDK's final message for these bytes. Chunks the SDK cannot parse are dropped, as our client skips them. */
async function sdkAssemble(bytes: Uint8Array): Promise<UIMessage> {
  const chunks = parseJsonEventStream({ stream: bytesStream(bytes), schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream<{ success: boolean; value?: unknown }, SdkChunk>({
      transform(result, controller) {
        if (result.success) controller.enqueue(result.value as SdkChunk);
      },
    }),
  );
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream: chunks })) last = message;
  assert.ok(last, 'the SDK produced no message');
  return last;
}

interface Comparable {
  texts: string[];
  reasoning: string[];
  sources: unknown[];
  tools: unknown[];
  data: unknown[];
  files: unknown[];
  metadata: unknown;
}

const clean = <T extends Record<string, unknown>>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

function fromSdk(m: UIMessage): Comparable {
  const parts = m.parts as unknown as Record<string, unknown>[];
  return {
    texts: parts.filter((p) => p.type === 'text').map((p) => p.text as string),
    reasoning: parts.filter((p) => p.type === 'reasoning').map((p) => p.text as string),
    sources: parts
      .filter((p) => p.type === 'source-url' || p.type === 'source-document')
      .map((p) => clean({ sourceId: p.sourceId, url: p.url, title: p.title, mediaType: p.mediaType, filename: p.filename })),
    tools: parts
      .filter((p) => typeof p.type === 'string' && (p.type.startsWith('tool-') || p.type === 'dynamic-tool'))
      .map((p) =>
        clean({
          toolCallId: p.toolCallId,
          toolName: p.type === 'dynamic-tool' ? p.toolName : (p.type as string).slice(5),
          state: p.state,
          // The SDK files a tool-input-error's input as rawInput and calls the state output-error.
          input: p.input ?? p.rawInput,
          output: p.output,
          errorText: p.errorText,
        }),
      ),
    data: parts.filter((p) => typeof p.type === 'string' && p.type.startsWith('data-')).map((p) => clean({ type: p.type, id: p.id, data: p.data })),
    files: parts.filter((p) => p.type === 'file').map((p) => ({ url: p.url, mediaType: p.mediaType })),
    metadata: m.metadata,
  };
}

function fromOurs(m: AssembledMessage): Comparable {
  return {
    texts: m.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text),
    reasoning: m.parts.filter((p) => p.type === 'reasoning').map((p) => (p as { text: string }).text),
    sources: m.sources.map((s) => clean({ sourceId: s.sourceId, url: s.url, title: s.title, mediaType: s.mediaType, filename: s.filename })),
    tools: m.parts
      .filter((p) => p.type === 'tool')
      .map((p) => {
        const t = p as Extract<AssembledMessage['parts'][number], { type: 'tool' }>;
        return clean({
          toolCallId: t.toolCallId,
          toolName: t.toolName,
          state: t.state === 'input-error' ? 'output-error' : t.state,
          input: t.input,
          output: t.output,
          errorText: t.errorText,
        });
      }),
    data: m.data.map((d) => clean({ type: d.type, id: d.id, data: d.data })),
    files: m.files.map((f) => ({ url: f.url, mediaType: f.mediaType })),
    metadata: m.metadata,
  };
}

async function assertSameAsSdk(bytes: Uint8Array, label: string): Promise<AssembledMessage> {
  const ours = assembleFromBytes([bytes], 'sse').message;
  const sdk = await sdkAssemble(bytes);
  assert.deepEqual(fromOurs(ours), fromSdk(sdk), label);
  return ours;
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const c of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(c);
  return new Uint8Array(Buffer.concat(chunks));
}

function toSseBytes(stream: ReadableStream<unknown>): Promise<Uint8Array> {
  return collect(stream.pipeThrough(new JsonToSseTransformStream()).pipeThrough(new TextEncoderStream()));
}

const usage = { inputTokens: 12, outputTokens: 34, totalTokens: 46 };

/** A two-step answer from the SDK's streamText: a search tool call that executes, then reasoning, sources and text. */
async function sdkStreamTextBytes(): Promise<{ bytes: Uint8Array; text: string }> {
  const step1 = [
    { type: 'stream-start' as const, warnings: [] },
    { type: 'response-metadata' as const, id: 'resp-1', modelId: 'mock', timestamp: new Date(0) },
    { type: 'text-start' as const, id: 'a1' },
    { type: 'text-delta' as const, id: 'a1', delta: 'Searching the docs… ' },
    { type: 'text-end' as const, id: 'a1' },
    { type: 'tool-input-start' as const, id: 'call-1', toolName: 'searchDocs' },
    { type: 'tool-input-delta' as const, id: 'call-1', delta: '{"query":' },
    { type: 'tool-input-delta' as const, id: 'call-1', delta: '"rate limits"}' },
    { type: 'tool-input-end' as const, id: 'call-1' },
    { type: 'tool-call' as const, toolCallId: 'call-1', toolName: 'searchDocs', input: '{"query":"rate limits"}' },
    { type: 'finish' as const, finishReason: 'tool-calls' as const, usage },
  ];
  const answer = 'Agent jobs are limited to **100 per project per hour** — assistant keys to 10 000 requests/hour. 🚦 詳細はドキュメントへ。';
  const step2 = [
    { type: 'stream-start' as const, warnings: [] },
    { type: 'reasoning-start' as const, id: 'r1' },
    { type: 'reasoning-delta' as const, id: 'r1', delta: 'The search found the limits page. ' },
    { type: 'reasoning-delta' as const, id: 'r1', delta: 'Quote it.' },
    { type: 'reasoning-end' as const, id: 'r1' },
    { type: 'source' as const, sourceType: 'url' as const, id: 'src-limits', url: 'https://docs.example.com/limits', title: 'Limits' },
    { type: 'source' as const, sourceType: 'url' as const, id: 'src-keys', url: 'https://docs.example.com/keys' },
    { type: 'text-start' as const, id: 'a2' },
    ...answer.match(/.{1,6}/gsu)!.map((delta) => ({ type: 'text-delta' as const, id: 'a2', delta })),
    { type: 'text-end' as const, id: 'a2' },
    { type: 'finish' as const, finishReason: 'stop' as const, usage },
  ];
  const model = new MockLanguageModelV2({
    doStream: [
      { stream: simulateReadableStream({ chunks: step1, initialDelayInMs: null, chunkDelayInMs: null }) },
      { stream: simulateReadableStream({ chunks: step2, initialDelayInMs: null, chunkDelayInMs: null }) },
    ],
  });
  const result = streamText({
    model,
    prompt: 'What are the rate limits?',
    stopWhen: stepCountIs(2),
    tools: {
      searchDocs: tool({
        description: 'Search the documentation',
        inputSchema: z.object({ query: z.string() }),
        execute: async ({ query }) => ({ query, results: [{ title: 'Limits', url: 'https://docs.example.com/limits' }] }),
      }),
    },
  });
  const bytes = await toSseBytes(
    result.toUIMessageStream({
      sendReasoning: true,
      sendSources: true,
      messageMetadata: ({ part }) => (part.type === 'start' ? { model: 'mock' } : part.type === 'finish' ? { threadId: 'thr_sdk_streamtext' } : undefined),
    }),
  );
  return { bytes, text: await result.text };
}

/**
 * A stream written with createUIMessageStream: data parts (one updated by id, one transient),
 * sources, merged model output. The writer sends `start` itself and merges with sendStart: false,
 * as a server merging streams into one message does: readUIMessageStream (unlike the chat hook,
 * and unlike us) starts a new message at every `start` with a new messageId and drops what came before.
 */
async function sdkWriterBytes(): Promise<Uint8Array> {
  const model = new MockLanguageModelV2({
    doStream: {
      stream: simulateReadableStream({
        chunks: [
          { type: 'stream-start' as const, warnings: [] },
          { type: 'text-start' as const, id: 't' },
          { type: 'text-delta' as const, id: 't', delta: 'Merged model output, ' },
          { type: 'text-delta' as const, id: 't', delta: 'with ümlauts and 🙂.' },
          { type: 'text-end' as const, id: 't' },
          { type: 'finish' as const, finishReason: 'stop' as const, usage },
        ],
        initialDelayInMs: null,
        chunkDelayInMs: null,
      }),
    },
  });
  const stream = createUIMessageStream({
    execute: ({ writer }) => {
      writer.write({ type: 'start', messageId: 'msg_writer' });
      writer.write({ type: 'data-status', id: 'status', data: { phase: 'searching' } });
      writer.write({ type: 'data-progress', data: 0.5, transient: true });
      writer.write({ type: 'source-url', sourceId: 's1', url: 'https://docs.example.com/a', title: 'A' });
      writer.write({ type: 'source-document', sourceId: 'd1', mediaType: 'application/pdf', title: 'Guide', filename: 'guide.pdf' });
      writer.write({ type: 'data-status', id: 'status', data: { phase: 'answering' } });
      writer.merge(
        streamText({ model, prompt: 'q' }).toUIMessageStream({
          sendStart: false,
          messageMetadata: ({ part }) => (part.type === 'finish' ? { threadId: 'thr_writer' } : undefined),
        }),
      );
    },
  });
  return toSseBytes(stream);
}

describe('SDK compatibility (ai v5 readUIMessageStream on the same bytes)', () => {
  for (const { name, sdkClean } of SSE_FIXTURES) {
    it(`${name}: same text, reasoning, sources, tools, data and metadata as the SDK${sdkClean ? '' : ' (SDK-invalid chunks dropped on its side)'}`, async () => {
      await assertSameAsSdk(loadFixture(name), name);
    });
  }

  it('streamText (mock model, tool call that executes, two steps) → toUIMessageStream → SSE: same as the SDK, and the same text as result.text', async () => {
    const { bytes, text } = await sdkStreamTextBytes();
    const ours = await assertSameAsSdk(bytes, 'streamText');
    const ourTexts = ours.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text);
    // result.text is the last step's text; our message keeps both steps.
    assert.equal(ourTexts.at(-1), text);
    assert.equal(ours.threadId, 'thr_sdk_streamtext');
    assert.deepEqual(
      ours.sources.map((s) => s.url),
      ['https://docs.example.com/limits', 'https://docs.example.com/keys'],
    );
    const toolPart = ours.parts.find((p) => p.type === 'tool');
    assert.deepEqual(toolPart && toolPart.type === 'tool' ? toolPart.output : undefined, {
      query: 'rate limits',
      results: [{ title: 'Limits', url: 'https://docs.example.com/limits' }],
    });
    assert.equal(ours.finished, true);
  });

  it('createUIMessageStream writer (data parts, transient data, documents, merged stream): same as the SDK', async () => {
    const bytes = await sdkWriterBytes();
    const ours = await assertSameAsSdk(bytes, 'writer');
    assert.deepEqual(ours.data, [{ type: 'data-status', id: 'status', data: { phase: 'answering' } }]);
    assert.equal(ours.threadId, 'thr_writer');
  });

  it('SDK-generated bytes split at random places (300 each) still match the SDK', async () => {
    const random = seededRandom(7);
    for (const bytes of [(await sdkStreamTextBytes()).bytes, await sdkWriterBytes()]) {
      const expected = fromSdk(await sdkAssemble(bytes));
      for (let run = 0; run < 300; run++) {
        const cuts = randomCuts(random, bytes.length, 1 + Math.floor(random() * 60));
        assert.deepEqual(fromOurs(assembleFromBytes(splitAt(bytes, cuts), 'sse').message), expected);
      }
    }
  });
});
