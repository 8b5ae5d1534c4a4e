import { clampRetryAfter, describeError, ServiceError, type PreviewDeployment, type PreviewState, type PreviewStatus } from '../../api';
import { Emitter } from '../../common/event';
import type { IDisposable } from '../../common/lifecycle';
import { realClock, type PollClock } from './poller';

// A job's preview deployment, below the UI: trigger it for the job's branch, then follow its
// status to success or failure. The endpoints are beyond the interface (notes.md), so:
// - every request, the trigger and each poll, is taken from one budget of the published 5 per
//   minute (shared by every job of the project, as the service counts per organisation);
// - polls back off, and the whole run is bounded in time;
// - a 403/404 (`notOffered`) is reported once, and from then on nothing is sent: the action is
//   hidden by the VS Code side.
// A preview is rebuilt when the job's branch, or the follow-ups it was built after, changed.

/** The service's published limit on preview requests. */
export const PREVIEW_REQUESTS_PER_MINUTE = 5;
export const PREVIEW_FIRST_POLL_MS = 2000;
export const PREVIEW_POLL_FACTOR = 1.5;
export const PREVIEW_MAX_POLL_MS = 30_000;
/** Past this a run gives up (a deployment that long is stuck, or the service is). */
export const PREVIEW_MAX_WAIT_MS = 10 * 60_000;
/** Failures in a row (network, 5xx, 429) before a run gives up. */
const MAX_ERRORS_IN_A_ROW = 3;

/** Where a job's preview is: asked for, one of the service's states, or given up with an error. */
export type PreviewPhase = 'requested' | PreviewState | 'error';

export interface JobPreview {
  jobId: string;
  branch: string;
  /** The follow-ups the job had when this preview was asked for: one more means a rebuild. */
  followUps: number;
  phase: PreviewPhase;
  previewUrl?: string;
  summary?: string;
  logs?: readonly string[];
  error?: ServiceError;
}

/** The calls a run makes (PreviewClient's). */
export interface PreviewCalls {
  requestPreview(branch: string, opts: { signal?: AbortSignal }): Promise<PreviewDeployment>;
  getStatus(statusId: string, opts: { signal?: AbortSignal }): Promise<PreviewStatus>;
}

/** The part of RateBudget a run uses. */
export interface PreviewBudget {
  nextFreeAt(now?: number): number | undefined;
  record(now?: number): Promise<void>;
}

export interface PreviewRunnerOptions {
  /** The client for the current settings and key; throws a ServiceError when something is missing. */
  calls(): Promise<PreviewCalls>;
  budget: PreviewBudget;
  clock?: PollClock;
}

export class PreviewRunner implements IDisposable {
  private readonly changed = new Emitter<JobPreview>();
  /** A job's preview changed phase (or URL, logs). */
  readonly onDidChange = this.changed.event;
  private readonly refused = new Emitter<ServiceError>();
  /** The first 403/404: previews are not offered here. Fired once; then `offered` is false. */
  readonly onDidFindNotOffered = this.refused.event;
  /** The latest preview of each job, and the runs still following one. */
  private readonly previews = new Map<string, JobPreview>();
  private readonly runs = new Map<string, { preview: JobPreview; ctrl: AbortController; done: Promise<JobPreview> }>();
  private notOffered: ServiceError | undefined;
  private readonly clock: PollClock;

  constructor(private readonly opts: PreviewRunnerOptions) {
    this.clock = opts.clock ?? realClock;
  }

  /** False once the service said previews are not offered; nothing is sent after that. */
  get offered(): boolean {
    return this.notOffered === undefined;
  }

  get(jobId: string): JobPreview | undefined {
    return this.previews.get(jobId);
  }

  isRunning(jobId: string): boolean {
    return this.runs.has(jobId);
  }

  /** Whether the job has a preview of another branch, or of fewer follow-ups, than it has now. */
  isStale(jobId: string, branch: string, followUps: number): boolean {
    const p = this.previews.get(jobId);
    return p !== undefined && (p.branch !== branch || p.followUps !== followUps);
  }

  /**
   * Builds the job's preview, or joins the run already building this branch; resolves with how it
   * ended (never rejects: a failure is the `error` phase). A run for an older state of the job is
   * stopped first.
   */
  start(jobId: string, branch: string, followUps: number): Promise<JobPreview> {
    const running = this.runs.get(jobId);
    if (running && running.preview.branch === branch && running.preview.followUps === followUps) return running.done;
    if (running) {
      running.ctrl.abort();
      this.runs.delete(jobId);
    }
    const preview: JobPreview = { jobId, branch, followUps, phase: 'requested' };
    if (this.notOffered) return Promise.resolve(this.settle(preview, { phase: 'error', error: this.notOffered }));
    const ctrl = new AbortController();
    const entry = { preview, ctrl, done: Promise.resolve(preview) };
    this.runs.set(jobId, entry);
    this.publish(preview);
    entry.done = this.run(preview, ctrl.signal).finally(() => {
      if (this.runs.get(jobId) === entry) this.runs.delete(jobId);
    });
    return entry.done;
  }

