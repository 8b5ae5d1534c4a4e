import { JobPoller } from '../src/agent/core/poller';
import type { AgentJob } from '../src/api/types';
import { FakeClock } from '../test/unit/fakeClock';
import { median, seeded, type BenchResult } from './util';

// 5. Polling cost: 50 jobs of mixed lengths (1 to 30 minutes) on a fake clock, through the real
// JobPoller, against what a fixed 5-second poll would cost. Then an hour with nothing active.

const JOBS = 50;
const BASE_MS = 5000;

export async function benchPolling(): Promise<BenchResult> {
  const clock = new FakeClock();
  const rnd = seeded(5);
  // Lengths 1..30 minutes; the last job is exactly 30 minutes, the budget's case.
  const jobs = Array.from({ length: JOBS }, (_, i) => ({
    id: `job-${i}`,
    startAt: Math.floor(rnd() * 60_000),
    durationMs: i === JOBS - 1 ? 30 * 60_000 : (1 + Math.floor(rnd() * 30)) * 60_000,
    gets: 0,
  }));
  const byId = new Map(jobs.map((j) => [j.id, j]));
  let requests = 0;
  const poller = new JobPoller({
    clock,
    baseIntervalMs: () => BASE_MS,
    isFocused: () => true,
    fetchJob: async (id): Promise<AgentJob> => {
      requests++;
      const j = byId.get(id)!;
      j.gets++;
      const done = clock.now() >= j.startAt + j.durationMs;
      return {
        id,
        status: done ? 'completed' : 'active',
        source: { repository: 'https://github.com/acme/docs', ref: 'main' },
        model: 'm',
        prLink: done ? 'https://example.com/pr/1' : null,
        createdAt: new Date(0).toISOString(),
        archivedAt: null,
      };
    },
  });
  poller.onDidPoll(({ jobId, result: r }) => {
    if (r.kind === 'job' && r.job.status !== 'active') poller.stop(jobId);
  });
  for (const j of [...jobs].sort((a, b) => a.startAt - b.startAt)) {
    await clock.advance(j.startAt - clock.now());
    poller.ensurePolling(j.id);
  }
  const peakLoops = poller.loopCount;
  await clock.advance(40 * 60_000);
  const idleTimers = poller.timerCount + clock.pending;
  const before = requests;
  await clock.advance(60 * 60_000);
  const idleRequests = requests - before;
  poller.dispose();

  const gets = jobs.map((j) => j.gets);
  const longest = jobs[JOBS - 1]!.gets;
  const fixed = jobs.reduce((n, j) => n + Math.ceil(j.durationMs / BASE_MS), 0);
  const total = gets.reduce((a, b) => a + b, 0);
  return {
    name: 'Polling (50 jobs, 1–30 min, fake clock)',
    rows: [
      ['GETs per job (min / median / max)', `${Math.min(...gets)} / ${median(gets)} / ${Math.max(...gets)}`],
      ['GETs in all, vs a fixed 5 s poll', `${total} vs ${fixed} (${(fixed / total).toFixed(1)}× fewer)`],
      ['loops alive at the peak', String(peakLoops)],
    ],
    budgets: [
      { what: 'GETs for a 30-minute job', value: String(longest), budget: '≤ 40', met: longest <= 40 },
      { what: 'timers alive with no job active', value: String(idleTimers), budget: '0', met: idleTimers === 0 },
      { what: 'requests in an idle hour', value: String(idleRequests), budget: '0', met: idleRequests === 0 },
    ],
    raw: { jobs: JOBS, getsPerJob: gets, getsLongest: longest, totalGets: total, fixedPollGets: fixed, idleTimers, idleRequests, peakLoops },
  };
}
