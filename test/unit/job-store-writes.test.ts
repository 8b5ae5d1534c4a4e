import * as assert from 'node:assert/strict';
import { AgentJobs } from '../../src/agent/core/agentJobs';
import { JobStore, storeKey } from '../../src/agent/core/jobStore';
import type { Memento } from '../../src/common/memento';
import type { AgentClient } from '../../src/api/agentClient';
import { ServiceError } from '../../src/api/errors';
import type { AgentJob } from '../../src/api/types';
import { FakeClock } from './fakeClock';

// Issue 16, item 8: the job list was rewritten to globalState on every poll, even when nothing
// had changed. It is saved (and the tree told) only when a record really changed.

class CountingMemento implements Memento {
  readonly data = new Map<string, unknown>();
  writes = 0;
  get<T>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.writes++;
    this.data.set(key, JSON.parse(JSON.stringify(value)));
  }
}

const job = (status: AgentJob['status'] = 'active', prLink: string | null = null): AgentJob => ({
  id: 'job_1',
  status,
  source: { repository: 'https://github.com/acme/docs', ref: 'main' },
  model: 'm',
  prLink,
  createdAt: '2026-01-01T00:00:00.000Z',
  archivedAt: null,
});

describe('the job list is saved only when a job changed (issue 16)', () => {
  it('JobStore.update: the same job, the same error, or no error again write nothing and notify nobody', () => {
    const memento = new CountingMemento();
    const store = new JobStore(memento, 'k');
    let changes = 0;
    store.onDidChange(() => changes++);
    store.add(job(), 'Fix it');
    assert.equal(memento.writes, 1);
    for (let i = 0; i < 10; i++) store.update('job_1', { job: job(), pollError: undefined, notFound: false });
    assert.equal(memento.writes, 1, 'ten polls that changed nothing wrote nothing');
    assert.equal(changes, 1);
    store.update('job_1', { pollError: 'The service had a problem (HTTP 503). Try again in a moment.' });
    store.update('job_1', { pollError: 'The service had a problem (HTTP 503). Try again in a moment.' });
    assert.equal(memento.writes, 2, 'a new error is saved once');
    store.update('job_1', { job: job('completed', 'https://github.com/acme/docs/pull/1'), pollError: undefined, notFound: false });
    assert.equal(memento.writes, 3, 'a change is saved');
    assert.equal(store.get('job_1')!.job.status, 'completed');
    assert.equal(store.get('job_1')!.pollError, undefined);
    assert.equal(changes, 3);
  });

  it('AgentJobs: a job polled an hour while it stays active writes the list once, when it was created', async () => {
    const memento = new CountingMemento();
    const clock = new FakeClock();
    let polls = 0;
    const client = {
      createJob: async () => job(),
      getJob: async () => {
        polls++;
        if (polls === 3)
          throw new ServiceError({ reason: { code: 'serverError' }, status: 503, message: 'The service had a problem (HTTP 503). Try again in a moment.' });
        return job();
      },
    } as unknown as AgentClient;
    const jobs = new AgentJobs({
      memento,
      baseUrl: 'https://api.example.com',
      projectId: 'p',
      client: async () => client,
      clock,
      baseIntervalMs: () => 5000,
      isFocused: () => true,
    });
    try {
      await jobs.create('Fix it');
      const key = storeKey('https://api.example.com', 'p');
      assert.ok(memento.data.has(key));
      let listWrites = 0;
      const update = memento.update.bind(memento);
      memento.update = async (k, v) => {
        if (k === key) listWrites++;
        return update(k, v);
      };
      await clock.advance(60 * 60_000);
      assert.ok(polls > 50, `${polls} polls`);
      assert.equal(listWrites, 2, 'the error once, and its clearing once; nothing for the polls that changed nothing');
    } finally {
      jobs.dispose();
    }
  });
});
