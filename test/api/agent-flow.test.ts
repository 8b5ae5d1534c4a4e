import * as assert from 'node:assert/strict';
import { AgentJobs, LostResponseError } from '../../src/agent/core/agentJobs';
import type { JobRecord } from '../../src/agent/core/jobStore';
import { realClock } from '../../src/agent/core/poller';
import { AgentClient } from '../../src/api/agentClient';
import { ServiceError } from '../../src/api/errors';
import { startEmulator, type RunningEmulator } from '../emulator';
import { MemoryMemento, words } from './helpers';

// The whole agent flow below the UI: the real AgentJobs (store, budget, poller) with the real
// client, over HTTP, against the emulator. Only the clock is fast: jobs finish in 300 ms and the
// poller's first interval is 1 s (its floor).

describe('agent flow against the emulator', function () {
  this.timeout(20_000);
  let emu: RunningEmulator;
  let memento: MemoryMemento;
  let finished: JobRecord[];
  let authFailures: ServiceError[];
  let jobs: AgentJobs;

  function makeJobs(apiKey = emu.adminKey): AgentJobs {
    const made = new AgentJobs({
      memento,
      baseUrl: emu.url,
      projectId: emu.projectId,
      client: async () => new AgentClient({ baseUrl: emu.url, projectId: emu.projectId, apiKey, requestTimeoutMs: 2000 }),
      clock: realClock,
      baseIntervalMs: () => 1000,
      isFocused: () => true,
      usesPerHour: 6,
    });
    made.onDidFinishJob((r) => finished.push(r));
    made.onDidFailAuth((e) => authFailures.push(e));
    return made;
  }

  async function until(what: string, check: () => boolean, ms = 8000): Promise<void> {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  before(async () => {
    emu = await startEmulator({ port: 0, jobDurationMs: 300, rateLimitPerHour: 6 });
  });
  after(() => emu.close());
  beforeEach(() => {
    emu.reset();
    memento = new MemoryMemento();
    finished = [];
    authFailures = [];
    jobs = makeJobs();
  });
  afterEach(() => jobs.dispose());

  it('creates a job, polls it to completion with a PR, and stops polling', async () => {
    const r = await jobs.create('Fix the timeout default on the configuration page');
    assert.equal(r.job.status, 'active');
    assert.equal(jobs.store.all().length, 1, 'the job is in the list at once');
    assert.ok(jobs.poller.isPolling(r.job.id));
    await until('job completes', () => finished.length === 1);
    const done = jobs.store.get(r.job.id)!;
    assert.equal(done.job.status, 'completed');
    assert.match(done.job.prLink ?? '', /^http:\/\/127\.0\.0\.1:\d+\/pr\//);
    assert.equal(jobs.poller.timerCount, 0);
    const page = await fetch(done.job.prLink!);
    assert.equal(page.status, 200, 'the PR link opens something real');
  });

  it('a follow-up makes the job active again and it is polled back to done', async () => {
    const r = await jobs.create('Fix the CLI reference');
    await until('first completion', () => finished.length === 1);
    await jobs.followUp(r.job.id, 'Also fix the example in the FAQ');
    const after = jobs.store.get(r.job.id)!;
    assert.equal(after.job.status, 'active');
    assert.deepEqual(
      after.followUps.map((f) => f.prompt),
      ['Also fix the example in the FAQ'],
    );
    await until('second completion', () => finished.length === 2);
    const sent = emu.requests.filter((q) => q.method === 'POST' && q.path.endsWith('/message'));
    assert.deepEqual(
      sent.map((q) => (q.body as { prompt: string }).prompt),
      ['Also fix the example in the FAQ'],
    );
  });

  it('failed and no-changes jobs end in their states', async () => {
    const failed = await jobs.create('Rewrite everything [[outcome:fail]]');
    const none = await jobs.create('Check the changelog [[outcome:no-changes]]');
    await until('both finish', () => finished.length === 2);
    assert.equal(jobs.store.get(failed.job.id)!.job.status, 'failed');
    const n = jobs.store.get(none.job.id)!;
    assert.equal(n.job.status, 'completed');
    assert.equal(n.job.prLink, null);
  });

  it('a job the service does not know stays in the list, marked not found', async () => {
    await memento.update(`docsAssistant.jobs:${emu.url}|${emu.projectId}`, [
      {
        job: {
          id: 'gone-123',
          status: 'active',
          source: { repository: 'https://github.com/acme/acme-docs', ref: 'main' },
          model: 'm',
          prLink: null,
          createdAt: new Date().toISOString(),
          archivedAt: null,
        },
        prompt: 'old',
        followUps: [],
        updatedAt: new Date().toISOString(),
      },
    ]);
    jobs.dispose();
    jobs = makeJobs();
    jobs.resumePolling();
    await until('404 is seen', () => jobs.store.get('gone-123')?.notFound === true);
    assert.equal(jobs.store.all().length, 1);
    assert.equal(jobs.poller.isPolling('gone-123'), false);
  });

  it('the list and its polling survive a restart (a new AgentJobs on the same globalState)', async () => {
    const r = await jobs.create('Fix the webhook retries section');
    jobs.dispose();
    jobs = makeJobs();
    assert.equal(jobs.store.get(r.job.id)?.job.status, 'active');
    jobs.resumePolling();
    await until('resumed polling completes the job', () => jobs.store.get(r.job.id)?.job.status === 'completed');
  });

  it('a wrong key: create fails with unauthorized and nothing is added', async () => {
    jobs.dispose();
    jobs = makeJobs('svc_wrong_key_000000000000');
    await assert.rejects(jobs.create('Fix it'), (e: ServiceError) => e.kind === 'unauthorized' && !e.message.includes('svc_wrong'));
    assert.equal(jobs.store.all().length, 0);
  });

  it('401 while polling stops all polling and reports once', async () => {
    const r = await jobs.create('Fix the SDK page');
    jobs.dispose();
    jobs = makeJobs('svc_revoked_key_00000000000');
    jobs.resumePolling();
    await until('auth failure', () => authFailures.length === 1);
    assert.equal(jobs.poller.loopCount, 0);
    assert.equal(jobs.store.get(r.job.id)?.job.status, 'active', 'the job stays in the list');
  });

  it('429 past the hourly limit: a rateLimited error with Retry-After, and our own count agrees', async () => {
    for (let i = 0; i < 6; i++) await jobs.create(`Fix page ${i} [[outcome:no-changes]]`);
    assert.equal(jobs.budget.remaining(), 0);
    await assert.rejects(
      jobs.create('One too many'),
      (e: ServiceError) => e.kind === 'rateLimited' && typeof e.retryAfterMs === 'number' && e.retryAfterMs > 0,
    );
    assert.equal(jobs.store.all().length, 6, 'earlier jobs are kept');
  });

  it('a create whose answer is lost is reported as possibly started, and sent once', async () => {
    await assert.rejects(
      jobs.create('Fix it [[fault:drop]]'),
      (e: unknown) => e instanceof LostResponseError && e.lostResponse === true && /may have started a job/.test(words(e)),
    );
    assert.equal(emu.requests.filter((q) => q.method === 'POST').length, 1, 'never retried');
  });
});
