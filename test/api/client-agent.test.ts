import * as assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import { AgentClient, type AgentJob } from '../../src/api';
import { startEmulator, type RunningEmulator } from '../emulator';
import { closedPort, faultFetch, rejection, words } from './helpers';

// AgentClient against the local service emulator over real HTTP: the job lifecycle, each prompt
// word the emulator understands, limits, retries, where the admin key may go, and the network
// failures a user can run into. Each test asserts what the user would get: the kind and the typed
// reason the words are written from (test/unit/error-words.test.ts holds the words themselves).

type Emulator = RunningEmulator;

const SHORT = { requestTimeoutMs: 400, streamIdleTimeoutMs: 400, getRetryDelaysMs: [20, 20] };

describe('AgentClient against the emulator', function () {
  this.timeout(10_000);
  let emu: Emulator;
  let host: string;

  before(async () => {
    emu = await startEmulator({ port: 0, jobDurationMs: 60 });
    host = new URL(emu.url).host;
  });
  after(async () => {
    await emu?.close();
  });
  beforeEach(() => emu.reset());
  afterEach(() => {
    // Agent calls go to the agent endpoints only, and never with the public assistant key.
    for (const r of emu.requests) {
      assert.match(r.path, /^\/v2\/agent\/[^/]+\/job/, `${r.method} ${r.path}`);
      assert.notEqual(r.auth, 'assistant');
    }
  });

  function client(opts: Partial<ConstructorParameters<typeof AgentClient>[0]> = {}): AgentClient {
    return new AgentClient({ baseUrl: emu.url, projectId: emu.projectId, apiKey: emu.adminKey, ...SHORT, ...opts });
  }
  const posts = () => emu.requests.filter((r) => r.method === 'POST').length;
  const gets = () => emu.requests.filter((r) => r.method === 'GET').length;

  async function pollUntilDone(c: AgentClient, id: string): Promise<AgentJob> {
    for (let i = 0; i < 100; i++) {
      const job = await c.getJob(id);
      if (job.status !== 'active') return job;
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.fail('job never finished');
  }

  describe('job lifecycle', () => {
    it('createJob → active job without a link; polling ends completed with a pull request link', async () => {
      const c = client();
      const job = await c.createJob('Fix the broken link on the webhooks page');
      assert.equal(job.status, 'active');
      assert.equal(job.prLink, null);
      assert.match(job.source.repository, /^https:\/\/github\.com\//);
      const done = await pollUntilDone(c, job.id);
      assert.equal(done.id, job.id);
      assert.equal(done.status, 'completed');
      assert.match(done.prLink ?? '', /^https?:\/\//);
      const create = emu.requests[0]!;
      assert.equal(create.path, `/v2/agent/${emu.projectId}/job`);
      assert.equal(create.auth, 'admin');
      assert.deepEqual(create.body, { prompt: 'Fix the broken link on the webhooks page' });
      assert.equal(create.status, 201);
    });

    it('[[outcome:no-changes]] completes without a pull request', async () => {
      const c = client();
      const done = await pollUntilDone(c, (await c.createJob('Check the intro [[outcome:no-changes]]')).id);
      assert.equal(done.status, 'completed');
      assert.equal(done.prLink, null);
    });

    it('[[outcome:fail]] ends failed', async () => {
      const c = client();
      assert.equal((await pollUntilDone(c, (await c.createJob('Rewrite everything [[outcome:fail]]')).id)).status, 'failed');
    });

    it('[[outcome:archive]] ends archived, with archivedAt', async () => {
      const c = client();
      const done = await pollUntilDone(c, (await c.createJob('Old task [[outcome:archive]]')).id);
      assert.equal(done.status, 'archived');
      assert.ok(done.archivedAt && Number.isFinite(Date.parse(done.archivedAt)));
    });

    it('sendMessage makes the job active again, and it completes again', async () => {
      const c = client();
      const job = await c.createJob('Fix the typo');
      await pollUntilDone(c, job.id);
      const followed = await c.sendMessage(job.id, 'Also fix the title');
      assert.equal(followed.id, job.id);
      assert.equal(followed.status, 'active');
      assert.equal((await pollUntilDone(c, job.id)).status, 'completed');
      const message = emu.requests.find((r) => r.path.endsWith('/message'))!;
      assert.equal(message.path, `/v2/agent/${emu.projectId}/job/${encodeURIComponent(job.id)}/message`);
      assert.deepEqual(message.body, { prompt: 'Also fix the title' });
    });

    it('getJob of an unknown id: notFound, "Job … was not found on the service", not retried', async () => {
      const e = await rejection(client().getJob('job_does_not_exist'), emu.adminKey);
      assert.equal(e.kind, 'notFound');
      assert.deepEqual(e.reason, { code: 'jobNotFound', projectId: emu.projectId, jobId: 'job_does_not_exist' });
      assert.equal(words(e), 'Job job_does_not_exist was not found on the service. It may have been deleted, or belong to another project.');
      assert.equal(gets(), 1);
    });

    it('sendMessage to an unknown id: notFound', async () => {
      const e = await rejection(client().sendMessage('job_nope', 'hello'));
      assert.equal(e.kind, 'notFound');
      assert.match(words(e), /^Job job_nope was not found/);
    });

    it('an unknown project: notFound, with the project id as the option to check', async () => {
      const e = await rejection(client({ projectId: 'no-such-project' }).createJob('x'));
      assert.equal(e.kind, 'notFound');
      assert.deepEqual(e.reason, { code: 'projectNotFound', projectId: 'no-such-project' });
      assert.equal(e.option, 'projectId');
    });

    it('a blank prompt is refused before any request', async () => {
      const e = await rejection(client().createJob('   '));
      assert.equal(e.kind, 'invalidInput');
      assert.deepEqual(e.reason, { code: 'promptEmpty' });
      assert.match(words(e), /prompt is empty/);
      assert.equal(emu.requests.length, 0);
    });

    it('a wrong admin key: unauthorized, the admin key refused (the key to set again); the key never shows', async () => {
      const wrong = 'svc_wrongwrongwrong123';
      const e = await rejection(client({ apiKey: wrong }).createJob('x'), wrong, emu.adminKey);
      assert.equal(e.kind, 'unauthorized');
      assert.deepEqual(e.reason, { code: 'keyRefused', service: 'agent' });
      assert.equal(e.option, 'apiKey');
      assert.equal(words(e), 'The admin API key was refused. It may have expired or been revoked. Set a new one with "Docs Assistant: Set Admin API Key…".');
    });

    it('an assistant key is refused before sending', async () => {
      const e = await rejection(client({ apiKey: emu.assistantKey }).createJob('x'), emu.assistantKey);
      assert.equal(e.kind, 'invalidInput');
      assert.deepEqual(e.reason, { code: 'keyInvalid', keyKind: 'admin', problem: 'assistantKeyForAdmin' });
      assert.match(words(e), /That is an assistant key/);
      assert.equal(emu.requests.length, 0);
    });

    it('rate limit: past the per-hour limit, rateLimited with when to retry', async () => {
      const limited = await startEmulator({ port: 0, jobDurationMs: 60, rateLimitPerHour: 2 });
      try {
        const c = new AgentClient({ baseUrl: limited.url, projectId: limited.projectId, apiKey: limited.adminKey, ...SHORT });
        await c.createJob('one');
        await c.createJob('two');
        const e = await rejection(c.createJob('three'), limited.adminKey);
        assert.equal(e.kind, 'rateLimited');
        assert.equal(e.status, 429);
        assert.ok(e.retryAfterMs !== undefined && e.retryAfterMs > 0);
        assert.match(
          words(e),
          /^Too many requests: the service's rate limit was reached\. Try again after \d{2}:\d{2}(:\d{2})?\. \(Agent jobs allow 100 new jobs/,
        );
        assert.equal(e.reason.code, 'rateLimited');
        if (e.reason.code === 'rateLimited') {
          assert.equal(e.reason.service, 'agent');
          assert.equal(e.reason.perHour, 100);
          assert.ok(Math.abs(e.reason.retryAt! - (Date.now() + e.retryAfterMs!)) < 5000, 'retryAt is when Retry-After is over');
        }
      } finally {
        await limited.close();
      }
    });
  });

  describe('fault words in the prompt', () => {
    it('[[fault:500]]: server error, and create is never retried', async () => {
      const e = await rejection(client().createJob('Fix it [[fault:500]]'), emu.adminKey);
      assert.equal(e.kind, 'server');
      assert.deepEqual(e.reason, { code: 'serverError' });
      assert.equal(words(e), 'The service had a problem (HTTP 500). Try again in a moment.');
      assert.equal(posts(), 1);
    });

    it("[[fault:503]] on a follow-up: server error with the service's words, never retried", async () => {
      const c = client();
      const job = await c.createJob('Fix the typo');
      const e = await rejection(c.sendMessage(job.id, 'More [[fault:503]]'));
      assert.equal(e.kind, 'server');
      assert.equal(e.status, 503);
      assert.equal(e.detail, 'The agent service is temporarily unavailable.');
      assert.equal(posts(), 2);
    });

    it('[[fault:429]]: rateLimited, honouring Retry-After', async () => {
      const e = await rejection(client().createJob('Fix it [[fault:429]]'));
      assert.equal(e.kind, 'rateLimited');
      assert.equal(e.retryAfterMs, 30_000);
      assert.match(words(e), /Try again after \d{2}:\d{2}:\d{2}\./);
    });

    it('[[fault:stall-headers]]: timeout after requestTimeoutMs', async () => {
      const t0 = Date.now();
      const e = await rejection(client().createJob('Fix it [[fault:stall-headers]]'));
      assert.equal(e.kind, 'timeout');
      assert.deepEqual(e.reason, { code: 'headersTimeout', host, seconds: 0.4 });
      assert.equal(e.option, 'requestTimeoutMs', 'the timeout is the option to raise');
      assert.equal(words(e), `${host} did not answer within 0.4 s. Try again in a moment, or raise docsAssistant.requestTimeoutSeconds.`);
      assert.ok(Date.now() - t0 < 3000);
    });

    it('[[fault:drop]]: network error, not retried', async () => {
      const e = await rejection(client().createJob('Fix it [[fault:drop]]'));
      assert.equal(e.kind, 'network');
      assert.deepEqual(e.reason, { code: 'unreachable', host, cause: 'closed' });
      assert.match(words(e), new RegExp(`^Could not reach ${host.replace(/\./g, '\\.')} \\(the connection was closed\\)`));
      assert.equal(posts(), 1);
    });

    it('[[fault:bad-json]]: protocol error, the body is not JSON', async () => {
      const e = await rejection(client().createJob('Fix it [[fault:bad-json]]'));
      assert.equal(e.kind, 'protocol');
      assert.deepEqual(e.reason, { code: 'notJson' });
      assert.equal(e.status, 200);
      assert.equal(e.option, 'baseUrl');
      assert.match(words(e), /^The service answered HTTP 200 but not with a job \(the body is not JSON\)\. Try again in a moment/);
    });

    it('[[fault:bad-job]]: protocol error naming the bad field', async () => {
      const e = await rejection(client().createJob('Fix it [[fault:bad-job]]'));
      assert.equal(e.kind, 'protocol');
      assert.deepEqual(e.reason, { code: 'badJob', field: 'status', expected: 'one of active, completed, archived, failed', got: '"weird"' });
      assert.equal(
        words(e),
        'The service sent an agent job that cannot be read: "status" should be one of active, completed, archived, failed, but it is "weird".',
      );
    });
  });

  describe('polling retries (getJob only)', () => {
    it('500 on every poll: two retries, then the server error', async () => {
      const e = await rejection(client({ fetch: faultFetch('500') }).getJob('job_1'));
      assert.equal(e.kind, 'server');
      assert.equal(gets(), 3);
    });

    it('a dropped connection on every poll: two retries, then the network error', async () => {
      const e = await rejection(client({ fetch: faultFetch('drop') }).getJob('job_1'));
      assert.equal(e.kind, 'network');
      assert.equal(gets(), 3);
    });

    it('429 and timeouts are not retried: the poller backs off instead', async () => {
      assert.equal((await rejection(client({ fetch: faultFetch('429') }).getJob('job_1'))).kind, 'rateLimited');
      assert.equal(gets(), 1);
      assert.equal((await rejection(client({ fetch: faultFetch('stall-headers') }).getJob('job_1'))).kind, 'timeout');
      assert.equal(gets(), 2);
    });

    it('the caller aborts during the pause between retries: aborted at once', async () => {
      const ac = new AbortController();
      const t0 = Date.now();
      setTimeout(() => ac.abort(), 100);
      const e = await rejection(client({ fetch: faultFetch('500'), getRetryDelaysMs: [5000, 5000] }).getJob('job_1', { signal: ac.signal }));
      assert.equal(e.kind, 'aborted');
      assert.ok(Date.now() - t0 < 1000, `${Date.now() - t0} ms`);
      assert.equal(gets(), 1);
    });
  });

  describe('where the admin key may go', () => {
    /** A fetch that records every call instead of making it. */
    function spy(): { fetch: typeof fetch; calls: string[] } {
      const calls: string[] = [];
      return { calls, fetch: async (input) => (calls.push(String(input)), new Response('{}', { status: 500 })) };
    }

    for (const baseUrl of ['http://docs.example.com', 'http://127.0.0.1.nip.io:8080', 'http://localhost.example.com', 'http://[::2]:3000', 'http://10.0.0.5']) {
      it(`plain http to a non-loopback host (${baseUrl}) is refused before any request`, async () => {
        const s = spy();
        for (const call of [(c: AgentClient) => c.createJob('x'), (c: AgentClient) => c.getJob('job_1'), (c: AgentClient) => c.sendMessage('job_1', 'x')]) {
          const e = await rejection(call(client({ baseUrl, fetch: s.fetch })), emu.adminKey);
          assert.equal(e.kind, 'invalidInput');
          assert.deepEqual(e.reason, { code: 'plainHttp', service: 'agent', host: new URL(baseUrl).host, httpsUrl: baseUrl.replace(/^http:/, 'https:') });
          assert.match(words(e), /^The admin key is only sent over https\. Change docsAssistant\.baseUrl to https:\/\//);
        }
        assert.deepEqual(s.calls, []);
      });
    }

    it('plain http to loopback (the local emulator) is allowed, by name too', async () => {
      const port = new URL(emu.url).port;
      for (const baseUrl of [emu.url, `http://localhost:${port}`]) {
        assert.equal((await client({ baseUrl }).createJob('Fix it')).status, 'active', baseUrl);
      }
      assert.ok(emu.requests.every((r) => r.auth === 'admin'));
    });

    it('TLS error (https:// to the plain-http emulator)', async () => {
      const e = await rejection(client({ baseUrl: emu.url.replace(/^http:/, 'https:') }).createJob('x'), emu.adminKey);
      assert.equal(e.kind, 'network');
      assert.deepEqual(e.reason, { code: 'tls', host });
      assert.equal(e.notSent, true);
      assert.match(words(e), new RegExp(`^Could not make a secure connection to ${host.replace(/\./g, '\\.')}\\.`));
      assert.equal(emu.requests.length, 0);
    });

    it('the caller aborts while waiting: aborted', async () => {
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 50);
      const e = await rejection(client({ requestTimeoutMs: 5000 }).createJob('Fix it [[fault:stall-headers]]', { signal: ac.signal }));
      assert.equal(e.kind, 'aborted');
      assert.deepEqual(e.reason, { code: 'aborted' });
      assert.equal(words(e), 'The request was cancelled.');
    });
  });
});

describe('AgentClient over real sockets without a server', function () {
  this.timeout(10_000);
  const KEY = 'svc_7fK2pQ9xLm3Zt8Rw';
  const client = (baseUrl: string, requestTimeoutMs = 2000) =>
    new AgentClient({ baseUrl, projectId: 'proj', apiKey: KEY, requestTimeoutMs, getRetryDelaysMs: [20, 20] });

  it('connection refused (a closed port); getJob retried twice, then the error', async () => {
    const port = await closedPort();
    const t0 = Date.now();
    const e = await rejection(client(`http://127.0.0.1:${port}`).getJob('job_1'), KEY);
    assert.equal(e.kind, 'network');
    assert.deepEqual(e.reason, { code: 'unreachable', host: `127.0.0.1:${port}`, cause: 'refused' });
    assert.equal(e.notSent, true);
    assert.equal(words(e), `Could not reach 127.0.0.1:${port} (connection refused). Check docsAssistant.baseUrl and your connection.`);
    assert.ok(Date.now() - t0 >= 40, 'waited between the retries');
  });

  it('connection refused on createJob: one attempt only', async () => {
    const port = await closedPort();
    const e = await rejection(client(`http://127.0.0.1:${port}`).createJob('x'), KEY);
    assert.equal(e.kind, 'network');
  });

  it('DNS failure (a .invalid host)', async () => {
    const e = await rejection(client('https://docs-assistant-test.invalid', 5000).createJob('x'), KEY);
    assert.equal(e.kind, 'network');
    assert.deepEqual(e.reason, { code: 'unreachable', host: 'docs-assistant-test.invalid', cause: 'dnsFailed' });
  });

  it('a redirect is not followed, so the admin key goes nowhere else', async () => {
    const seen: { url?: string; auth?: string }[] = [];
    const server = createHttpServer((req, res) => {
      seen.push({ url: req.url, auth: req.headers.authorization });
      res.writeHead(308, { location: '/v2/agent/proj/job-elsewhere' }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const e = await rejection(client(`http://127.0.0.1:${port}`).createJob('x'), KEY);
      assert.equal(e.kind, 'protocol');
      assert.deepEqual(e.reason, { code: 'redirected', location: '/v2/agent/proj/job-elsewhere' });
      assert.equal(e.status, 308);
      assert.equal(e.option, 'baseUrl', 'the address is what to change');
      assert.deepEqual(
        seen.map((s) => s.url),
        ['/v2/agent/proj/job'],
      );
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
