import * as assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { networkInterfaces } from 'node:os';
import { AgentClient, AssistantClient, ServiceError, type AssembledMessage, type AssistantStreamEvent } from '../../src/api';
import { startEmulator, type RunningEmulator } from '../emulator';
import { words } from './helpers';

// Where the keys may travel, checked on the wire: the real clients with the real global fetch,
// an emulator listening on every interface (so a wrongly sent request would really arrive and be
// recorded), and undici's own diagnostics channels, which report every request fetch creates and
// every connection it opens (before any DNS lookup). A refused address must leave no trace in any
// of them: not a request, not a connection attempt, not a name lookup.
// test/unit/keys.test.ts covers the key format; client-agent.test.ts the refusal with a stub fetch.

const FETCH_CHANNELS = ['undici:request:create', 'undici:client:beforeConnect'] as const;

/** Every request and connection attempt global fetch makes while `fn` runs. */
async function wireTrace<T>(fn: () => Promise<T>): Promise<{ result: T | ServiceError; seen: string[] }> {
  const seen: string[] = [];
  const listeners = FETCH_CHANNELS.map((name) => {
    const listener = (message: unknown): void => {
      const m = message as { request?: { origin?: unknown; path?: unknown }; connectParams?: { host?: unknown; hostname?: unknown } };
      seen.push(
        `${name} ${String(m.request?.origin ?? m.connectParams?.hostname ?? m.connectParams?.host ?? '')}${m.request?.path ? String(m.request.path) : ''}`,
      );
    };
    subscribe(name, listener);
    return [name, listener] as const;
  });
  try {
    const result = await fn().catch((e: unknown) => {
      if (e instanceof ServiceError) return e;
      throw e;
    });
    return { result, seen };
  } finally {
    for (const [name, listener] of listeners) unsubscribe(name, listener);
  }
}

/** This machine's IPv4 addresses that are not loopback (the emulator listens on 0.0.0.0). */
function outsideAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && !a.internal && a.family === 'IPv4')
    .map((a) => a!.address);
}

async function drain(gen: AsyncGenerator<AssistantStreamEvent, AssembledMessage>): Promise<AssembledMessage> {
  for (;;) {
    const step = await gen.next();
    if (step.done) return step.value;
  }
}

