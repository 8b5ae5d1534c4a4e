import { parseAgentJob } from './agentJob';
import { ServiceError, describeError } from './errors';
import { keyedJson, adminUrl } from './adminCall';
import { sleep, type ClientOptions } from './http';
import { errorFromStatus, type ErrorTarget } from './httpErrors';
import { redact } from './redact';
import type { AgentJob } from './types';

// Client for the agent-job endpoints (service-interface.md §4.1–4.3, notes.md "Agent jobs").
// The admin key is a server-side secret: it is checked, and the address it would travel to is
// checked, before any byte leaves the machine.

export interface AgentClientOptions extends ClientOptions {
  projectId: string;
  apiKey: string;
  /** Waits before the retries of getJob (network errors and 5xx only). Default [250, 1000]. */
  getRetryDelaysMs?: readonly number[];
}

export interface CallOptions {
  signal?: AbortSignal;
}

const MAX_JOB_BODY_BYTES = 1024 * 1024;

export class AgentClient {
  private readonly opts: AgentClientOptions;

  constructor(opts: AgentClientOptions) {
    // Copied, so a later change to the caller's object cannot redirect the key mid-flight.
    this.opts = { ...opts };
  }

  /** POST /v2/agent/{projectId}/job. Never retried: a retry could start a second job. */
  createJob(prompt: string, opts: CallOptions = {}): Promise<AgentJob> {
    return this.call('POST', ['job'], { projectId: this.opts.projectId }, prompt, opts.signal);
  }

  /** POST /v2/agent/{projectId}/job/{id}/message. Never retried, for the same reason. */
  sendMessage(jobId: string, prompt: string, opts: CallOptions = {}): Promise<AgentJob> {
    return this.call('POST', ['job', jobId, 'message'], { projectId: this.opts.projectId, jobId }, prompt, opts.signal);
  }

  /**
   * GET /v2/agent/{projectId}/job/{id}. Reading is safe to repeat, so network errors and 5xx
   * are retried a couple of times with a short pause; the caller's signal ends the wait.
   */
  async getJob(jobId: string, opts: CallOptions = {}): Promise<AgentJob> {
    const delays = this.opts.getRetryDelaysMs ?? [250, 1000];
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.call('GET', ['job', jobId], { projectId: this.opts.projectId, jobId }, undefined, opts.signal);
      } catch (e) {
        const err = describeError(e, [this.opts.apiKey]);
        const retriable = err.kind === 'network' || err.kind === 'server';
        if (!retriable || attempt >= Math.min(2, delays.length)) throw err;
        await sleep(delays[attempt]!, opts.signal);
      }
    }
  }

  private async call(
    method: 'GET' | 'POST',
    path: string[],
    target: { projectId: string; jobId?: string },
    prompt: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<AgentJob> {
    if (target.jobId !== undefined && target.jobId.trim() === '') throw new ServiceError({ reason: { code: 'jobIdMissing' } });
    const url = adminUrl(this.opts, ['v2', 'agent', (this.opts.projectId ?? '').trim(), ...path]);
    if (prompt !== undefined && prompt.trim() === '') {
      throw new ServiceError({ reason: { code: 'promptEmpty' } });
    }
    const errorTarget: ErrorTarget = { service: 'agent', ...target };
    const { status, json } = await keyedJson(this.opts, {
      method,
      url,
      body: prompt === undefined ? undefined : { prompt },
      signal,
      maxBodyBytes: MAX_JOB_BODY_BYTES,
      errorFor: (response, text, secrets) => errorFromStatus(response, text, errorTarget, secrets),
    });
    const secrets = [this.opts.apiKey];
    const job = parseAgentJob(json);
    // A reply about another job (a confused proxy or cache, a service bug) would overwrite the
    // job the user started with someone else's: it is refused, and the listed job stays as it was.
    if (target.jobId !== undefined && job.id !== target.jobId) {
      const askedFor = redact(cutId(target.jobId), secrets);
      const answeredFor = redact(cutId(job.id), secrets);
      throw new ServiceError({
        reason: { code: 'otherJob', askedFor, answeredFor },
        status,
      });
    }
    return job;
  }
}

/** An id as it goes into a message: a service can send any string, of any length. */
function cutId(id: string): string {
  return id.length > 60 ? `${id.slice(0, 59)}…` : id;
}
