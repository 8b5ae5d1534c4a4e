import * as assert from 'node:assert/strict';
import {
  AgentClient,
  AssistantClient,
  ServiceError,
  assembleFromBytes,
  messageText,
  type AssembledMessage,
  type AssistantRequest,
  type AssistantStreamEvent,
} from '../../src/api';
import { SSE_FIXTURES, loadFixture, randomCuts, seededRandom, splitAt, streamingResponse } from '../fixtures/streams';
import { SAMPLE_JOB as job, words } from './helpers';

// The clients against a scripted `fetch`: exact requests, retry rules, timeouts, cancellation and
// stream edge cases that a real server cannot be made to produce on cue. The emulator tests
// (client-agent / client-assistant) cover the same over real HTTP.

const ADMIN = 'svc_7fK2pQ9xLm3Zt8Rw';
const ASSISTANT = 'svc_dsc_Hq4nV8yTb2Kp6Lm1';
const enc = new TextEncoder();

interface Call {
  url: string;
  init: RequestInit;
}

/** A fetch that records calls and answers with the scripted handlers in turn (the last one repeats). */
function scriptedFetch(...handlers: ((call: Call) => Response | Promise<Response>)[]): typeof fetch & { calls: Call[] } {
  const calls: Call[] = [];
  const f = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const call = { url: String(input), init };
    calls.push(call);
    const handler = handlers[Math.min(calls.length - 1, handlers.length - 1)]!;
    return handler(call);
  }) as typeof fetch & { calls: Call[] };
  f.calls = calls;
  return f;
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const networkFailure = () => {
  throw Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' }) });
};
/** Never answers, but gives up when the request's signal fires, like real fetch. */
const hang = (call: Call) =>
  new Promise<Response>((_, reject) => {
    const signal = call.init.signal!;
    signal.addEventListener('abort', () => reject(signal.reason ?? new DOMException('aborted', 'AbortError')));
  });

async function rejects(p: Promise<unknown>, check: (e: ServiceError) => void): Promise<ServiceError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ServiceError, `not a ServiceError: ${String(e)}`);
    check(e);
    for (const text of [e.message, words(e)]) assert.ok(!text.includes(ADMIN) && !text.includes(ASSISTANT), `key in message: ${text}`);
    assert.ok(!(e.detail ?? '').includes(ADMIN) && !(e.detail ?? '').includes(ASSISTANT), `key in detail: ${e.detail}`);
    return e;
  }
  assert.fail('expected a rejection');
}

function agent(fetch: typeof globalThis.fetch, extra: Partial<ConstructorParameters<typeof AgentClient>[0]> = {}) {
  return new AgentClient({ baseUrl: 'https://api.example.com', projectId: 'proj 1', apiKey: ADMIN, fetch, getRetryDelaysMs: [5, 5], ...extra });
}

const question: AssistantRequest = { fp: 'anonymous', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'How do webhooks retry?' }] }] };

function assistant(fetch: typeof globalThis.fetch, extra: Partial<ConstructorParameters<typeof AssistantClient>[0]> = {}) {
  return new AssistantClient({ baseUrl: 'https://api.example.com/', domain: 'acme', apiKey: ASSISTANT, fetch, ...extra });
}

/** Runs send() to the end: events seen, and the returned message or the thrown error. */
async function run(
  gen: AsyncGenerator<AssistantStreamEvent, AssembledMessage>,
): Promise<{ events: AssistantStreamEvent[]; message?: AssembledMessage; error?: ServiceError }> {
  const events: AssistantStreamEvent[] = [];
  try {
    for (;;) {
      const r = await gen.next();
      if (r.done) return { events, message: r.value };
      events.push(r.value);
    }
  } catch (e) {
    assert.ok(e instanceof ServiceError, String(e));
    return { events, error: e };
  }
}

const sse = (...chunks: unknown[]) => chunks.map((c) => `data: ${typeof c === 'string' ? c : JSON.stringify(c)}\n\n`).join('');

/**
 * An answer that streams `delta`, then goes quiet until the request's signal aborts; then its body
 * errors, as undici's does.
 */
