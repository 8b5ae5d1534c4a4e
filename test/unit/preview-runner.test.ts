import * as assert from 'node:assert/strict';
import { PREVIEW_MAX_WAIT_MS, PREVIEW_REQUESTS_PER_MINUTE, PreviewRunner, type JobPreview, type PreviewCalls } from '../../src/agent/core/previewRunner';
import { RateBudget } from '../../src/agent/core/rateBudget';
import { ServiceError } from '../../src/api/errors';
import type { PreviewState, PreviewStatus } from '../../src/api/types';
import { MemoryMemento } from '../api/helpers';
import { FakeClock, flush } from './fakeClock';

// The preview runner with a clock that moves only when told: its backoff, the one budget of 5
// requests a minute shared by every job, Retry-After, the bounded wait, a rebuild after a
// follow-up, and "not offered" said once, after which nothing is sent.

interface Sent {
  what: 'request' | 'status';
  at: number;
  branch?: string;
}

function setup(script: { states?: (poll: number) => PreviewState; request?: (n: number) => Promise<void> } = {}) {
  const clock = new FakeClock();
  const sent: Sent[] = [];
  let polls = 0;
  const calls: PreviewCalls = {
    requestPreview: async (branch) => {
      sent.push({ what: 'request', at: clock.now(), branch });
      await script.request?.(sent.filter((s) => s.what === 'request').length);
      return { statusId: `upd_${sent.length}`, previewUrl: `https://preview.example.com/${branch}/` };
    },
    getStatus: async (statusId): Promise<PreviewStatus> => {
      sent.push({ what: 'status', at: clock.now() });
      const status = script.states?.(polls++) ?? 'in_progress';
      return { id: statusId, status, summary: status, logs: status === 'failure' ? ['Building', 'Build failed'] : [], createdAt: null, endedAt: null };
    },
  };
  const budget = new RateBudget(new MemoryMemento(), 'previewUses', PREVIEW_REQUESTS_PER_MINUTE, 60_000);
  const runner = new PreviewRunner({ calls: async () => calls, budget, clock });
  const seen: JobPreview['phase'][] = [];
  runner.onDidChange((p) => seen.push(p.phase));
  // A run starts on a microtask: let it reach its first timer before time moves.
  const advance = async (ms: number): Promise<void> => {
    await flush();
    await clock.advance(ms);
  };
  return { clock, sent, runner, seen, advance };
}

/** The most requests any 60 s window holds. */
function busiestMinute(sent: Sent[]): number {
  return Math.max(...sent.map((s) => sent.filter((o) => o.at >= s.at && o.at < s.at + 60_000).length));
}

