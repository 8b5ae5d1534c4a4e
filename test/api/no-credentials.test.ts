import * as assert from 'node:assert/strict';
import { AgentClient, AssistantClient, ServiceError } from '../../src/api';
import { answersWithoutCors } from '../../src/api/crossOrigin';
import { loadImage } from '../../src/chat/core/imageLoader';
import { english } from '../../src/common/l10n';
import { SAMPLE_JOB as job } from './helpers';

// Issue 27: in a browser extension host (github.dev, vscode.dev, code-server's web worker) a
// fetch without `credentials: 'omit'` sends the page's cookies to a service on the same origin,
// and a service that allowed credentials could read them. Every request the extension makes says
// `omit`: each client call, the cross-origin look, and an image loaded on a click. A scripted
// fetch records every init it is given, whatever the call answers.

interface Call {
  url: string;
  init: RequestInit;
}

const ADMIN = 'svc_7fK2pQ9xLm3Zt8Rw';
const ASSISTANT = 'svc_dsc_Hq4nV8yTb2Kp6Lm1';
const sse = ['{"type":"start"}', '{"type":"text-start","id":"t"}', '{"type":"text-delta","id":"t","delta":"Hi"}', '{"type":"finish"}', '[DONE]']
  .map((c) => `data: ${c}\n\n`)
  .join('');
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Records each call; answers what the URL asks for (a job, a stream, an image), or fails as told. */
function recordingFetch(answer: (call: Call) => Response | Promise<Response>): typeof fetch & { calls: Call[] } {
  const calls: Call[] = [];
  const f = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const call = { url: String(input), init };
    calls.push(call);
    return answer(call);
  }) as typeof fetch & { calls: Call[] };
  f.calls = calls;
  return f;
}

const byPath = (call: Call): Response => {
  if (call.url.endsWith('/message') && call.url.includes('/assistant/'))
    return new Response(sse, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  if (call.url.endsWith('.png')) return new Response(PNG, { status: 200, headers: { 'content-type': 'image/png' } });
  return new Response(JSON.stringify(job), { status: 200, headers: { 'content-type': 'application/json' } });
};

async function settle(p: Promise<unknown>): Promise<void> {
  await p.catch((e: unknown) => {
    if (!(e instanceof ServiceError)) throw e;
  });
}

async function ask(f: typeof fetch): Promise<void> {
  const client = new AssistantClient({ baseUrl: 'https://api.example.com', domain: 'acme', apiKey: ASSISTANT, fetch: f });
  const it = client.send({ fp: 'anonymous', messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: 'hi' }] }], threadId: null });
  for (let step = await it.next(); !step.done; step = await it.next());
}

function assertAllOmit(calls: Call[], expected: number): void {
  assert.equal(calls.length, expected, `${calls.length} requests: ${calls.map((c) => c.url).join(', ')}`);
  for (const { url, init } of calls) assert.equal(init.credentials, 'omit', `${init.method ?? 'GET'} ${url} does not say credentials: 'omit'`);
}

describe("every request says credentials: 'omit' (no cookies from a browser host)", () => {
  it('the agent client: create, follow-up and poll, answered or failing', async () => {
    const ok = recordingFetch(byPath);
    const agent = new AgentClient({ baseUrl: 'https://api.example.com', projectId: 'p', apiKey: ADMIN, fetch: ok, getRetryDelaysMs: [1, 1] });
    await agent.createJob('Fix it');
    await agent.sendMessage('job_1', 'More');
    await agent.getJob('job_1');
    const failing = recordingFetch(() => new Response('down', { status: 503 }));
    const again = new AgentClient({ baseUrl: 'https://api.example.com', projectId: 'p', apiKey: ADMIN, fetch: failing, getRetryDelaysMs: [1, 1] });
    await settle(again.getJob('job_1'));
    assertAllOmit([...ok.calls, ...failing.calls], 6);
  });

  it('the assistant client: a streamed answer, and a refused one', async () => {
    const ok = recordingFetch(byPath);
    await ask(ok);
    const refused = recordingFetch(() => new Response('{"error":"no"}', { status: 401, headers: { 'content-type': 'application/json' } }));
    await settle(ask(refused));
    assertAllOmit([...ok.calls, ...refused.calls], 2);
  });

  it('a browser’s failed request and the no-cors look that follows it', async () => {
    const browser = recordingFetch((c) => {
      if (c.init.mode === 'no-cors') return new Response(null, { status: 200 });
      throw new TypeError('Failed to fetch');
    });
    await settle(ask(browser));
    assert.equal(await answersWithoutCors('https://api.example.com/x', browser), true);
    assertAllOmit(browser.calls, 3);
  });

  it('an image loaded on a click', async () => {
    const f = recordingFetch(byPath);
    const loaded = await loadImage('https://docs.example.com/a.png', english, { fetch: f });
    assert.ok('dataUrl' in loaded, JSON.stringify(loaded));
    assertAllOmit(f.calls, 1);
  });
});
