import * as assert from 'node:assert/strict';
import { MAX_PAGE_JOBS, PageJobs } from '../../src/health/core/pageJobs';
import type { Memento } from '../../src/common/memento';

// Issue 31: Fix with Agent… on a page records which job answered which page, so the page's
// signals can name it once the job finished. It lives in workspaceState: bounded, and read back
// without trusting what is stored there.

class MapMemento implements Memento {
  readonly data = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.data.set(key, JSON.parse(JSON.stringify(value)));
  }
}

describe('Docs Health: which job answered which page', () => {
  it('keeps each page’s jobs, newest first, across a reload', async () => {
    const memento = new MapMemento();
    const jobs = new PageJobs(memento);
    await jobs.record('/getting-started', 'job_1');
    await jobs.record('/webhooks', 'job_2');
    await jobs.record('/getting-started', 'job_3');
    const again = new PageJobs(memento);
    assert.deepEqual(again.jobsFor('/getting-started'), ['job_3', 'job_1']);
    assert.deepEqual(again.jobsFor('/webhooks'), ['job_2']);
    assert.deepEqual(again.jobsFor('/faq'), []);
  });

  it('is bounded: the oldest records go first', async () => {
    const memento = new MapMemento();
    const jobs = new PageJobs(memento);
    for (let i = 0; i < MAX_PAGE_JOBS + 50; i++) await jobs.record(`/p${i}`, `job_${i}`);
    assert.deepEqual(jobs.jobsFor('/p0'), [], 'the oldest is gone');
    assert.deepEqual(jobs.jobsFor(`/p${MAX_PAGE_JOBS + 49}`), [`job_${MAX_PAGE_JOBS + 49}`]);
    assert.ok((memento.data.get(PageJobs.KEY) as unknown[]).length <= MAX_PAGE_JOBS);
  });

  it('ignores what is stored that is not a record', () => {
    const memento = new MapMemento();
    memento.data.set(PageJobs.KEY, [
      null,
      7,
      { page: '/a' },
      { page: '/a', jobId: 5 },
      { page: '/a', jobId: 'x'.repeat(500) },
      { page: '/a', jobId: 'job_ok' },
    ]);
    assert.deepEqual(new PageJobs(memento).jobsFor('/a'), ['job_ok']);
    memento.data.set(PageJobs.KEY, { not: 'a list' });
    assert.deepEqual(new PageJobs(memento).jobsFor('/a'), []);
  });
});