  /** A preview this job had before the window reloaded (previewFromTimeline); one made since wins. */
  restore(p: JobPreview): void {
    if (!this.previews.has(p.jobId)) this.previews.set(p.jobId, p);
  }

  /** Stops following a job's preview (the job was removed). */
  forget(jobId: string): void {
    this.runs.get(jobId)?.ctrl.abort();
    this.runs.delete(jobId);
    this.previews.delete(jobId);
  }

  dispose(): void {
    for (const { ctrl } of this.runs.values()) ctrl.abort();
    this.runs.clear();
    this.changed.dispose();
    this.refused.dispose();
  }

  private async run(preview: JobPreview, signal: AbortSignal): Promise<JobPreview> {
    const deadline = this.clock.now() + PREVIEW_MAX_WAIT_MS;
    try {
      const calls = await this.opts.calls();
      const deployment = await this.call(signal, deadline, () => calls.requestPreview(preview.branch, { signal }));
      this.settle(preview, { phase: 'queued', previewUrl: deployment.previewUrl });
      for (let poll = 0; ; poll++) {
        await this.wait(Math.min(PREVIEW_MAX_POLL_MS, PREVIEW_FIRST_POLL_MS * PREVIEW_POLL_FACTOR ** poll), signal, deadline);
        const status = await this.call(signal, deadline, () => calls.getStatus(deployment.statusId, { signal }));
        this.settle(preview, { phase: status.status, summary: status.summary, logs: status.logs });
        if (status.status === 'success' || status.status === 'failure') return preview;
      }
    } catch (e) {
      const error = describeError(e);
      if (error.kind === 'aborted' && signal.aborted) return preview;
      if (error.reason.code === 'notOffered' && !this.notOffered) {
        this.notOffered = error;
        this.refused.fire(error);
      }
      return this.settle(preview, { phase: 'error', error });
    }
  }

  /**
   * One request, within the budget: it waits for a free use first, and after a 429, a network
   * error or a 5xx waits (Retry-After, else the backoff) and asks again, a few times at most.
   */
  private async call<T>(signal: AbortSignal, deadline: number, send: () => Promise<T>): Promise<T> {
    for (let errors = 0; ;) {
      const freeAt = this.opts.budget.nextFreeAt(this.clock.now());
      if (freeAt !== undefined) await this.wait(freeAt - this.clock.now(), signal, deadline);
      await this.opts.budget.record(this.clock.now());
      try {
        return await send();
      } catch (e) {
        const error = describeError(e);
        const retriable = error.kind === 'rateLimited' || error.kind === 'network' || error.kind === 'server' || error.kind === 'timeout';
        if (!retriable || ++errors >= MAX_ERRORS_IN_A_ROW || signal.aborted) throw error;
        const retryAfter = error.retryAfterMs === undefined ? 0 : clampRetryAfter(error.retryAfterMs);
        await this.wait(Math.max(retryAfter, PREVIEW_FIRST_POLL_MS * 2 ** errors), signal, deadline);
      }
    }
  }

  /** Waits `ms`, unless that would pass the run's deadline (then it fails at once) or the run is stopped. */
  private wait(ms: number, signal: AbortSignal, deadline: number): Promise<void> {
    if (signal.aborted) return Promise.reject(new ServiceError({ reason: { code: 'aborted' } }));
    if (this.clock.now() + ms > deadline) return Promise.reject(new ServiceError({ reason: { code: 'timeout' } }));
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.clock.clearTimeout(timer);
        reject(new ServiceError({ reason: { code: 'aborted' } }));
      };
      const timer = this.clock.setTimeout(
        () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private settle(preview: JobPreview, patch: Partial<JobPreview>): JobPreview {
    Object.assign(preview, patch);
    this.publish(preview);
    return preview;
  }

  /** The job's preview is this one now, unless a newer run took its place. */
  private publish(preview: JobPreview): void {
    const run = this.runs.get(preview.jobId);
    if (run && run.preview !== preview) return;
    this.previews.set(preview.jobId, preview);
    this.changed.fire(preview);
  }
}
