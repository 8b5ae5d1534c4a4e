import { type AgentClient, describeError, ServiceError, type AgentJob } from '../../api';
import { Emitter } from '../../common/event';
import { english } from '../../common/l10n';
import { describeForUser } from '../../host/core/errorWords';
import type { Memento } from '../../common/memento';
import { JobStore, storeKey, type JobRecord } from './jobStore';
import { JobPoller, type PollClock, type PollResult } from './poller';
import { RateBudget } from './rateBudget';

// The agent jobs of one project, below the UI: create, follow up, poll, remember. It knows
// nothing of VS Code, so the whole flow runs in Node tests against the emulator.

export interface AgentJobsOptions {
  memento: Memento;
  baseUrl: string;
  projectId: string;
  /** Builds a client with the current key; throws a ServiceError when something is missing. */
  client(): Promise<AgentClient>;
  clock?: PollClock;
  baseIntervalMs(): number;
  isFocused(): boolean;
  /** The service's limit on create + follow-up uses per project per hour. */
  usesPerHour?: number;
  /**
   * The words a failed poll shows on its job, in the display language (src/host/core/errorWords.ts).
   * Without it, the same words in English.
   */
  describe?(error: ServiceError): string;
}

/**
 * Thrown when a create was sent but its answer never came: a job may exist anyway. Says what
 * happened to the request (`reason`, as the error it got) and that the response was lost
 * (`lostResponse`): the user reads both in src/host/core/errorWords.ts's words.
 */
export class LostResponseError extends ServiceError {
  constructor(cause: ServiceError) {
    super({
      reason: cause.reason,
      status: cause.status,
      retryAfterMs: cause.retryAfterMs,
      detail: cause.detail,
      lostResponse: true,
      cause,
    });
  }
}

export class AgentJobs {
  readonly store: JobStore;
  readonly budget: RateBudget;
  readonly poller: JobPoller;
  private readonly finished = new Emitter<JobRecord>();
  /** A job left `active`: completed, failed or archived. */
  readonly onDidFinishJob = this.finished.event;
  /** The key was refused while polling, and polling stopped (JobPoller.onDidFailAuth). */
  readonly onDidFailAuth: JobPoller['onDidFailAuth'];

  constructor(private readonly opts: AgentJobsOptions) {
    const key = storeKey(opts.baseUrl, opts.projectId);
    this.store = new JobStore(opts.memento, key);
    this.budget = new RateBudget(opts.memento, `${key}:uses`, opts.usesPerHour);
    this.poller = new JobPoller({
      clock: opts.clock,
      baseIntervalMs: opts.baseIntervalMs,
      isFocused: opts.isFocused,
      fetchJob: async (id, signal) => (await opts.client()).getJob(id, { signal }),
    });
    this.poller.onDidPoll(({ jobId, result }) => {
      if (!this.applyPoll(jobId, result)) this.poller.stop(jobId);
    });
    this.onDidFailAuth = this.poller.onDidFailAuth;
  }

  /** After a reload or a host restart: pick up polling where it was. */
  resumePolling(): void {
    this.poller.resume();
    for (const r of this.store.active()) this.poller.ensurePolling(r.job.id);
  }

  /** Starts a job; `label` is stored beside the prompt (see JobRecord.label). */
  async create(prompt: string, signal?: AbortSignal, label?: string): Promise<JobRecord> {
    const client = await this.opts.client();
    await this.budget.record();
    let job: AgentJob;
    try {
      job = await client.createJob(prompt, { signal });
    } catch (e) {
      const err = describeError(e);
      // No answer, but the request may have arrived: say so, and never retry on our own. A refused
      // connection, an unknown host or a failed handshake sent nothing, and says so plainly.
      if ((err.kind === 'network' || err.kind === 'timeout') && !err.notSent) throw new LostResponseError(err);
      throw err;
    }
    const record = this.store.add(job, prompt, new Date(), label);
    if (job.status === 'active') this.poller.ensurePolling(job.id);
    return record;
  }

  async followUp(jobId: string, prompt: string, signal?: AbortSignal): Promise<JobRecord> {
    const client = await this.opts.client();
    await this.budget.record();
    const job = await client.sendMessage(jobId, prompt, { signal });
    const record = this.store.addFollowUp(jobId, prompt, job) ?? this.store.add(job, prompt);
    // The follow-up is processed asynchronously; poll from the short interval again.
    this.poller.reset(jobId);
    return record;
  }

  /** Polls every active job now, and any job the user asks about explicitly. */
  refresh(jobId?: string): void {
    this.poller.resume();
    const ids = jobId ? [jobId] : this.store.active().map((r) => r.job.id);
    for (const id of ids) this.poller.pollNow(id);
  }

  remove(jobId: string): void {
    this.poller.stop(jobId);
    this.store.remove(jobId);
  }

  dispose(): void {
    this.poller.dispose();
    this.finished.dispose();
  }

  /** Writes one poll's answer to the job's record; false once the job needs no more polling. */
  private applyPoll(id: string, result: PollResult): boolean {
    const before = this.store.get(id);
    if (!before) return false; // Removed while the request was out.
    if (result.kind === 'error') {
      if (result.error.kind === 'notFound') {
        this.store.update(id, { notFound: true, pollError: undefined });
        return false;
      }
      this.store.update(id, { pollError: this.opts.describe?.(result.error) ?? describeForUser(result.error, english).message });
      return true;
    }
    const after = this.store.update(id, { job: result.job, pollError: undefined, notFound: false })!;
    if (result.job.status === 'active') return true;
    if (before.job.status === 'active') this.finished.fire(after);
    return false;
  }
}
