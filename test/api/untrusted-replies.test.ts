import * as assert from 'node:assert/strict';
import { AgentJobs } from '../../src/agent/core/agentJobs';
import { realClock } from '../../src/agent/core/poller';
import { AgentClient, ServiceError } from '../../src/api';
import { MAX_RETRY_AFTER_MS } from '../../src/api/limits';
import { AssistantClient } from '../../src/api/assistantClient';
import { ChatStore } from '../../src/chat/core/chatStore';
import type { AnswerView } from '../../src/common/protocol';
import { FAULT_HEADER, HOSTILE_SOURCES, HOSTILE_TOOL_RESULTS, startEmulator, type RunningEmulator } from '../emulator';
import { MemoryMemento, words } from './helpers';
import { testChatSession } from './testChatSession';

// Issue 16: what the service sends is not trusted. A reply about another job than the one asked
// for (item 12), a Retry-After no timer can hold (item 6) and source links that are not web
// links (item 4), each over real HTTP from the emulator, through the model the user looks at.

function faultFetch(mode: string): typeof fetch {
  return (input, init = {}) => fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), [FAULT_HEADER]: mode } });
}

async function until(what: string, check: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function rejection(p: Promise<unknown>): Promise<ServiceError> {
  const e: unknown = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  assert.ok(e instanceof ServiceError, `expected a ServiceError, got ${String(e)}`);
  return e;
}

/** "14:05" or "14:05:07": a time of day, never a count that can overflow. */
const TIME_OF_DAY = /Try again after \d{2}:\d{2}(:\d{2})?\./;

describe('replies the client does not take on trust (issue 16)', function () {
  this.timeout(20_000);
  let emu: RunningEmulator;

  before(async () => {
    emu = await startEmulator({ port: 0, jobDurationMs: 600_000, deltaDelayMs: 0 });
  });
  after(() => emu?.close());
  beforeEach(() => emu.reset());

  const agent = (fault?: string): AgentClient =>
    new AgentClient({
      baseUrl: emu.url,
      projectId: emu.projectId,
      apiKey: emu.adminKey,
      requestTimeoutMs: 3000,
      getRetryDelaysMs: [10, 10],
      fetch: fault ? faultFetch(fault) : undefined,
    });

  function jobsWith(use: { fault?: string }, memento = new MemoryMemento()): AgentJobs {
    return new AgentJobs({
      memento,
      baseUrl: emu.url,
      projectId: emu.projectId,
      client: async () => agent(use.fault),
      clock: realClock,
      baseIntervalMs: () => 60_000,
      isFocused: () => true,
    });
  }

  describe('item 12: every reply names the job that was asked about', () => {
    it('getJob and sendMessage refuse a job with another id: a protocol error that names both and says what to do', async () => {
      const job = await agent().createJob('Fix the retry table');
      for (const call of [(c: AgentClient) => c.getJob(job.id), (c: AgentClient) => c.sendMessage(job.id, 'Also the FAQ')]) {
        const e = await rejection(call(agent('other-id')));
        assert.equal(e.kind, 'protocol');
        assert.equal(e.reason.code, 'otherJob');
        if (e.reason.code === 'otherJob') {
          assert.equal(e.reason.askedFor, job.id);
          assert.match(e.reason.answeredFor, /^job_[0-9a-f]+$/);
          assert.notEqual(e.reason.answeredFor, job.id);
        }
        assert.equal(e.option, 'baseUrl', 'the address is what to check if it keeps happening');
        assert.match(
          words(e),
          new RegExp(
            `^The service answered about job job_[0-9a-f]+ when asked about job ${job.id}\\. Its answer was not used\\. Try again in a moment; if it keeps happening, check docsAssistant\\.baseUrl\\.$`,
          ),
        );
      }
    });

    it('a poll answered with another job leaves the listed job as it was, under its own id, and polling goes on', async () => {
      const use: { fault?: string } = {};
      const jobs = jobsWith(use);
      try {
        const started = await jobs.create('Fix the retry table');
        use.fault = 'other-id';
        jobs.refresh(started.job.id);
        await until('the poll to be refused', () => jobs.store.get(started.job.id)?.pollError !== undefined);
        assert.deepEqual(
          jobs.store.all().map((r) => r.job),
          [started.job],
          'the job is listed once, as it was last known',
        );
        assert.match(jobs.store.get(started.job.id)!.pollError!, /when asked about job/);
        assert.equal(jobs.poller.isPolling(started.job.id), true);
      } finally {
        jobs.dispose();
      }
    });
  });

  describe('item 6: a Retry-After no timer can hold', () => {
    it('the client clamps it to an hour and says the time of day to try again', async () => {
      const e = await rejection(agent('429-huge').getJob('job_1'));
      assert.equal(e.kind, 'rateLimited');
      assert.equal(e.retryAfterMs, MAX_RETRY_AFTER_MS);
      assert.match(words(e), TIME_OF_DAY);
      assert.doesNotMatch(words(e), /Infinity|NaN|\d{5,} (seconds|minutes|hours)/);
    });

    it('polling waits instead of spinning: one request in a second, where an overflowing timer would fire every millisecond', async () => {
      const use: { fault?: string } = {};
      const jobs = jobsWith(use);
      try {
        const started = await jobs.create('Fix the retry table');
        use.fault = '429-huge';
        const before = emu.requests.length;
        jobs.refresh(started.job.id);
        await until('the 429', () => jobs.store.get(started.job.id)?.pollError !== undefined);
        await new Promise((r) => setTimeout(r, 1000));
        assert.equal(emu.requests.length - before, 1, 'polled once, then waited');
        assert.match(jobs.store.get(started.job.id)!.pollError!, TIME_OF_DAY);
        assert.equal(jobs.poller.isPolling(started.job.id), true, 'and it will poll again after the wait');
      } finally {
        jobs.dispose();
      }
    });

    it('the chat shows a finite retry time, at most an hour away, as a time of day', async () => {
      const store = new ChatStore(new MemoryMemento(), () => `id-${Math.random()}`);
      const session = testChatSession({
        store,
        client: async () => new AssistantClient({ baseUrl: emu.url, domain: emu.domain, apiKey: emu.assistantKey, fetch: faultFetch('429-huge') }),
      });
      const t0 = Date.now();
      await session.ask('What are the rate limits?');
      await until('the answer to settle', () => !session.busy);
      const a = store.current.turns[0]!.answer;
      assert.equal(a.status, 'error');
      assert.ok(Number.isFinite(a.error!.retryAt), `retryAt ${a.error!.retryAt}`);
      assert.ok(a.error!.retryAt! <= Date.now() + MAX_RETRY_AFTER_MS && a.error!.retryAt! >= t0 + MAX_RETRY_AFTER_MS - 1000, 'an hour from now');
      assert.match(a.error!.message, TIME_OF_DAY);
    });
  });

  describe('item 4: source links are checked on the host, before the webview sees them', () => {
    for (const apiVersion of ['v2', 'v1'] as const) {
      it(`${apiVersion}: only http(s) links without a user name or password reach the view; a bad link keeps its title as plain text`, async () => {
        const memento = new MemoryMemento();
        const store = new ChatStore(memento, () => `id-${Math.random()}`);
        const posted: unknown[] = [];
        const session = testChatSession({
          store,
          client: async () =>
            new AssistantClient({ baseUrl: emu.url, domain: emu.domain, apiKey: emu.assistantKey, apiVersion, fetch: faultFetch('hostile-sources') }),
        });
        session.onDidPatch(({ patches }) => posted.push(patches));
        await session.ask('How do I configure webhooks?');
        await until('the answer', () => !session.busy);
        const a: AnswerView = store.current.turns[0]!.answer;
        assert.equal(a.status, 'done', a.error?.message);
        for (const s of a.sources) if (s.url !== undefined) assert.match(s.url, /^https?:\/\/[^@/]+\//, `a link that is not a plain web link: ${s.url}`);
        const titles = a.sources.filter((s) => s.url === undefined).map((s) => s.title);
        const expected = [...HOSTILE_SOURCES.filter((s) => s.title !== undefined).map((s) => s.title!), ...HOSTILE_TOOL_RESULTS.map((r) => r.title)];
        assert.deepEqual(titles.sort(), expected.sort(), 'each refused link keeps its title, as text');
        assert.ok(
          a.sources.some((s) => s.url?.startsWith(emu.url)),
          'the real sources keep their links',
        );
        const everything = JSON.stringify(posted) + JSON.stringify(session.snapshot({ agentAvailable: false })) + [...memento.data.values()].join('');
        for (const bad of [...HOSTILE_SOURCES.map((s) => s.url), ...HOSTILE_TOOL_RESULTS.map((r) => r.url)]) {
          assert.ok(!everything.includes(JSON.stringify(bad).slice(1, -1)), `${bad} reached the webview or the store`);
        }
      });
    }
  });
});
