import * as assert from 'node:assert/strict';
import { AgentJobs } from '../../src/agent/core/agentJobs';
import type { JobRecord } from '../../src/agent/core/jobStore';
import { realClock } from '../../src/agent/core/poller';
import { AgentClient } from '../../src/api/agentClient';
import { startEmulator, type RunningEmulator } from '../emulator';
import { story } from '../unit/timelineStory';
import { MemoryMemento } from './helpers';

// Issue 30 §3: a job's timeline, recorded as things happen, by the real AgentJobs (store, poller)
// and the real client over HTTP against the emulator: the prompt at create, the status change and
// the pull request a poll sees, each follow-up and the status it brings, and all of it again after
// a reload (a new AgentJobs on what globalState kept).

describe('a job timeline against the emulator', function () {
  this.timeout(20_000);
  let emu: RunningEmulator;
  let memento: MemoryMemento;
  let jobs: AgentJobs;

  function makeJobs(on = memento): AgentJobs {
    const client = new AgentClient({ baseUrl: emu.url, projectId: emu.projectId, apiKey: emu.adminKey, requestTimeoutMs: 2000 });
    const options = { memento: on, baseUrl: emu.url, projectId: emu.projectId, client: async () => client };
    return new AgentJobs({ ...options, clock: realClock, baseIntervalMs: () => 1000, isFocused: () => true });
  }

  /** The next job to leave `active`, as the poller saw it (mocha's timeout bounds the wait). */
  const nextFinish = () =>
    new Promise<JobRecord>((resolve) => {
      const listening = jobs.onDidFinishJob((r) => {
        listening.dispose();
        resolve(r);
      });
    });

  const storyOf = (id: string) => story(jobs.store.get(id)?.timeline ?? []);

  before(async () => {
    emu = await startEmulator({ port: 0, jobDurationMs: 300 });
  });
  after(() => emu.close());
  beforeEach(() => {
    emu.reset();
    memento = new MemoryMemento();
    jobs = makeJobs();
  });
  afterEach(() => jobs.dispose());

  it('records the prompt, then the completion and the pull request a poll sees, in order, with times', async () => {
    const started = Date.now();
    const done = nextFinish();
    const r = await jobs.create('Fix the timeout default on the configuration page');
    assert.deepEqual(storyOf(r.job.id), ['prompt: Fix the timeout default on the configuration page'], 'a new job has its prompt, and no "working" row');
    await done;
    const prLink = jobs.store.get(r.job.id)!.job.prLink!;
    assert.match(prLink, /^http:\/\/127\.0\.0\.1:\d+\/pr\//);
    assert.deepEqual(storyOf(r.job.id), ['prompt: Fix the timeout default on the configuration page', 'status: completed', `pullRequest: ${prLink}`]);
    const times = jobs.store.get(r.job.id)!.timeline.map((e) => Date.parse(e.at));
    for (const t of times) assert.ok(t >= started - 1000 && t <= Date.now(), `${new Date(t).toISOString()} is not a time of this test`);
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
      'entries are in the order they happened',
    );
    assert.ok(times[1]! - times[0]! >= 250, 'the completion is recorded when the poll saw it, not at create');
  });

  it('a follow-up and the status changes it brings are added; the same pull request is not listed twice', async () => {
    const first = nextFinish();
    const r = await jobs.create('Fix the CLI reference');
    await first;
    const prLink = jobs.store.get(r.job.id)!.job.prLink!;
    const second = nextFinish();
    await jobs.followUp(r.job.id, 'Also fix the example in the FAQ');
    assert.deepEqual(storyOf(r.job.id).slice(3), ['followUp: Also fix the example in the FAQ', 'status: active']);
    await second;
    assert.equal(jobs.store.get(r.job.id)!.job.prLink, prLink, 'the emulator keeps the pull request');
    assert.deepEqual(storyOf(r.job.id), [
      'prompt: Fix the CLI reference',
      'status: completed',
      `pullRequest: ${prLink}`,
      'followUp: Also fix the example in the FAQ',
      'status: active',
      'status: completed',
    ]);
  });

  it('survives a reload: a new window reads the same timeline, and adds to it', async () => {
    const done = nextFinish();
    const r = await jobs.create('Document the retry limit');
    await done;
    const before = jobs.store.get(r.job.id)!.timeline;
    assert.equal(before.length, 3);
    jobs.dispose();
    const reloaded = memento.copy();
    jobs = makeJobs(reloaded);
    assert.deepEqual(jobs.store.get(r.job.id)!.timeline, before);
    const at = new Date().toISOString();
    jobs.store.appendTimeline(r.job.id, { at, kind: 'review', action: 'diff', files: 3 });
    jobs.dispose();
    jobs = makeJobs(reloaded.copy());
    assert.deepEqual(jobs.store.get(r.job.id)!.timeline, [...before, { at, kind: 'review', action: 'diff', files: 3 }]);
  });
});
