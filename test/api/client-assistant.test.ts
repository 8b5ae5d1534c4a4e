import * as assert from 'node:assert/strict';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { AssistantClient, ServiceError, messageText, type AssembledMessage, type AssistantRequest, type AssistantStreamEvent } from '../../src/api';
import { startEmulator, type RunningEmulator } from '../emulator';
import { closedPort, words } from './helpers';

// AssistantClient against the local service emulator over real HTTP: every fault mode the
// emulator offers, in both API versions, asserting what the user would get: the error kind and
// its words, the partial answer kept, the thread to continue in. Failures that need no service
// (refused, DNS, TLS, a dying socket) run against bare sockets at the end.

const SHORT = { requestTimeoutMs: 400, streamIdleTimeoutMs: 400 };
const VERSIONS = ['v2', 'v1'] as const;
/** Every fault test asks this, so its answer can be compared with the clean one. */
const QUESTION = 'How do I configure webhooks?';
const EMULATOR_ERROR_TEXT = 'The search backend timed out while the answer was being written.';

/** A fetch that adds `x-emulator-fault: <mode>` to every request. */
function faultFetch(mode: string): typeof fetch {
  return (input, init = {}) => fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-emulator-fault': mode } });
}

function ask(text: string, extra: Partial<AssistantRequest> = {}): AssistantRequest {
  return { fp: 'anonymous', messages: [{ id: `u-${Math.random().toString(36).slice(2)}`, role: 'user', parts: [{ type: 'text', text }] }], ...extra };
}

interface Outcome {
  events: AssistantStreamEvent[];
  message?: AssembledMessage;
  error?: ServiceError;
  ms: number;
}

async function run(gen: AsyncGenerator<AssistantStreamEvent, AssembledMessage>): Promise<Outcome> {
  const events: AssistantStreamEvent[] = [];
  const t0 = Date.now();
  try {
    for (;;) {
      const r = await gen.next();
      if (r.done) return { events, message: r.value, ms: Date.now() - t0 };
      events.push(r.value);
    }
  } catch (e) {
    assert.ok(e instanceof ServiceError, `not a ServiceError: ${String(e)}`);
    return { events, error: e, ms: Date.now() - t0 };
  }
}

/** The answer, or a failed assertion that shows the error a user would have seen instead. */
function answered(o: Outcome): AssembledMessage {
  assert.equal(o.error, undefined, o.error && `${o.error.kind}: ${o.error.message}`);
  return o.message!;
}

function failed(o: Outcome): ServiceError {
  assert.ok(o.error, `expected an error, got an answer of ${o.message && messageText(o.message).length} characters`);
  return o.error;
}

function noSecretIn(o: Outcome, ...secrets: (string | undefined)[]): void {
  const texts = [o.error?.message, o.error && words(o.error), o.error?.detail, ...o.events.map((e) => (e.type === 'skipped' ? e.detail : ''))];
  for (const s of secrets) {
    if (!s) continue;
    for (const t of texts) assert.ok(!(t ?? '').includes(s), `a secret in: ${t}`);
  }
}

/** Kept text must be the start of the real answer: nothing invented, nothing doubled. */
function assertPrefixOf(partial: AssembledMessage | undefined, full: string): void {
  assert.ok(partial, 'the partial answer is kept');
  const text = messageText(partial);
  assert.ok(text.length > 0, 'some text had arrived');
  assert.ok(text.length < full.length, 'the answer was cut short');
  assert.ok(full.startsWith(text), `kept text is the start of the answer: ${JSON.stringify(text.slice(0, 80))}`);
}

