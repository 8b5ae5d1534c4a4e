import * as assert from 'node:assert/strict';
import { JobPoller, realClock } from '../../src/agent/core/poller';
import { ServiceError } from '../../src/api/errors';
import { errorFromStatus, parseRetryAfter, retryTime } from '../../src/api/httpErrors';
import { MAX_RETRY_AFTER_MS, MAX_TIMER_MS, timerDelay } from '../../src/api/limits';
import type { AgentJob } from '../../src/api/types';
import { FakeClock } from './fakeClock';
import { words } from '../api/helpers';

// Issue 16, item 6: a Retry-After of 99999999999 s made a 32-bit timer fire after 1 ms, and the
// job was polled 540 times in 12 s; the chat showed "Infinity s". Every Retry-After is finite and
// at most an hour, shown as the time of day, and polling resumes after it.

const HOUR = 60 * 60 * 1000;
/** 14:04:50 today, local time, as the user's clock shows it. */
const NOW = new Date(2024, 10, 23, 14, 4, 50).getTime();

describe('Retry-After: finite, at most an hour, shown as a time of day', () => {
  it('parseRetryAfter clamps what no timer can hold, and an unreadably large number, to an hour', () => {
    assert.equal(parseRetryAfter('99999999999'), MAX_RETRY_AFTER_MS);
    assert.equal(parseRetryAfter('9'.repeat(400)), MAX_RETRY_AFTER_MS, 'a number that parses to Infinity');
    assert.equal(parseRetryAfter('3601'), MAX_RETRY_AFTER_MS);
    assert.equal(parseRetryAfter('3600'), HOUR);
    assert.equal(parseRetryAfter('Fri, 31 Dec 9999 23:59:59 GMT', NOW), MAX_RETRY_AFTER_MS, 'a date far ahead');
    assert.equal(parseRetryAfter('7'), 7000, 'an ordinary value is kept');
    assert.equal(MAX_RETRY_AFTER_MS, HOUR);
  });

  it('retryTime: hours and minutes, rounded up; with seconds when it is soon', () => {
    assert.equal(retryTime(7000, NOW), '14:04:57');
    assert.equal(retryTime(9 * 60_000, NOW), '14:13:50');
    assert.equal(retryTime(30 * 60_000, NOW), '14:35', 'rounded up to the minute: retrying early only fails again');
    assert.equal(retryTime(HOUR, NOW), '15:05');
    assert.equal(retryTime(Number.POSITIVE_INFINITY, NOW), '15:05', 'never Infinity');
    assert.equal(retryTime(Number.NaN, NOW), '14:04:50');
  });

  it('the 429 message says when, as a time of day, and never a count of seconds that can overflow', () => {
    const limited = errorFromStatus(
      { status: 429, headers: new Headers({ 'retry-after': '99999999999' }) },
      '',
      { service: 'assistant', domain: 'acme' },
      [],
      NOW,
    );
    assert.equal(limited.retryAfterMs, HOUR);
    assert.equal(words(limited, NOW), "Too many requests: the service's rate limit was reached. Try again after 15:05.");
    const soon = errorFromStatus({ status: 429, headers: new Headers({ 'retry-after': '7' }) }, '', { service: 'agent', projectId: 'p' }, [], NOW);
    assert.equal(
      words(soon, NOW),
      "Too many requests: the service's rate limit was reached. Try again after 14:04:57. (Agent jobs allow 100 new jobs and follow-ups per project per hour.)",
    );
  });

  it('timers: a delay is never handed over larger than a timer can hold', async () => {
    assert.equal(timerDelay(99999999999000), MAX_TIMER_MS);
    assert.equal(timerDelay(Number.POSITIVE_INFINITY), MAX_TIMER_MS);
    assert.equal(timerDelay(Number.NaN), 0);
    assert.equal(timerDelay(-5), 0);
    let fired = false;
    const handle = realClock.setTimeout(() => (fired = true), 99999999999000);
    await new Promise((r) => setTimeout(r, 30));
    realClock.clearTimeout(handle);
    assert.equal(fired, false, 'the poller’s real clock does not fire a huge delay after 1 ms');
  });

  it('the poller waits the clamped hour after such a 429, then polls again', async () => {
    const clock = new FakeClock();
    const calls: number[] = [];
    let n = 0;
    const job: AgentJob = {
      id: 'a',
      status: 'active',
      source: { repository: 'https://github.com/acme/docs', ref: null },
      model: 'm',
      prLink: null,
      createdAt: new Date(0).toISOString(),
      archivedAt: null,
    };
    const poller = new JobPoller({
      clock,
      baseIntervalMs: () => 5000,
      isFocused: () => true,
      fetchJob: async () => {
        calls.push(clock.now());
        if (n++ === 0)
          throw new ServiceError({ reason: { code: 'rateLimited', service: 'agent' }, status: 429, retryAfterMs: 99999999999000, message: 'slow down' });
        return job;
      },
    });
    poller.ensurePolling('a');
    await clock.advance(5000);
    assert.equal(calls.length, 1);
    await clock.advance(HOUR - 1);
    assert.equal(calls.length, 1, 'nothing before the hour is up');
    await clock.advance(1);
    assert.equal(calls.length, 2, 'polling resumes after the hour');
    poller.dispose();
  });
});