describe('where the keys travel (real fetch, an emulator on every interface, undici diagnostics)', function () {
  this.timeout(20_000);
  let emu: RunningEmulator;
  let port: number;
  const counts = { refusedAddresses: 0, calls: 0 };

  before(async () => {
    // 0.0.0.0: an address of this machine that is not loopback reaches this emulator too.
    emu = await startEmulator({ port: 0, host: '0.0.0.0', jobDurationMs: 60_000, deltaDelayMs: 0 });
    port = Number(new URL(emu.url).port);
  });
  after(async () => {
    await emu?.close();
    console.log(
      `      (${counts.refusedAddresses} non-loopback http addresses × 3 admin calls = ${counts.calls} refused with no request, connection or lookup)`,
    );
  });
  beforeEach(() => emu.reset());

  const agent = (baseUrl: string, apiKey = emu.adminKey): AgentClient =>
    new AgentClient({ baseUrl, projectId: emu.projectId, apiKey, requestTimeoutMs: 3000, getRetryDelaysMs: [] });

  it('the spy works: the emulator by loopback address records the admin key, and fetch reports the request and the connection', async () => {
    for (const base of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      const { result, seen } = await wireTrace(() => agent(base).createJob('Fix the retry table'));
      assert.ok(!(result instanceof ServiceError), result instanceof ServiceError ? result.message : '');
      assert.ok(
        seen.some((s) => s.startsWith('undici:request:create')),
        `no request seen: ${seen.join(', ')}`,
      );
    }
    assert.deepEqual(
      emu.requests.map((r) => r.auth),
      ['admin', 'admin'],
    );
  });

  it('the admin key is never sent over plain http to an address that is not this machine’s loopback, not even resolved', async () => {
    const outside = outsideAddresses();
    const addresses = [
      'http://example.invalid',
      'http://docs.example.com',
      `http://0.0.0.0:${port}`,
      `http://127.0.0.1.nip.io:${port}`,
      `http://localhost.example.com:${port}`,
      'http://[::2]:3000',
      'http://10.0.0.5',
      ...outside.map((a) => `http://${a}:${port}`),
    ];
    if (outside.length === 0) console.log('      (this machine has no non-loopback interface: only unroutable addresses were tried)');
    // The outside addresses do reach the emulator when nothing is secret: a wrongly sent key would arrive.
    for (const a of outside) assert.equal((await fetch(`http://${a}:${port}/__emulator/health`)).status, 200, `${a} reaches the emulator`);
    for (const baseUrl of addresses) {
      counts.refusedAddresses++;
      for (const call of [
        (c: AgentClient) => c.createJob('Fix it'),
        (c: AgentClient) => c.getJob('job_1'),
        (c: AgentClient) => c.sendMessage('job_1', 'More'),
      ]) {
        counts.calls++;
        const { result, seen } = await wireTrace(() => call(agent(baseUrl)));
        assert.ok(result instanceof ServiceError, `${baseUrl}: not refused`);
        assert.equal(result.kind, 'invalidInput', `${baseUrl}: ${result.message}`);
        assert.deepEqual(result.reason, { code: 'plainHttp', service: 'agent', host: new URL(baseUrl).host, httpsUrl: baseUrl.replace(/^http:/, 'https:') });
        assert.match(words(result), /^The admin key is only sent over https\. Change docsAssistant\.baseUrl to https:\/\//);
        assert.ok(!result.message.includes(emu.adminKey) && !words(result).includes(emu.adminKey));
        assert.deepEqual(seen, [], `${baseUrl}: fetch was used`);
      }
    }
    assert.deepEqual(emu.requests, [], 'nothing reached the emulator');
  });

  it('the assistant key, the thread key, the question and the selected code never go over plain http to an address that is not loopback either (issue 16, item 10)', async () => {
    const outside = outsideAddresses();
    const addresses = [
      'http://docs.example.com',
      `http://0.0.0.0:${port}`,
      `http://localhost.example.com:${port}`,
      'http://10.0.0.5',
      ...outside.map((a) => `http://${a}:${port}`),
    ];
    const question = {
      fp: 'anonymous',
      threadId: 'thr_1',
      threadKey: 'tk_secret_thread_key_0123',
      messages: [{ id: 'u1', role: 'user' as const, parts: [{ type: 'text' as const, text: 'How do I configure webhooks?' }] }],
      context: [{ type: 'code' as const, value: 'const secret = process.env.TOKEN;', path: 'src/app.ts' }],
    };
    for (const baseUrl of addresses) {
      const chat = new AssistantClient({ baseUrl, domain: emu.domain, apiKey: emu.assistantKey, requestTimeoutMs: 3000 });
      const { result, seen } = await wireTrace(() => drain(chat.send(question)));
      assert.ok(result instanceof ServiceError, `${baseUrl}: not refused`);
      assert.equal(result.kind, 'invalidInput', `${baseUrl}: ${result.message}`);
      assert.deepEqual(result.reason, { code: 'plainHttp', service: 'assistant', host: new URL(baseUrl).host, httpsUrl: baseUrl.replace(/^http:/, 'https:') });
      assert.match(words(result), /^Questions and the assistant key are only sent over https\. Change docsAssistant\.baseUrl to https:\/\//);
      assert.deepEqual(seen, [], `${baseUrl}: fetch was used`);
    }
    assert.deepEqual(emu.requests, [], 'nothing reached the emulator');
    const local = new AssistantClient({ baseUrl: `http://localhost:${port}`, domain: emu.domain, apiKey: emu.assistantKey });
    const answer = await drain(local.send({ fp: 'anonymous', messages: question.messages }));
    assert.ok(answer.finished, 'plain http to loopback (the emulator) still works');
  });

  it('https to a host that is not loopback is allowed: the request goes out (and here fails to resolve)', async () => {
    const { result, seen } = await wireTrace(() => agent('https://docs-assistant-keys.invalid').createJob('Fix it'));
    assert.ok(result instanceof ServiceError);
    assert.equal(result.kind, 'network');
    assert.match(words(result), /could not be resolved/);
    assert.ok(seen.length > 0, 'the request was made');
  });

  it('the admin key is refused by the assistant client before any request; the assistant key by the agent client', async () => {
    const chat = new AssistantClient({ baseUrl: `http://127.0.0.1:${port}`, domain: emu.domain, apiKey: emu.adminKey });
    const asked = await wireTrace(() =>
      drain(chat.send({ fp: 'anonymous', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'How do I configure webhooks?' }] }] })),
    );
    assert.ok(asked.result instanceof ServiceError && asked.result.kind === 'invalidInput', 'refused');
    assert.match(words(asked.result), /admin key/);
    assert.deepEqual(asked.seen, []);
    const job = await wireTrace(() => agent(`http://127.0.0.1:${port}`, emu.assistantKey).createJob('Fix it'));
    assert.ok(job.result instanceof ServiceError && job.result.kind === 'invalidInput');
    assert.deepEqual(job.seen, []);
    assert.deepEqual(emu.requests, []);
  });

  it('after a chat answer and an agent job: the assistant endpoints saw only the assistant key, the agent endpoints only the admin key, and no key is anywhere else in what the emulator received', async () => {
    const base = `http://127.0.0.1:${port}`;
    const chat = new AssistantClient({ baseUrl: base, domain: emu.domain, apiKey: emu.assistantKey });
    const first = await drain(
      chat.send({ fp: 'anonymous', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'How do I configure webhooks?' }] }] }),
    );
    await drain(
      chat.send({
        fp: 'anonymous',
        threadId: first.threadId,
        threadKey: first.threadKey,
        messages: [
          { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'How do I configure webhooks?' }] },
          { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'And how do I verify the signature?' }] },
        ],
      }),
    );
    const c = agent(base);
    const job = await c.createJob('Fix the retry table');
    await c.getJob(job.id);
    await c.sendMessage(job.id, 'Also the FAQ');
    assert.equal(emu.requests.length, 5);
    for (const r of emu.requests) {
      const expected = r.path.includes('/assistant/') ? 'assistant' : 'admin';
      assert.equal(r.auth, expected, `${r.method} ${r.path}`);
      const rest = JSON.stringify({ ...r, auth: undefined });
      for (const key of [emu.adminKey, emu.assistantKey]) assert.ok(!rest.includes(key), `${r.path}: a key outside the Authorization header`);
    }
  });
});