describe('AssistantClient against the emulator', function () {
  this.timeout(10_000);
  let emu: RunningEmulator;
  let host: string;
  /** The clean answer to QUESTION per version; fault runs are held against it. */
  const fullText: Record<string, string> = {};

  before(async () => {
    emu = await startEmulator({ port: 0, deltaDelayMs: 0, slowDripMs: 20 });
    host = new URL(emu.url).host;
    for (const apiVersion of VERSIONS) fullText[apiVersion] = messageText(answered(await run(client({ apiVersion }).send(ask(QUESTION)))));
  });
  after(async () => {
    await emu?.close();
  });
  beforeEach(() => emu.reset());
  afterEach(() => {
    // The admin key is a server-side secret: no assistant request may ever carry it.
    for (const r of emu.requests) assert.notEqual(r.auth, 'admin', `${r.method} ${r.path} carried the admin key`);
  });

  function client(opts: Partial<ConstructorParameters<typeof AssistantClient>[0]> = {}): AssistantClient {
    return new AssistantClient({ baseUrl: emu.url, domain: emu.domain, apiKey: emu.assistantKey, ...SHORT, ...opts });
  }

  describe('answers and threads', () => {
    for (const apiVersion of VERSIONS) {
      it(`${apiVersion}: streams an answer with sources and text, and a thread (X-Thread-Id, X-Thread-Key) to continue`, async () => {
        const o = await run(client({ apiVersion }).send(ask(QUESTION)));
        const m = answered(o);
        const first = o.events[0]!;
        assert.equal(first.type, 'response');
        assert.ok(first.type === 'response' && first.threadId && first.threadKey, 'thread from the headers');
        assert.equal(m.threadId, first.threadId);
        assert.equal(m.threadKey, first.threadKey);
        assert.equal(messageText(m), fullText[apiVersion]);
        assert.ok(m.sources.length > 0 && m.sources.every((s) => s.url?.startsWith(emu.url)), 'sources link into the docs');
        assert.ok(
          m.parts.some((p) => p.type === 'tool' && p.state === 'output-available'),
          'the docs search shows as a tool call',
        );
        assert.equal(m.finished, true);
        assert.equal(m.skippedChunks, 0);
        const body = emu.requests[0]!.body as Record<string, unknown>;
        assert.equal(emu.requests[0]!.path, `/discovery/${apiVersion}/assistant/${emu.domain}/message`);
        assert.equal(emu.requests[0]!.auth, 'assistant');
        assert.equal(body.threadId, null);
        assert.equal('threadKey' in body, false);
      });

      it(`${apiVersion}: three turns stay in one thread; threadId and threadKey go back each time, the key never into an error`, async () => {
        const c = client({ apiVersion });
        const history: AssistantRequest['messages'] = [];
        let thread: { threadId?: string; threadKey?: string } = {};
        let threadId: string | undefined;
        for (const [i, q] of ['What is a webhook?', 'And retries?', 'How do I verify the signature?'].entries()) {
          history.push({ id: `u${i}`, role: 'user', parts: [{ type: 'text', text: q }] });
          const m = answered(
            await run(c.send({ fp: 'anonymous', messages: [...history], threadId: thread.threadId ?? null, threadKey: thread.threadKey ?? null })),
          );
          history.push({ id: `a${i}`, role: 'assistant', parts: [{ type: 'text', text: messageText(m) }] });
          threadId ??= m.threadId;
          assert.equal(m.threadId, threadId, `turn ${i + 1} in the same thread`);
          // The key comes only with the first answer; later messages carry it over from the request.
          assert.equal(m.threadKey, thread.threadKey ?? m.threadKey);
          assert.ok(m.threadKey, `turn ${i + 1} still knows the key`);
          thread = { threadId: m.threadId, threadKey: m.threadKey };
        }
        const bodies = emu.requests.map((r) => r.body as Record<string, unknown>);
        assert.equal(bodies.length, 3);
        assert.deepEqual(
          bodies.map((b) => [b.threadId, b.threadKey, (b.messages as unknown[]).length]),
          [
            [null, undefined, 1],
            [threadId, thread.threadKey, 3],
            [threadId, thread.threadKey, 5],
          ],
        );
        // The thread is refused without its key, or with a wrong one, exactly like an unknown thread.
        for (const threadKey of [undefined, 'tk_wrong']) {
          const o = await run(c.send(ask('Once more?', { threadId, threadKey })));
          const e = failed(o);
          assert.equal(e.kind, 'notFound');
          assert.equal(words(e), "This conversation's thread is no longer known to the service. Start a new conversation.");
          noSecretIn(o, thread.threadKey, emu.assistantKey);
        }
      });
    }

    it('a service that hands out no thread keys: the thread continues on threadId alone, no threadKey is sent', async () => {
      const keyless = await startEmulator({ port: 0, deltaDelayMs: 0, threadKeys: false });
      try {
        const c = new AssistantClient({ baseUrl: keyless.url, domain: keyless.domain, apiKey: keyless.assistantKey, ...SHORT });
        const first = answered(await run(c.send(ask('What is a webhook?'))));
        assert.ok(first.threadId);
        assert.equal(first.threadKey, undefined);
        const second = answered(await run(c.send(ask('And retries?', { threadId: first.threadId, threadKey: first.threadKey }))));
        assert.equal(second.threadId, first.threadId);
        const body = keyless.requests[1]!.body as Record<string, unknown>;
        assert.equal(body.threadId, first.threadId);
        assert.equal('threadKey' in body, false);
      } finally {
        await keyless.close();
      }
    });

    it('an unknown thread: 404 → "start a new conversation"', async () => {
      const e = failed(await run(client().send(ask('again?', { threadId: 'thr_unknown', threadKey: 'tk_unknown' }))));
      assert.equal(e.kind, 'notFound');
      assert.equal(words(e), "This conversation's thread is no longer known to the service. Start a new conversation.");
    });

    it('an admin key is refused before anything is sent, and never echoed', async () => {
      const o = await run(client({ apiKey: emu.adminKey }).send(ask('hi')));
      assert.equal(failed(o).kind, 'invalidInput');
      assert.match(words(o.error!), /That is an admin key\. The chat needs the public assistant key/);
      noSecretIn(o, emu.adminKey);
      assert.equal(emu.requests.length, 0);
    });

    it('a wrong assistant key: unauthorized, "may have expired or been revoked"; neither key shows', async () => {
      const wrong = 'svc_dsc_not_a_real_key_123456';
      const o = await run(client({ apiKey: wrong }).send(ask('hi')));
      assert.equal(failed(o).kind, 'unauthorized');
      assert.match(words(o.error!), /assistant API key was refused\. It may have expired or been revoked/);
      noSecretIn(o, wrong, emu.assistantKey);
    });
  });

  describe('stream faults (after 200 and the headers)', () => {
    for (const apiVersion of VERSIONS) {
      const send = (mode: string, opts: Partial<ConstructorParameters<typeof AssistantClient>[0]> = {}, signal?: AbortSignal) =>
        run(client({ apiVersion, fetch: faultFetch(mode), ...opts }).send(ask(QUESTION), { signal }));

      it(`${apiVersion} slow: the whole drip takes longer than the idle timeout, yet completes (each read resets it)`, async () => {
        const o = await send('slow', { streamIdleTimeoutMs: 300 });
        assert.equal(messageText(answered(o)), fullText[apiVersion]);
        assert.ok(o.ms > 300, `took ${o.ms} ms`);
      });

      it(`${apiVersion} stall-mid: timeout after the idle time, the partial answer and its thread kept`, async () => {
        const o = await send('stall-mid');
        const e = failed(o);
        assert.equal(e.kind, 'timeout');
        assert.deepEqual(e.reason, { code: 'stalled', host, seconds: 0.4, keptPartial: true });
        assert.equal(e.option, 'streamIdleTimeoutMs', 'the idle timeout is the option to raise');
        assert.equal(
          words(e),
          `The answer stalled: nothing arrived from ${host} for 0.4 s. What arrived so far is kept. Retry, or raise docsAssistant.streamIdleTimeoutSeconds if the service is often this slow.`,
        );
        assertPrefixOf(e.partial, fullText[apiVersion]!);
        assert.ok(e.partial!.threadId && e.partial!.threadKey, 'the thread survives, so the user can ask again in it');
        assert.ok(o.ms >= 350 && o.ms < 3000, `${o.ms} ms`);
      });

      it(`${apiVersion} drop-mid: network error, the partial answer kept`, async () => {
        const e = failed(await send('drop-mid'));
        assert.equal(e.kind, 'network');
        assert.deepEqual(e.reason, { code: 'brokenBody', host, cause: 'closed', keptPartial: true });
        assert.equal(
          words(e),
          `The connection to ${host} broke before the answer was complete (the connection was closed). What arrived so far is kept. Retry to get the whole answer.`,
        );
        assertPrefixOf(e.partial, fullText[apiVersion]!);
      });

      it(`${apiVersion} malformed: the one bad chunk is reported and skipped; the answer is whole`, async () => {
        const o = await send('malformed');
        const m = answered(o);
        const skipped = o.events.filter((e) => e.type === 'skipped');
        assert.deepEqual(
          skipped.map((e) => e.type === 'skipped' && e.reason),
          ['malformed'],
        );
        assert.equal(m.skippedChunks, 1);
        assert.equal(messageText(m), fullText[apiVersion]);
      });

      it(`${apiVersion} unknown-chunks: skipped as unknown types; data parts kept; the answer is whole`, async () => {
        const o = await send('unknown-chunks');
        const m = answered(o);
        assert.deepEqual(
          o.events.filter((e) => e.type === 'skipped').map((e) => e.type === 'skipped' && e.reason),
          ['unknown-type', 'unknown-type'],
        );
        assert.equal(messageText(m), fullText[apiVersion]);
        // v2 progress carries an id, so each update replaces the last; v1 data has no ids.
        const percents = m.data.map((d) => JSON.stringify(d.data).match(/"percent":(\d+)/)?.[1]);
        assert.deepEqual(percents, apiVersion === 'v2' ? ['100'] : ['0', '50', '100']);
      });

      it(`${apiVersion} error-chunk: the service's error is yielded and kept with the text before it; no throw`, async () => {
        const o = await send('error-chunk');
        const m = answered(o);
        assert.ok(o.events.some((e) => e.type === 'chunk' && e.chunk.type === 'error' && e.chunk.errorText === EMULATOR_ERROR_TEXT));
        assert.deepEqual(m.errors, [EMULATOR_ERROR_TEXT]);
        assert.equal(m.finishReason, 'error');
        assertPrefixOf(m, fullText[apiVersion]!);
      });

      it(`${apiVersion} abort-chunk: the answer ends early, marked as such, with its text kept`, async () => {
        const m = answered(await send('abort-chunk'));
        assertPrefixOf(m, fullText[apiVersion]!);
        if (apiVersion === 'v2') {
          assert.equal(m.aborted, true);
          assert.equal(m.abortReason, 'The answer was cancelled by the service.');
        } else {
          // v4's data stream has no abort part: the service finishes with reason "other".
          assert.equal(m.finished, true);
          assert.equal(m.finishReason, 'other');
        }
      });

      it(`${apiVersion} no-done: a finished answer without [DONE] is complete`, async () => {
        const m = answered(await send('no-done'));
        assert.equal(m.finished, true);
        assert.equal(messageText(m), fullText[apiVersion]);
      });

      it(`${apiVersion} huge-chunk: a 5 MB delta is skipped past the line cap, and the answer stops at 2 MB with the text before it`, async () => {
        const o = await send('huge-chunk', { streamIdleTimeoutMs: 5000 });
        const m = answered(o);
        assert.equal(messageText(m), fullText[apiVersion]);
        assert.deepEqual(m.cutOff, { reason: 'size', limit: '2 MB' });
        assert.equal(o.events.filter((e) => e.type === 'skipped').length, 1);
        assert.equal(m.finished, false, 'the finish after the chunk was never read');
      });

      it(`${apiVersion}: the caller aborts mid-stream: aborted at once, partial kept`, async () => {
        const ac = new AbortController();
        const gen = client({ apiVersion, fetch: faultFetch('slow'), streamIdleTimeoutMs: 5000 }).send(ask(QUESTION), { signal: ac.signal });
        let error: ServiceError | undefined;
        try {
          for await (const e of gen) if (e.type === 'chunk' && e.chunk.type === 'text-delta') ac.abort();
        } catch (e) {
          error = e as ServiceError;
        }
        assert.equal(error?.kind, 'aborted');
        assert.equal(words(error!), 'The request was cancelled.');
        assertPrefixOf(error!.partial, fullText[apiVersion]!);
      });
    }
  });

  describe('response faults (instead of a stream)', () => {
    for (const apiVersion of VERSIONS) {
      const send = (mode: string, opts: Partial<ConstructorParameters<typeof AssistantClient>[0]> = {}) =>
        run(client({ apiVersion, fetch: faultFetch(mode), ...opts }).send(ask(QUESTION)));

      it(`${apiVersion} stall-headers: timeout after requestTimeoutMs, nothing partial`, async () => {
        const o = await send('stall-headers');
        const e = failed(o);
        assert.equal(e.kind, 'timeout');
        assert.deepEqual(e.reason, { code: 'headersTimeout', host, seconds: 0.4 });
        assert.equal(e.option, 'requestTimeoutMs');
        assert.equal(words(e), `${host} did not answer within 0.4 s. Try again in a moment, or raise docsAssistant.requestTimeoutSeconds.`);
        assert.equal(e.partial, undefined);
        assert.ok(o.ms >= 350 && o.ms < 3000, `${o.ms} ms`);
      });

      it(`${apiVersion} non-sse: a 200 that is not a stream is a protocol error, with what it said`, async () => {
        const e = failed(await send('non-sse'));
        assert.equal(e.kind, 'protocol');
        assert.deepEqual(e.reason, { code: 'notAStream', contentType: 'application/json' });
        assert.equal(words(e), 'The service answered with application/json, not a stream. Check docsAssistant.baseUrl and docsAssistant.assistantApiVersion.');
        assert.match(e.detail ?? '', /plain JSON body where a stream was expected/);
        assert.equal(e.partial, undefined);
      });

      it(`${apiVersion} html-502: server error, with the page title (no markup) as detail`, async () => {
        const e = failed(await send('html-502'));
        assert.equal(e.kind, 'server');
        assert.equal(e.status, 502);
        assert.equal(words(e), 'The service had a problem (HTTP 502). Try again in a moment.');
        assert.equal(e.detail, '502 Bad Gateway');
      });
    }

    // [mode, kind, reason code, message, the service's own words as detail (each body has another
    // shape)]. The words the user reads for each code: test/unit/error-words.test.ts.
    const statusCases: [string, string, string, RegExp, string][] = [
      [
        '400',
        'badRequest',
        'badRequest',
        /^The service refused the request \(HTTP 400\): Invalid request: messages\[0\]\.parts must be an array\.$/,
        'Invalid request: messages[0].parts must be an array.',
      ],
      [
        '401',
        'unauthorized',
        'keyRefused',
        /^The assistant API key was refused\. It may have expired or been revoked\. Set a new one with "Docs Assistant: Set Assistant API Key…"\.$/,
        'Invalid or expired assistant API key.',
      ],
      [
        '403',
        'forbidden',
        'domainForbidden',
        /^The assistant API key is not allowed to use the documentation site "acme-docs" \(HTTP 403\)\. Check docsAssistant\.domain and that the key belongs to that site\.$/,
        'This key may not use the assistant of "acme-docs".',
      ],
      [
        '404',
        'notFound',
        'domainNotFound',
        /^The documentation site "acme-docs" was not found on the service\. Check docsAssistant\.domain\.$/,
        'Domain "acme-docs" not found.',
      ],
      [
        '429',
        'rateLimited',
        'rateLimited',
        /^Too many requests: the service's rate limit was reached\. Try again after \d{2}:\d{2}:\d{2}\.$/,
        'Too many requests. Try again later.',
      ],
      [
        '429-no-retry-after',
        'rateLimited',
        'rateLimited',
        /^Too many requests: the service's rate limit was reached\. Try again later\.$/,
        'Rate limit exceeded.',
      ],
      ['500', 'server', 'serverError', /^The service had a problem \(HTTP 500\)\. Try again in a moment\.$/, 'Internal server error.'],
      ['503', 'server', 'serverError', /^The service had a problem \(HTTP 503\)\. Try again in a moment\.$/, 'The assistant is temporarily unavailable.'],
    ];
    for (const apiVersion of VERSIONS) {
      for (const [mode, kind, code, pattern, detail] of statusCases) {
        it(`${apiVersion} ${mode}: ${kind} (${code}), with the data its words need`, async () => {
          const o = await run(client({ apiVersion, fetch: faultFetch(mode) }).send(ask(QUESTION)));
          const e = failed(o);
          assert.equal(e.kind, kind);
          assert.equal(e.code, code);
          if (e.reason.code === 'keyRefused') assert.equal(e.reason.service, 'assistant');
          if (e.reason.code === 'domainForbidden' || e.reason.code === 'domainNotFound') assert.equal(e.reason.domain, 'acme-docs');
          if (e.reason.code === 'rateLimited') assert.equal(e.reason.retryAt !== undefined, mode === '429', 'retryAt only when Retry-After said');
          assert.equal(e.status, Number(mode.slice(0, 3)));
          assert.match(words(e), pattern);
          assert.equal(e.detail, detail);
          assert.equal(e.partial, undefined);
          assert.equal(e.retryAfterMs, mode === '429' ? 7000 : undefined);
          noSecretIn(o, emu.assistantKey, emu.adminKey);
        });
      }
    }

    it('faults also work from the question text: [[fault:503]], [[fault:stall-mid]], [[fault:429]]', async () => {
      assert.equal(failed(await run(client().send(ask('please [[fault:503]]')))).status, 503);
      const stalled = failed(await run(client().send(ask('How do I configure webhooks? [[fault:stall-mid]]'))));
      assert.equal(stalled.kind, 'timeout');
      assert.ok(messageText(stalled.partial!).length > 0);
      assert.equal(failed(await run(client({ apiVersion: 'v1' }).send(ask('x [[fault:429]]')))).retryAfterMs, 7000);
    });
  });

  describe('connections and cancellation', () => {
    it('TLS error (https:// to the plain-http emulator): says to use http:// for a local emulator', async () => {
      const e = failed(await run(client({ baseUrl: emu.url.replace(/^http:/, 'https:') }).send(ask('x'))));
      assert.equal(e.kind, 'network');
      assert.match(words(e), new RegExp(`^Could not make a secure connection to ${host.replace(/\./g, '\\.')}\\..*must start with http://`));
      assert.equal(emu.requests.length, 0);
    });

    it('the caller aborts while waiting for headers: aborted promptly', async () => {
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 50);
      const o = await run(client({ fetch: faultFetch('stall-headers'), requestTimeoutMs: 5000 }).send(ask('x'), { signal: ac.signal }));
      assert.equal(failed(o).kind, 'aborted');
      assert.equal(o.error!.partial, undefined);
      assert.ok(o.ms < 1000, `${o.ms} ms`);
    });

    it('an already-cancelled request sends nothing', async () => {
      const ac = new AbortController();
      ac.abort();
      assert.equal(failed(await run(client().send(ask('x'), { signal: ac.signal }))).kind, 'aborted');
      assert.equal(emu.requests.length, 0);
    });
  });
});

