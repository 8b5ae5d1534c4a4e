import { type AgentJob, describeError, type ServiceError, clampRetryAfter, timerDelay } from '../../api';
import { Emitter } from '../../common/event';
import { realClock, type Clock } from '../../host/core/clock';

// Polls active agent jobs. One loop per job; no timer at all when nothing is active.
// The service has no push (service-interface.md §6), so this is the only way to see progress,
// and it must stay cheap: the interval grows for long jobs and is slow while unfocused.

/** The poller's clock is the cores' one (src/host/core/clock.ts), shared with Docs Health's waits. */
export type PollClock = Clock;
export { realClock };

export const MAX_POLL_INTERVAL_MS = 60_000;
/** Growth of the interval per poll that finds the job still active. */
export const POLL_BACKOFF_FACTOR = 1.5;

export type PollResult = { kind: 'job'; job: AgentJob } | { kind: 'error'; error: ServiceError };

/** One answer to one poll. */
export interface Poll {
  jobId: string;
  result: PollResult;
}

export interface JobPollerOptions {
  clock?: PollClock;
  fetchJob(jobId: string, signal: AbortSignal): Promise<AgentJob>;
  /** First interval; read on every schedule so a settings change applies at once. */
  baseIntervalMs(): number;
  /** Unfocused windows poll at the slow rate. */
  isFocused(): boolean;
}

interface Loop {
  timer?: unknown;
  inFlight?: AbortController;
  /** Polls since the last start or reset; drives the backoff. */
  attempt: number;
  /** Consecutive errors; drives the error backoff. */
  errors: number;
}

export class JobPoller {
  private readonly loops = new Map<string, Loop>();
  private readonly clock: PollClock;
  private stopped = false;
  private readonly polled = new Emitter<Poll>();
  private readonly authFailed = new Emitter<ServiceError>();
  /**
   * Every answer. A job that is no longer active is the listener's to stop (stop(jobId)); a loop
   * nobody stops polls on, also when a listener throws (its error goes to the error sink).
   */
  readonly onDidPoll = this.polled.event;
  /** A 401/403 stopped every loop: polling again with the same key cannot succeed. */
  readonly onDidFailAuth = this.authFailed.event;

  constructor(private readonly opts: JobPollerOptions) {
    this.clock = opts.clock ?? realClock;
  }

  /** Starts polling a job unless a loop for it already runs. */
  ensurePolling(jobId: string, firstDelayMs?: number): void {
    if (this.stopped || this.loops.has(jobId)) return;
    const loop: Loop = { attempt: 0, errors: 0 };
    this.loops.set(jobId, loop);
    this.schedule(jobId, loop, firstDelayMs ?? this.intervalFor(loop));
  }

  /** After a follow-up the job is busy again: poll at the short interval from the start. */
  reset(jobId: string): void {
    this.stop(jobId);
    this.stopped = false;
    this.ensurePolling(jobId);
  }

  /** Polls a job now (the Refresh button), keeping its loop. */
  pollNow(jobId: string): void {
    const loop = this.loops.get(jobId);
    if (!loop) {
      this.ensurePolling(jobId, 0);
      return;
    }
    if (loop.inFlight) return;
    this.clearTimer(loop);
    this.schedule(jobId, loop, 0);
  }

  stop(jobId: string): void {
    const loop = this.loops.get(jobId);
    if (!loop) return;
    this.clearTimer(loop);
    loop.inFlight?.abort();
    this.loops.delete(jobId);
  }

  stopAll(): void {
    for (const id of [...this.loops.keys()]) this.stop(id);
  }

  /** Lets loops start again after an auth failure, once a new key is set. */
  resume(): void {
    this.stopped = false;
  }

  isPolling(jobId: string): boolean {
    return this.loops.has(jobId);
  }

  /** Timers alive right now, for tests and the polling benchmark. */
  get timerCount(): number {
    let n = 0;
    for (const l of this.loops.values()) if (l.timer !== undefined) n++;
    return n;
  }

  get loopCount(): number {
    return this.loops.size;
  }

  dispose(): void {
    this.stopAll();
    this.stopped = true;
    this.polled.dispose();
    this.authFailed.dispose();
  }

  /** The interval before the next poll of a job that is still active. */
  private intervalFor(loop: Loop): number {
    if (!this.opts.isFocused()) return MAX_POLL_INTERVAL_MS;
    const base = Math.max(1000, this.opts.baseIntervalMs());
    return Math.min(MAX_POLL_INTERVAL_MS, base * POLL_BACKOFF_FACTOR ** loop.attempt);
  }

  private schedule(jobId: string, loop: Loop, delayMs: number): void {
    loop.timer = this.clock.setTimeout(() => {
      loop.timer = undefined;
      void this.tick(jobId, loop);
    }, timerDelay(delayMs));
  }

  private clearTimer(loop: Loop): void {
    if (loop.timer !== undefined) this.clock.clearTimeout(loop.timer);
    loop.timer = undefined;
  }

  private async tick(jobId: string, loop: Loop): Promise<void> {
    if (this.loops.get(jobId) !== loop) return;
    const ctrl = new AbortController();
    loop.inFlight = ctrl;
    let result: PollResult;
    try {
      result = { kind: 'job', job: await this.opts.fetchJob(jobId, ctrl.signal) };
    } catch (e) {
      result = { kind: 'error', error: describeError(e) };
    } finally {
      loop.inFlight = undefined;
    }
    // Stopped or reset while the request was out: that loop is gone, drop the answer.
    if (this.loops.get(jobId) !== loop || ctrl.signal.aborted) return;

    if (result.kind === 'error' && (result.error.kind === 'unauthorized' || result.error.kind === 'forbidden')) {
      this.polled.fire({ jobId, result });
      this.stopAll();
      this.stopped = true;
      this.authFailed.fire(result.error);
      return;
    }

    this.polled.fire({ jobId, result });
    // A listener stopped this job (it is no longer active) or started it afresh: this loop is over.
    if (this.loops.get(jobId) !== loop) return;

    if (result.kind === 'job') {
      loop.errors = 0;
      loop.attempt++;
      this.schedule(jobId, loop, this.intervalFor(loop));
    } else {
      loop.errors++;
      const backoff = Math.min(MAX_POLL_INTERVAL_MS, this.intervalFor(loop) * 2 ** loop.errors);
      // Retry-After is honoured, but never for more than an hour: then polling resumes.
      const wait =
        result.error.kind === 'rateLimited' && result.error.retryAfterMs !== undefined
          ? Math.max(backoff, clampRetryAfter(result.error.retryAfterMs))
          : backoff;
      this.schedule(jobId, loop, wait);
    }
  }
}