const stallsAfter = (delta: string) => (call: Call) => {
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(enc.encode(sse({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta })));
        return;
      }
      return new Promise<void>((resolve) =>
        call.init.signal!.addEventListener('abort', () => {
          controller.error(new DOMException('aborted', 'AbortError'));
          resolve();
        }),
      );
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
};

/** A 200 answer streaming `chunks` as server-sent events. */
const sseAnswer = (...chunks: unknown[]) => new Response(sse(...chunks), { headers: { 'content-type': 'text/event-stream' } });

const answer = sse(
  { type: 'start' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Hello ' },
  { type: 'text-delta', id: 't', delta: 'there' },
  { type: 'text-end', id: 't' },
  { type: 'finish', messageMetadata: { threadId: 'thr_chunk' } },
  '[DONE]',
);

describe('AgentClient (scripted fetch)', () => {
  it('createJob: POST /v2/agent/{projectId}/job with the bearer key and {prompt}; 201 job parsed', async () => {
    const f = scriptedFetch(() => json(job, 201));
    const created = await agent(f).createJob('Fix the typo on the webhooks page');
    assert.equal(created.id, 'job_1');
    assert.equal(f.calls.length, 1);
    const { url, init } = f.calls[0]!;
    assert.equal(url, 'https://api.example.com/v2/agent/proj%201/job');
    assert.equal(init.method, 'POST');
    assert.equal(init.redirect, 'manual');
    assert.deepEqual(init.headers, { Authorization: `Bearer ${ADMIN}`, Accept: 'application/json', 'Content-Type': 'application/json' });
    assert.deepEqual(JSON.parse(String(init.body)), { prompt: 'Fix the typo on the webhooks page' });
  });

  it('sendMessage and getJob use the job paths, with encoded ids', async () => {
    // The reply names the job asked about (a reply about another job is refused).
    const f = scriptedFetch(() => json({ ...job, id: 'job/1' }));
    await agent(f).sendMessage('job/1', 'also fix the title');
    await agent(f).getJob('job/1');
    assert.equal(f.calls[0]!.url, 'https://api.example.com/v2/agent/proj%201/job/job%2F1/message');
    assert.equal(f.calls[1]!.url, 'https://api.example.com/v2/agent/proj%201/job/job%2F1');
    assert.equal(f.calls[1]!.init.method, 'GET');
    assert.equal(f.calls[1]!.init.body, undefined);
  });

  it('refuses, before any request: blank prompts, blank ids, a missing project, an assistant key, http to a non-loopback host', async () => {
    const f = scriptedFetch(() => json(job));
    await rejects(agent(f).createJob(' \n\t '), (e) => assert.equal(e.kind, 'invalidInput'));
    await rejects(agent(f).createJob(''), (e) => assert.match(words(e), /prompt is empty/));
    await rejects(agent(f).sendMessage('job_1', '   '), (e) => assert.equal(e.kind, 'invalidInput'));
    await rejects(agent(f).getJob('  '), (e) => assert.match(words(e), /job id is empty/));
    await rejects(agent(f, { projectId: '' }).createJob('x'), (e) => assert.deepEqual([e.reason, e.option], [{ code: 'projectMissing' }, 'projectId']));
    await rejects(agent(f, { apiKey: ASSISTANT }).createJob('x'), (e) => assert.match(words(e), /assistant key/));
    for (const baseUrl of ['http://api.example.com', 'http://10.0.0.5:8080', 'http://localhost.example.com']) {
      await rejects(agent(f, { baseUrl }).createJob('x'), (e) => {
        assert.equal(e.kind, 'invalidInput');
        assert.match(words(e), /only sent over https.*https:\/\//);
        assert.deepEqual(e.reason, { code: 'plainHttp', service: 'agent', host: new URL(baseUrl).host, httpsUrl: baseUrl.replace(/^http:/, 'https:') });
      });
      await rejects(agent(f, { baseUrl }).getJob('job_1'), (e) => assert.equal(e.kind, 'invalidInput'));
    }
    assert.equal(f.calls.length, 0);
    for (const baseUrl of ['http://127.0.0.1:9', 'http://localhost:9', 'http://[::1]:9']) await agent(f, { baseUrl }).getJob('job_1');
    assert.equal(f.calls.length, 3);
  });

  it('never retries create or follow-up, whatever the failure', async () => {
    for (const fail of [() => json({ error: 'boom' }, 500), () => json({}, 503), networkFailure]) {
      // A retry would get the success scripted second, and could start a second job.
      let f = scriptedFetch(fail, () => json(job, 201));
      await rejects(agent(f).createJob('x'), (e) => assert.ok(e.kind === 'server' || e.kind === 'network'));
      assert.equal(f.calls.length, 1, 'one request for createJob');
      f = scriptedFetch(fail, () => json(job));
      await rejects(agent(f).sendMessage('job_1', 'x'), (e) => assert.ok(e.kind === 'server' || e.kind === 'network'));
      assert.equal(f.calls.length, 1, 'one request for sendMessage');
    }
  });

  it('getJob retries network errors and 5xx at most twice, then succeeds or gives up', async () => {
    let f = scriptedFetch(
      networkFailure,
      () => json({}, 502),
      () => json(job),
    );
    assert.equal((await agent(f).getJob('job_1')).id, 'job_1');
    assert.equal(f.calls.length, 3);
    f = scriptedFetch(() => json({}, 500));
    await rejects(agent(f).getJob('job_1'), (e) => assert.equal(e.kind, 'server'));
    assert.equal(f.calls.length, 3);
    for (const status of [400, 401, 403, 404, 429]) {
      f = scriptedFetch(() => json({ error: 'no' }, status));
      await rejects(agent(f).getJob('job_1'), (e) => assert.equal(e.status, status));
      assert.equal(f.calls.length, 1, `no retry on ${status}`);
    }
  });

  it('getJob stops waiting between retries as soon as the caller aborts', async () => {
    const f = scriptedFetch(networkFailure);
    const ac = new AbortController();
    const t0 = Date.now();
    const p = agent(f, { getRetryDelaysMs: [5000, 5000] }).getJob('job_1', { signal: ac.signal });
    setTimeout(() => ac.abort(), 30);
    await rejects(p, (e) => assert.equal(e.kind, 'aborted'));
    assert.ok(Date.now() - t0 < 1000);
    assert.equal(f.calls.length, 1);
  });

  it('maps error statuses with the service words as detail, and Retry-After', async () => {
    const f = scriptedFetch(() => json({ error: 'Rate limit exceeded for project' }, 429, { 'retry-after': '7' }));
    await rejects(agent(f).createJob('x'), (e) => {
      assert.equal(e.kind, 'rateLimited');
      assert.equal(e.retryAfterMs, 7000);
      assert.match(words(e), /Try again after \d{2}:\d{2}:\d{2}\./);
      assert.equal(e.detail, 'Rate limit exceeded for project');
    });
    await rejects(agent(scriptedFetch(() => json({ error: 'no such job' }, 404))).getJob('job_404'), (e) => {
      assert.equal(e.kind, 'notFound');
      assert.match(words(e), /^Job job_404 was not found on the service/);
    });
  });

  it('any 2xx with a job body is success; a non-JSON or wrong body is a protocol error', async () => {
    assert.equal((await agent(scriptedFetch(() => json(job, 202))).createJob('x')).id, 'job_1');
    await rejects(agent(scriptedFetch(() => new Response('<html>ok</html>', { status: 200 }))).getJob('j'), (e) => {
      assert.equal(e.kind, 'protocol');
      assert.match(words(e), /not JSON/);
    });
    await rejects(agent(scriptedFetch(() => json({ ...job, status: 'queued' }))).getJob('j'), (e) => {
      assert.equal(e.kind, 'protocol');
      assert.match(words(e), /"status"/);
    });
  });

  it('does not follow redirects (the key would travel to an address nobody configured)', async () => {
    const f = scriptedFetch(() => new Response(null, { status: 301, headers: { location: 'https://elsewhere.example.com/v2/agent/p/job' } }));
    await rejects(agent(f).createJob('x'), (e) => {
      assert.equal(e.kind, 'protocol');
      assert.match(words(e), /redirected.*elsewhere\.example\.com/);
    });
    assert.equal(f.calls.length, 1);
  });

  it('never puts the key in a message or detail, even when the service echoes it', async () => {
    const echo = `{"error":"invalid token Bearer ${ADMIN} (${ADMIN})"}`;
    for (const status of [400, 401, 403, 500]) {
      await rejects(agent(scriptedFetch(() => new Response(echo, { status, headers: { 'content-type': 'application/json' } }))).createJob('x'), (e) =>
        assert.equal(e.status, status),
      );
    }
    await rejects(agent(scriptedFetch(() => new Response(`not json ${ADMIN}`, { status: 200 }))).getJob('j'), () => undefined);
  });

  it('times out when no response headers arrive within requestTimeoutMs, and cleans up', async () => {
    const t0 = Date.now();
    await rejects(agent(scriptedFetch(hang), { requestTimeoutMs: 60 }).createJob('x'), (e) => {
      assert.equal(e.kind, 'timeout');
      assert.match(words(e), /did not answer within 0\.1 s|did not answer within 0\.06 s|did not answer within/);
    });
    assert.ok(Date.now() - t0 < 1000);
  });

  it('an already-aborted signal fails fast without a request', async () => {
    const f = scriptedFetch(() => json(job));
    await rejects(agent(f).createJob('x', { signal: AbortSignal.abort() }), (e) => assert.equal(e.kind, 'aborted'));
    assert.equal(f.calls.length, 0);
  });
});

describe('AssistantClient (scripted fetch)', () => {
  it('POSTs the body to /discovery/v2/assistant/{domain}/message and streams the answer', async () => {
    const f = scriptedFetch(
      () => new Response(answer, { headers: { 'content-type': 'text/event-stream', 'x-thread-id': 'thr_hdr', 'x-thread-key': 'key_hdr' } }),
    );
    const { events, message } = await run(assistant(f).send(question));
    const { url, init } = f.calls[0]!;
    assert.equal(url, 'https://api.example.com/discovery/v2/assistant/acme/message');
    assert.deepEqual(init.headers, { Authorization: `Bearer ${ASSISTANT}`, 'Content-Type': 'application/json', Accept: 'text/event-stream' });
    assert.deepEqual(JSON.parse(String(init.body)), { fp: 'anonymous', messages: question.messages, threadId: null, retrievalPageSize: 5 });
    assert.deepEqual(events[0], { type: 'response', status: 200, threadId: 'thr_hdr', threadKey: 'key_hdr' });
    assert.equal(messageText(message!), 'Hello there');
    assert.equal(message!.threadId, 'thr_chunk', 'the finish metadata came last, so it wins');
    assert.equal(message!.threadKey, 'key_hdr');
    assert.equal(events.filter((e) => e.type === 'chunk').length, 6);
  });

  it('v1 goes to /discovery/v1/..., sends content, and decodes the data stream', async () => {
    const body = '0:"Hi "\n0:"v1"\n8:[{"threadId":"thr_v1"}]\nd:{"finishReason":"stop"}\n';
    const f = scriptedFetch(() => new Response(body, { headers: { 'content-type': 'text/plain; charset=utf-8', 'x-vercel-ai-data-stream': 'v1' } }));
    const { message } = await run(assistant(f, { apiVersion: 'v1' }).send({ ...question, threadId: 'thr_old', threadKey: 'k_old' }));
    assert.equal(f.calls[0]!.url, 'https://api.example.com/discovery/v1/assistant/acme/message');
    const sent = JSON.parse(String(f.calls[0]!.init.body));
    assert.equal(sent.messages[0].content, 'How do webhooks retry?');
    assert.equal(sent.threadId, 'thr_old');
    assert.equal(sent.threadKey, 'k_old');
    assert.equal(messageText(message!), 'Hi v1');
    assert.equal(message!.threadId, 'thr_v1');
  });

  it('a follow-up in the same thread keeps the key it was sent with (the service sends X-Thread-Key only once)', async () => {
    const f = scriptedFetch(
      () => new Response(answer.replace('thr_chunk', 'thr_1'), { headers: { 'content-type': 'text/event-stream', 'x-thread-id': 'thr_1' } }),
    );
    const { message } = await run(assistant(f).send({ ...question, threadId: 'thr_1', threadKey: 'key_1' }));
    assert.equal(message!.threadId, 'thr_1');
    assert.equal(message!.threadKey, 'key_1');
    const moved = scriptedFetch(() => new Response(answer.replace('thr_chunk', 'thr_2'), { headers: { 'content-type': 'text/event-stream' } }));
    const other = await run(assistant(moved).send({ ...question, threadId: 'thr_1', threadKey: 'key_1' }));
    assert.equal(other.message!.threadId, 'thr_2');
    assert.equal(other.message!.threadKey, undefined, 'a key is never paired with another thread');
  });

  it('refuses an admin key, a missing domain and an empty question before any request', async () => {
    const f = scriptedFetch(() => new Response(answer, { headers: { 'content-type': 'text/event-stream' } }));
    const codes: string[] = [];
    for (const [client, req, pattern] of [
      [assistant(f, { apiKey: ADMIN }), question, /admin key/],
      [assistant(f, { domain: ' ' }), question, /^Set docsAssistant\.domain first/],
      [assistant(f), { ...question, messages: [] }, /no question/],
      [assistant(f), { ...question, messages: [{ id: 'u', role: 'user', parts: [{ type: 'text', text: '  ' }] }] }, /empty/],
    ] as const) {
      const { error } = await run(client.send(req as AssistantRequest));
      assert.equal(error?.kind, 'invalidInput');
      assert.match(words(error!), pattern);
      codes.push(error!.code);
    }
    assert.deepEqual(codes, ['keyInvalid', 'domainMissing', 'questionMissing', 'questionEmpty']);
    assert.equal(f.calls.length, 0);
  });

  it('a 200 that is not an event stream is a protocol error naming what came', async () => {
    const f = scriptedFetch(() => json({ message: 'use the stream endpoint' }));
    const { error } = await run(assistant(f).send(question));
    assert.equal(error?.kind, 'protocol');
    assert.match(words(error!), /^The service answered with application\/json, not a stream/);
    assert.equal(error!.detail, 'use the stream endpoint');
  });

  it('404 with a thread: the thread is gone; without: the site is unknown', async () => {
    const f = scriptedFetch(() => json({ error: 'thread not found' }, 404));
    const gone = (await run(assistant(f).send({ ...question, threadId: 'thr_x', threadKey: 'secret-thread-key' }))).error!;
    assert.deepEqual(gone.reason, { code: 'threadGone', threadId: 'thr_x' });
    assert.equal(words(gone), "This conversation's thread is no longer known to the service. Start a new conversation.");
    assert.match(words((await run(assistant(f).send(question))).error!), /documentation site "acme" was not found/);
  });

  it('a body that breaks mid-way: network error with the partial text', async () => {
    const f = scriptedFetch(() => {
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (!sent) {
            sent = true;
            controller.enqueue(enc.encode(sse({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Partial answ' })));
          } else
            controller.error(Object.assign(new TypeError('terminated'), { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }));
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });
    const { error } = await run(assistant(f).send(question));
    assert.equal(error?.kind, 'network');
    assert.match(words(error!), /broke before the answer was complete.*kept/);
    assert.equal(messageText(error!.partial!), 'Partial answ');
  });

  it('a clean end without finish or [DONE] is a cut-off answer; with finish but no [DONE] it is complete', async () => {
    const cut = scriptedFetch(() => sseAnswer({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'half' }));
    const a = await run(assistant(cut).send(question));
    assert.equal(a.error?.kind, 'network');
    assert.equal(messageText(a.error!.partial!), 'half');
    const noDone = scriptedFetch(() => sseAnswer({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'whole' }, { type: 'finish' }));
    const b = await run(assistant(noDone).send(question));
    assert.equal(messageText(b.message!), 'whole');
    assert.equal(b.message!.finished, true);
  });

  it('error and abort chunks are yielded and recorded; the answer is returned', async () => {
    const f = scriptedFetch(() =>
      sseAnswer(
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'so far' },
        { type: 'error', errorText: 'model overloaded' },
        { type: 'abort' },
        '[DONE]',
      ),
    );
    const { events, message } = await run(assistant(f).send(question));
    assert.deepEqual(message!.errors, ['model overloaded']);
    assert.equal(message!.aborted, true);
    assert.ok(events.some((e) => e.type === 'chunk' && e.chunk.type === 'error'));
  });

  it('skipped chunks are reported as events and counted; the key never appears in their detail', async () => {
    const f = scriptedFetch(() =>
      sseAnswer(
        { type: 'text-start', id: 't' },
        `oops ${ASSISTANT}`,
        { type: 'brand-new' },
        { type: 'text-delta', id: 't', delta: 'ok' },
        { type: 'finish' },
        '[DONE]',
      ),
    );
    const { events, message } = await run(assistant(f).send(question));
    const skipped = events.filter((e) => e.type === 'skipped');
    assert.deepEqual(
      skipped.map((e) => (e.type === 'skipped' ? e.reason : '')),
      ['malformed', 'unknown-type'],
    );
    assert.ok(skipped.every((e) => e.type === 'skipped' && !e.detail.includes(ASSISTANT)));
    assert.equal(message!.skippedChunks, 2);
    assert.equal(messageText(message!), 'ok');
  });

  it('a stream that goes quiet: timeout after streamIdleTimeoutMs, partial kept', async () => {
    const f = scriptedFetch(stallsAfter('before the stall'));
    const t0 = Date.now();
    const { error } = await run(assistant(f, { streamIdleTimeoutMs: 80 }).send(question));
    assert.equal(error?.kind, 'timeout');
    assert.match(words(error!), /stalled.*0\.1 s|stalled/);
    assert.equal(messageText(error!.partial!), 'before the stall');
    assert.ok(Date.now() - t0 < 1000);
  });

  it('the caller aborts mid-stream: aborted, partial kept', async () => {
    const f = scriptedFetch(stallsAfter('kept'));
    const ac = new AbortController();
    const gen = assistant(f).send(question, { signal: ac.signal });
    const events: AssistantStreamEvent[] = [];
    let error: ServiceError | undefined;
    try {
      for await (const e of gen) {
        events.push(e);
        if (e.type === 'chunk' && e.chunk.type === 'text-delta') ac.abort();
      }
    } catch (e) {
      error = e as ServiceError;
    }
    assert.equal(error?.kind, 'aborted');
    assert.equal(messageText(error!.partial!), 'kept');
    assert.ok(events.length >= 3);
  });

  it('breaking out of the loop early cancels the body (the connection is released)', async () => {
    let cancelled = false;
    const f = scriptedFetch(() => {
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          controller.enqueue(enc.encode(sse({ type: 'text-delta', id: 't', delta: 'x' })));
        },
        cancel() {
          cancelled = true;
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });
    let n = 0;
    for await (const e of assistant(f).send(question)) {
      if (e.type === 'chunk' && ++n === 3) break;
    }
    assert.equal(cancelled, true);
  });

  it('no response headers within requestTimeoutMs: timeout, no partial', async () => {
    const { error } = await run(assistant(scriptedFetch(hang), { requestTimeoutMs: 50 }).send(question));
    assert.equal(error?.kind, 'timeout');
    assert.equal(error!.partial, undefined);
  });

  it('through the whole client, 100 random splittings of every recording give the same message', async () => {
    const random = seededRandom(99);
    for (const { name } of SSE_FIXTURES) {
      const bytes = loadFixture(name);
      const expected = assembleFromBytes([bytes], 'sse').message;
      for (let i = 0; i < 100; i++) {
        const pieces = splitAt(bytes, randomCuts(random, bytes.length, 1 + Math.floor(random() * 50)));
        const { message, error } = await run(assistant(scriptedFetch(() => streamingResponse(pieces))).send(question));
        assert.equal(error, undefined, `${name}: ${error?.message}`);
        assert.deepEqual(message, expected, name);
      }
    }
  });
});