describe('PreviewRunner', () => {
  it('triggers, then polls with backoff (2 s, ×1.5) until success, with the URL the service gave', async () => {
    const { clock, advance, sent, runner, seen } = setup({ states: (n) => (n < 3 ? 'in_progress' : 'success') });
    const done = runner.start('job_1', 'docs-agent/1', 0);
    await advance(60_000);
    const p = await done;
    assert.equal(p.phase, 'success');
    assert.equal(p.previewUrl, 'https://preview.example.com/docs-agent/1/');
    assert.deepEqual(
      sent.map((s) => [s.what, s.at]),
      [
        ['request', 0],
        ['status', 2000],
        ['status', 5000],
        ['status', 9500],
        ['status', 16_250],
      ],
    );
    assert.deepEqual(seen, ['requested', 'queued', 'in_progress', 'in_progress', 'in_progress', 'success']);
    assert.equal(clock.pending, 0, 'no timer left once it ended');
  });

  it('ends in failure with the logs', async () => {
    const { advance, runner } = setup({ states: () => 'failure' });
    const done = runner.start('job_1', 'b', 0);
    await advance(10_000);
    const p = await done;
    assert.equal(p.phase, 'failure');
    assert.deepEqual(p.logs, ['Building', 'Build failed']);
  });

  it('keeps every job together within 5 requests a minute', async () => {
    const { advance, sent, runner } = setup({ states: () => 'in_progress' });
    void runner.start('job_1', 'a', 0);
    void runner.start('job_2', 'b', 0);
    void runner.start('job_3', 'c', 0);
    await advance(5 * 60_000);
    assert.ok(sent.length >= 20, `it kept polling (${sent.length})`);
    assert.equal(busiestMinute(sent), PREVIEW_REQUESTS_PER_MINUTE);
  });

  it('waits as long as a 429 says before asking again', async () => {
    const { advance, sent, runner } = setup({
      states: () => 'success',
      request: async (n) => {
        if (n === 1) throw new ServiceError({ reason: { code: 'rateLimited', service: 'agent' }, status: 429, retryAfterMs: 20_000 });
      },
    });
    const done = runner.start('job_1', 'a', 0);
    await advance(60_000);
    assert.equal((await done).phase, 'success');
    const requests = sent.filter((s) => s.what === 'request').map((s) => s.at);
    assert.deepEqual(requests, [0, 20_000]);
  });

  it('gives up after its bounded wait, and leaves no timer', async () => {
    const { clock, advance, runner } = setup({ states: () => 'queued' });
    const done = runner.start('job_1', 'a', 0);
    await advance(PREVIEW_MAX_WAIT_MS + 60_000);
    const p = await done;
    assert.equal(p.phase, 'error');
    assert.equal(p.error?.reason.code, 'timeout');
    assert.equal(clock.pending, 0);
  });

  it('says "not offered" once, and sends nothing after it', async () => {
    const { advance, sent, runner } = setup({
      request: async () => {
        throw new ServiceError({ reason: { code: 'notOffered', feature: 'preview', status: 403 }, status: 403 });
      },
    });
    let said = 0;
    runner.onDidFindNotOffered(() => said++);
    const first = runner.start('job_1', 'a', 0);
    await advance(1000);
    assert.equal((await first).error?.reason.code, 'notOffered');
    assert.equal(runner.offered, false);
    const second = await runner.start('job_2', 'b', 0);
    await advance(60_000);
    assert.equal(second.phase, 'error');
    assert.equal(second.error?.reason.code, 'notOffered');
    assert.equal(sent.length, 1, 'only the first request went out');
    assert.equal(said, 1);
  });

  it('joins the run building the same state, and rebuilds after a follow-up', async () => {
    const { advance, sent, runner } = setup({ states: () => 'success' });
    const a = runner.start('job_1', 'docs-agent/1', 0);
    const b = runner.start('job_1', 'docs-agent/1', 0);
    assert.equal(a, b, 'the same run');
    await advance(10_000);
    await a;
    assert.equal(runner.isStale('job_1', 'docs-agent/1', 0), false);
    assert.equal(runner.isStale('job_1', 'docs-agent/1', 1), true, 'one follow-up more');
    assert.equal(runner.isStale('job_1', 'docs-agent/2', 0), true, 'another branch');
    const rebuilt = runner.start('job_1', 'docs-agent/1', 1);
    await advance(10_000);
    assert.equal((await rebuilt).followUps, 1);
    assert.equal(sent.filter((s) => s.what === 'request').length, 2);
  });

  it('takes back a preview from before a reload without sending anything, and a build made since wins', async () => {
    const { advance, sent, runner } = setup({ states: () => 'success' });
    const kept = { jobId: 'job_1', branch: 'docs-agent/1', followUps: 0, phase: 'success' as const, previewUrl: 'https://p.example/old/' };
    runner.restore(kept);
    assert.equal(runner.get('job_1'), kept);
    assert.equal(runner.isStale('job_1', 'docs-agent/1', 0), false, 'Open Preview opens it without a rebuild');
    assert.equal(sent.length, 0);
    const built = runner.start('job_1', 'docs-agent/1', 1);
    await advance(10_000);
    await built;
    runner.restore(kept);
    assert.equal(runner.get('job_1')?.followUps, 1, 'an older preview does not replace a newer one');
  });

  it('a newer run replaces an older one still polling: the older stops and never shows again', async () => {
    let polls = 0;
    const { clock, advance, sent, runner } = setup({ states: () => (++polls > 3 ? 'success' : 'in_progress') });
    const old = runner.start('job_1', 'a', 0);
    await advance(2500);
    const fresh = runner.start('job_1', 'a', 1);
    await advance(60_000);
    await flush();
    assert.equal((await old).followUps, 0);
    assert.equal(runner.get('job_1')?.followUps, 1);
    assert.equal((await fresh).phase, 'success');
    assert.equal(clock.pending, 0);
    assert.ok(sent.length < 10);
  });
});