/** A bare local HTTP server with one scripted handler: real sockets, for failures that need no emulator. */
async function bareServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; close(): Promise<void> }> {
  const server = createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('AssistantClient over real sockets, no emulator needed', function () {
  this.timeout(10_000);
  const KEY = 'svc_dsc_Hq4nV8yTb2Kp6Lm1';
  const client = (baseUrl: string, requestTimeoutMs = 2000, streamIdleTimeoutMs = 2000) =>
    new AssistantClient({ baseUrl, domain: 'acme', apiKey: KEY, requestTimeoutMs, streamIdleTimeoutMs });
  const start = (res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'x-thread-id': 'thr_bare' });
    res.write('data: {"type":"text-start","id":"t"}\n\ndata: {"type":"text-delta","id":"t","delta":"partial "}\n\n');
  };

  it('connection refused (a closed port)', async () => {
    const port = await closedPort();
    const o = await run(client(`http://127.0.0.1:${port}`).send(ask('x')));
    assert.equal(failed(o).kind, 'network');
    assert.deepEqual(o.error!.reason, { code: 'unreachable', host: `127.0.0.1:${port}`, cause: 'refused' });
    assert.equal(words(o.error!), `Could not reach 127.0.0.1:${port} (connection refused). Check docsAssistant.baseUrl and your connection.`);
    noSecretIn(o, KEY);
  });

  it('DNS failure (a .invalid host)', async () => {
    // https: plain http to a host that is not loopback is refused before any lookup (key-transport.test.ts).
    const o = await run(client('https://docs-assistant-test.invalid', 5000).send(ask('x')));
    assert.equal(failed(o).kind, 'network');
    assert.deepEqual(o.error!.reason, { code: 'unreachable', host: 'docs-assistant-test.invalid', cause: 'dnsFailed' });
  });

  it('TLS error (https:// to a plain-http port)', async () => {
    const server = await bareServer((_req, res) => res.end('plain'));
    try {
      const e = failed(await run(client(server.url.replace(/^http:/, 'https:')).send(ask('x'))));
      assert.equal(e.kind, 'network');
      assert.match(words(e), /^Could not make a secure connection to 127\.0\.0\.1:\d+\..*http:\/\//);
    } finally {
      await server.close();
    }
  });

  it('headers never come: timeout; a stream that stalls: timeout with partial; a socket that dies: network with partial', async () => {
    const server = await bareServer((req, res) => {
      if (req.url?.includes('stall-headers')) return; // never answers
      start(res);
      if (req.url?.includes('drop')) setTimeout(() => res.socket?.destroy(), 30);
      // stall: keep the connection open and silent
    });
    try {
      const headers = await run(new AssistantClient({ baseUrl: server.url, domain: 'stall-headers', apiKey: KEY, requestTimeoutMs: 150 }).send(ask('x')));
      assert.equal(failed(headers).kind, 'timeout');
      assert.equal(headers.error!.partial, undefined);

      const stall = await run(new AssistantClient({ baseUrl: server.url, domain: 'stall', apiKey: KEY, streamIdleTimeoutMs: 150 }).send(ask('x')));
      assert.equal(failed(stall).kind, 'timeout');
      assert.equal(messageText(stall.error!.partial!), 'partial ');
      assert.equal(stall.error!.partial!.threadId, 'thr_bare');

      const drop = await run(new AssistantClient({ baseUrl: server.url, domain: 'drop', apiKey: KEY }).send(ask('x')));
      assert.equal(failed(drop).kind, 'network');
      assert.match(words(drop.error!), /broke before the answer was complete/);
      assert.equal(messageText(drop.error!.partial!), 'partial ');
    } finally {
      await server.close();
    }
  });

  it('a stream that ends cleanly but unfinished (no finish, no [DONE]): network error, partial kept', async () => {
    const server = await bareServer((_req, res) => {
      start(res);
      res.end();
    });
    try {
      const e = failed(await run(client(server.url).send(ask('x'))));
      assert.equal(e.kind, 'network');
      assert.match(
        words(e),
        /^The connection to 127\.0\.0\.1:\d+ closed before the answer was complete\. What arrived so far is kept\. Retry to get the whole answer\.$/,
      );
      assert.equal(messageText(e.partial!), 'partial ');
    } finally {
      await server.close();
    }
  });

  it('a redirect is not followed: the key never travels to an address nobody configured', async () => {
    let seen = 0;
    const server = await bareServer((_req, res) => {
      seen++;
      res.writeHead(307, { location: '/elsewhere' }).end();
    });
    try {
      const o = await run(client(server.url).send(ask('x')));
      assert.equal(failed(o).kind, 'protocol');
      assert.match(words(o.error!), /^The service redirected the request \(HTTP 307 to \/elsewhere\)/);
      assert.equal(seen, 1);
    } finally {
      await server.close();
    }
  });

  it('a thread key handed out by the answer never shows in a skip report or an error', async () => {
    const threadKey = 'tk_7c1e5a0f93b24d68';
    const server = await bareServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-thread-id': 'thr_k', 'x-thread-key': threadKey });
      res.write(`data: {"type":"message-metadata","threadKey":"${threadKey}" oops\n\n`);
      res.write('data: {"type":"text-start","id":"t"}\n\ndata: {"type":"text-delta","id":"t","delta":"partial "}\n\n');
      setTimeout(() => res.socket?.destroy(), 30);
    });
    try {
      const o = await run(client(server.url).send(ask('x')));
      assert.equal(failed(o).kind, 'network');
      assert.ok(
        o.events.some((e) => e.type === 'skipped' && e.detail.includes('[redacted]')),
        'the malformed chunk was reported, redacted',
      );
      noSecretIn(o, threadKey);
      assert.equal(o.error!.partial!.threadKey, threadKey, 'the caller still gets the key to continue the thread');
    } finally {
      await server.close();
    }
  });

  it('the caller aborts a silent stream: aborted at once, partial kept', async () => {
    const server = await bareServer((_req, res) => start(res));
    try {
      const ac = new AbortController();
      const gen = client(server.url, 2000, 5000).send(ask('x'), { signal: ac.signal });
      setTimeout(() => ac.abort(), 100);
      const o = await run(gen);
      assert.equal(failed(o).kind, 'aborted');
      assert.equal(messageText(o.error!.partial!), 'partial ');
      assert.ok(o.ms < 1000, `${o.ms} ms`);
    } finally {
      await server.close();
    }
  });
});
