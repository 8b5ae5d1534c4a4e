import * as assert from 'node:assert/strict';
import { JobPoller, MAX_POLL_INTERVAL_MS, type PollResult } from '../../src/agent/core/poller';
import { ServiceError } from '../../src/api/errors';
import type { AgentJob, AgentJobStatus } from '../../src/api/types';
import { FakeClock, flush } from './fakeClock';

function job(id: string, status: AgentJobStatus = 'active'): AgentJob {
  return {
    id,
    status,
    source: { repository: 'https://github.com/acme/docs', ref: 'main' },
    model: 'm',
    prLink: status === 'completed' ? 'https://example.com/pr/1' : null,
    createdAt: new Date(0).toISOString(),
    archivedAt: null,
  };
}

function setup(opts: { focused?: () => boolean; fetch?: (id: string) => Promise<AgentJob> } = {}) {
  const clock = new FakeClock();
  const calls: { id: string; at: number }[] = [];
  const results: { id: string; r: PollResult }[] = [];
  let authFailures = 0;
  const poller = new JobPoller({
    clock,
    baseIntervalMs: () => 5000,
    isFocused: opts.focused ?? (() => true),
    fetchJob: async (id) => {
      calls.push({ id, at: clock.now() });
      return opts.fetch ? opts.fetch(id) : job(id);
    },
  });
  poller.onDidPoll(({ jobId: id, result: r }) => {
    results.push({ id, r });
    if (r.kind === 'job' && r.job.status !== 'active') poller.stop(id);
  });
  poller.onDidFailAuth(() => authFailures++);
  return { clock, poller, calls, results, authFailures: () => authFailures };
}

describe('JobPoller', () => {
  it('has no timer and makes no request while no job is active', async () => {
    const { clock, poller, calls } = setup();
    await clock.advance(60 * 60_000);
    assert.equal(poller.timerCount, 0);
    assert.equal(clock.pending, 0);
    assert.equal(calls.length, 0);
  });

  it('backs off from the first interval to at most 60 s', async () => {
    const { clock, poller, calls } = setup();
    poller.ensurePolling('a');
    await clock.advance(20 * 60_000);
    const gaps = calls.slice(1).map((c, i) => c.at - calls[i]!.at);
    assert.equal(calls[0]!.at, 5000, 'first poll after the configured interval');
    assert.deepEqual(gaps.slice(0, 3), [7500, 11250, 16875]);
    assert.ok(
      gaps.every((g, i) => i === 0 || g >= gaps[i - 1]!),
      'intervals never shrink',
    );
    assert.equal(Math.max(...gaps), MAX_POLL_INTERVAL_MS);
  });

  it('makes at most 40 GETs for a 30-minute job, then stops with no timer left', async () => {
    let done = false;
    const { clock, poller, calls } = setup({ fetch: async (id) => job(id, done ? 'completed' : 'active') });
    poller.ensurePolling('long');
    await clock.advance(30 * 60_000);
    done = true;
    await clock.advance(2 * 60_000);
    assert.ok(calls.length <= 40, `${calls.length} GETs`);
    assert.equal(poller.timerCount, 0);
    assert.equal(clock.pending, 0);
    assert.equal(poller.isPolling('long'), false);
  });

  it('runs one loop per job however often it is asked to', async () => {
    const { clock, poller, calls } = setup();
    for (let i = 0; i < 5; i++) poller.ensurePolling('a');
    assert.equal(poller.loopCount, 1);
    assert.equal(clock.pending, 1);
    await clock.advance(5000);
    assert.equal(calls.length, 1);
  });

  it('stops a job as soon as it is no longer active', async () => {
    const { clock, poller, calls } = setup({ fetch: async (id) => job(id, 'completed') });
    poller.ensurePolling('a');
    await clock.advance(5000);
    await clock.advance(10 * 60_000);
    assert.equal(calls.length, 1);
    assert.equal(poller.timerCount, 0);
  });

  it('polls at the slow rate while the window is not focused', async () => {
    const { clock, poller, calls } = setup({ focused: () => false });
    poller.ensurePolling('a');
    await clock.advance(5 * 60_000);
    assert.equal(calls[0]!.at, MAX_POLL_INTERVAL_MS);
    assert.equal(calls.length, 5);
  });

  it('backs off on errors, keeps polling and recovers by itself', async () => {
    let failing = true;
    const { clock, poller, calls, results } = setup({
      fetch: async (id) => {
        if (failing) throw new ServiceError({ reason: { code: 'serverError' }, status: 503, message: 'down' });
        return job(id);
      },
    });
    poller.ensurePolling('a');
    await clock.advance(5000);
    await clock.advance(2 * 60_000);
    const errorsSeen = results.filter((r) => r.r.kind === 'error').length;
    assert.ok(errorsSeen >= 2 && errorsSeen <= 5, `${errorsSeen} errors in 2 minutes`);
    failing = false;
    await clock.advance(2 * 60_000);
    assert.equal(results.at(-1)!.r.kind, 'job');
    assert.ok(poller.isPolling('a'));
    assert.ok(calls.length > errorsSeen);
  });

  it('honours Retry-After on 429', async () => {
    let n = 0;
    const { clock, poller, calls } = setup({
      fetch: async (id) => {
        if (n++ === 0) throw new ServiceError({ reason: { code: 'rateLimited', service: 'agent' }, status: 429, retryAfterMs: 45_000, message: 'slow down' });
        return job(id);
      },
    });
    poller.ensurePolling('a');
    await clock.advance(5000);
    await clock.advance(44_000);
    assert.equal(calls.length, 1, 'no request before Retry-After has passed');
    await clock.advance(1000);
    assert.equal(calls.length, 2);
  });

  it('stops every loop on 401 and reports it once', async () => {
    const { clock, poller, authFailures } = setup({
      fetch: async () => {
        throw new ServiceError({ reason: { code: 'keyRefused', service: 'agent' }, status: 401, message: 'bad key' });
      },
    });
    poller.ensurePolling('a');
    poller.ensurePolling('b');
    await clock.advance(5000);
    assert.equal(authFailures(), 1);
    assert.equal(poller.loopCount, 0);
    assert.equal(clock.pending, 0);
    poller.ensurePolling('c');
    assert.equal(poller.loopCount, 0, 'no new loop until the key is replaced');
    poller.resume();
    poller.ensurePolling('c');
    assert.equal(poller.loopCount, 1);
  });

  it('restarts at the short interval after a follow-up', async () => {
    const { clock, poller, calls } = setup();
    poller.ensurePolling('a');
    await clock.advance(10 * 60_000);
    const before = calls.length;
    poller.reset('a');
    await clock.advance(5000);
    assert.equal(calls.length, before + 1);
    assert.equal(poller.loopCount, 1);
  });

  it('drops an answer that arrives after the job was stopped', async () => {
    let release!: () => void;
    const { clock, poller, results } = setup({ fetch: (id) => new Promise((r) => (release = () => r(job(id)))) });
    poller.ensurePolling('a');
    await clock.advance(5000);
    poller.stop('a');
    release();
    await flush();
    assert.equal(results.length, 0);
    assert.equal(clock.pending, 0);
  });
});
