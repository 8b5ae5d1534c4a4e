import * as assert from 'node:assert/strict';
import { AgentClient, AssistantClient, ServiceError } from '../../src/api';
import { describeForUser } from '../../src/host/core/errorWords';
import { english } from '../../src/common/l10n';

// Issue 20: in a browser, a service without CORS headers and a service that is down both make
// fetch throw a bare "TypeError: Failed to fetch". The client looks a second time (a no-cors
// request to the service's origin, which a browser sends without the service's permission) and
// says which it was. Here against a scripted fetch that fails the way a browser's does; the
// same runs in Chromium against the emulator in test/webview/cross-origin.test.ts.

const ADMIN = 'svc_7fK2pQ9xLm3Zt8Rw';
const ASSISTANT = 'svc_dsc_Hq4nV8yTb2Kp6Lm1';

interface Call {
  url: string;
  init: RequestInit;
}

/** fetch as a browser's: the request fails with a bare TypeError; the no-cors look answers or fails as told. */
function browserFetch(probe: 'answers' | 'fails'): typeof fetch & { calls: Call[] } {
  const calls: Call[] = [];
  const f = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ url: String(input), init });
    if (init.mode === 'no-cors' && probe === 'answers') return new Response(null, { status: 200 });
    throw new TypeError('Failed to fetch');
  }) as typeof fetch & { calls: Call[] };
  f.calls = calls;
  return f;
}

async function failure(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ServiceError, `a ServiceError, not ${String(e)}`);
    return e;
  }
  assert.fail('it should have failed');
}

const ask = (fetchFn: typeof fetch) =>
  (async () => {
    const client = new AssistantClient({ baseUrl: 'https://api.example.com/base', domain: 'acme', apiKey: ASSISTANT, fetch: fetchFn });
    const it = client.send({ fp: 'anonymous', messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: 'hi' }] }], threadId: null });
    for (let step = await it.next(); !step.done; step = await it.next());
  })();

describe('a service a browser may not call (no CORS headers)', () => {
  it('says so, after one key-less no-cors look at the service’s origin', async () => {
    const fetch = browserFetch('answers');
    const err = await failure(ask(fetch));
    assert.equal(err.reason.code, 'crossOriginRefused');
    assert.equal(err.kind, 'network');
    assert.equal(fetch.calls.length, 2, 'the request, then one look');
    const look = fetch.calls[1]!;
    assert.equal(look.url, 'https://api.example.com/', 'the origin only: no path, no query');
    assert.equal(look.init.mode, 'no-cors');
    assert.equal(look.init.credentials, 'omit');
    assert.equal(look.init.method, 'GET');
    assert.equal(look.init.headers, undefined, 'no key, no header at all');
    assert.equal(look.init.body, undefined);
    const words = describeForUser(err, english);
    assert.match(words.message, /api\.example\.com does not accept requests from a browser \(its answers have no CORS headers\)/);
    assert.match(words.message, /Use VS Code Desktop/, 'it says what to use instead');
    assert.ok(!words.message.includes(ASSISTANT));
  });

  it('the agent’s calls say the same', async () => {
    const fetch = browserFetch('answers');
    const client = new AgentClient({ baseUrl: 'https://api.example.com', projectId: 'p', apiKey: ADMIN, fetch, getRetryDelaysMs: [] });
    const err = await failure(client.createJob('Fix the table'));
    assert.equal(err.reason.code, 'crossOriginRefused');
    assert.ok(
      fetch.calls.every((c) => c.init.mode !== 'no-cors' || c.init.headers === undefined),
      'the look never carries the admin key',
    );
  });

  it('a service that is down stays "could not reach"', async () => {
    const err = await failure(ask(browserFetch('fails')));
    assert.equal(err.reason.code, 'unreachable');
  });

  it('Node’s fetch (its failure has the socket error as cause) is never looked at twice', async () => {
    const calls: string[] = [];
    const fetch: typeof globalThis.fetch = async (input: RequestInfo | URL) => {
      calls.push(String(input));
      throw Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    };
    const err = await failure(ask(fetch));
    assert.equal(err.reason.code, 'unreachable');
    assert.equal(calls.length, 1);
  });

  it('a cancel during the look is a cancel', async () => {
    const abort = new AbortController();
    const fetch: typeof globalThis.fetch = async (_input: RequestInfo | URL, init: RequestInit = {}) => {
      if (init.mode !== 'no-cors') throw new TypeError('Failed to fetch');
      abort.abort();
      // As real fetch: an aborted signal rejects at once.
      if (init.signal!.aborted) throw new DOMException('aborted', 'AbortError');
      return new Promise<Response>((_, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    };
    const client = new AssistantClient({ baseUrl: 'https://api.example.com', domain: 'acme', apiKey: ASSISTANT, fetch });
    const it = client.send(
      { fp: 'anonymous', messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: 'hi' }] }], threadId: null },
      { signal: abort.signal },
    );
    const err = await failure(
      (async () => {
        for (let s = await it.next(); !s.done; s = await it.next());
      })(),
    );
    assert.equal(err.reason.code, 'aborted', 'a look the user cancelled proves nothing');
  });
});
