import { randomBytes } from 'node:crypto';
import type { AgentJob, AgentJobStatus } from '../../src/api/types';
import { branchFor, makeEdit } from './agentWork';
import type { ResolvedOptions } from './config';
import { DOCS_REPOSITORY as REPOSITORY, type DocsRepo } from './docsRepo';
import { errorBody, escapeHtml, htmlPage, type Exchange } from './exchange';
import { AGENT_FAULTS, chooseFault, FAULT_HEADER, HUGE_RETRY_AFTER, type AgentFault } from './faults';

// Agent jobs (notes.md "Agent jobs"): create, follow up, poll. A job's status follows the wall
// clock, worked out when the job is read, so the emulator runs no timers for jobs and a test with
// a short jobDurationMs sees the same lifecycle as the demo with the default. Each job works on its
// own branch of the docs repository, and commits its edit there when it reaches its outcome.

const PR_PATH = '/pr/acme/acme-docs/pull/';
const MODEL = 'emulated-agent-1';
const GITHUB_PR = /\[\[pr:github\]\]/i;
const HOUR_MS = 60 * 60 * 1000;

type Outcome = 'pull-request' | 'no-changes' | 'fail' | 'archive';

interface JobRecord {
  id: string;
  /** Its branch in the docs repository, made at create (agentWork.ts). */
  ref: string;
  status: AgentJobStatus;
  createdAt: Date;
  archivedAt: Date | null;
  prNumber: number | null;
  /** `[[pr:github]]` in the first prompt: the prLink is a github.com pull request, not the emulator's page. */
  onGitHub: boolean;
  prompts: { at: Date; text: string }[];
  /** While active: when the agent is done, and how it ends. */
  pending: { at: number; outcome: Outcome } | null;
  /**
   * The commit the branch gets at the pending outcome (undefined: none), made in the background
   * while the job runs, so that the read that settles the job only moves the branch.
   */
  made: Promise<string | undefined>;
  /** While the outcome is being reached: a read meanwhile waits for it. */
  settling?: Promise<void>;
}

/** How a prompt ends: magic words for tests, and plain words a demo user might type. */
export function outcomeOf(prompt: string): Outcome {
  if (/\[\[outcome:fail\]\]/i.test(prompt)) return 'fail';
  if (/\[\[outcome:archive\]\]/i.test(prompt)) return 'archive';
  if (/\[\[outcome:no-changes\]\]/i.test(prompt) || /\bno changes\b/i.test(prompt)) return 'no-changes';
  return 'pull-request';
}

export class AgentJobs {
  private readonly jobs = new Map<string, JobRecord>();
  /** When each counted use happened, per project, for the rolling-hour limit. */
  private readonly uses = new Map<string, number[]>();
  private lastPr = 0;

  constructor(
    private readonly opts: ResolvedOptions,
    private readonly baseUrl: () => string,
    private readonly repo: DocsRepo,
  ) {}

  reset(): void {
    this.jobs.clear();
    this.uses.clear();
    this.lastPr = 0;
    this.held = false;
  }

  /**
   * While held, no active job reaches its outcome, however long it has run: a test that must see a
   * job active does not race the clock on a loaded machine. Released, each job whose time is up
   * settles at its next read.
   */
  hold(held: boolean): void {
    this.held = held;
  }
  private held = false;

  async create(ex: Exchange, projectId: string): Promise<void> {
    const prompt = await this.acceptPrompt(ex, projectId);
    if (prompt === undefined) return;
    const id = `job_${randomBytes(8).toString('hex')}`;
    const ref = branchFor(id);
    // The branch exists as soon as the job does, as the service's agent makes it first.
    await this.repo.createBranch(ref);
    const now = Date.now();
    const job: JobRecord = {
      id,
      ref,
      status: 'active',
      createdAt: new Date(now),
      archivedAt: null,
      prNumber: null,
      onGitHub: GITHUB_PR.test(prompt),
      prompts: [{ at: new Date(now), text: prompt }],
      pending: { at: now + this.opts.jobDurationMs, outcome: outcomeOf(prompt) },
      made: Promise.resolve(undefined),
    };
    job.made = this.make(job, Promise.resolve(undefined));
    this.jobs.set(job.id, job);
    ex.json(201, this.view(job));
  }

  async followUp(ex: Exchange, projectId: string, jobId: string): Promise<void> {
    const job = this.jobs.get(jobId);
    if (!job) return ex.json(404, errorBody('Agent job not found'));
    await this.settle(job);
    if (job.status === 'archived') return ex.json(400, errorBody('This agent job is archived and takes no more messages.'));
    const prompt = await this.acceptPrompt(ex, projectId);
    if (prompt === undefined) return;
    const now = Date.now();
    job.prompts.push({ at: new Date(now), text: prompt });
    job.status = 'active';
    job.pending = { at: now + this.opts.jobDurationMs, outcome: outcomeOf(prompt) };
    // On top of a commit made for an instruction still unfinished, so that one is not lost.
    job.made = this.make(job, job.made);
    ex.json(200, this.view(job));
  }

  async get(ex: Exchange, jobId: string): Promise<void> {
    // Polling has no prompt to carry a fault word, so only the header can fault it.
    const fault = chooseFault(ex.header(FAULT_HEADER), '', AGENT_FAULTS);
    if (fault && 'unknown' in fault) return ex.json(400, errorBody(`Unknown emulator fault "${fault.unknown}". Known: ${AGENT_FAULTS.join(', ')}.`));
    if (fault && (await this.fault(ex, fault.mode))) return;
    const job = this.jobs.get(jobId);
    if (!job) return ex.json(404, errorBody('Agent job not found'));
    await this.settle(job);
    ex.json(200, this.view(job));
  }

  /** The page a prLink points at, so that opening it shows what the agent was asked to do. */
  prPage(path: string): string | undefined {
    if (!path.startsWith(PR_PATH)) return undefined;
    const n = Number(path.slice(PR_PATH.length));
    const job = [...this.jobs.values()].find((j) => j.prNumber === n);
    if (!job) return undefined;
    const prompts = job.prompts.map((p) => `<li><span class="muted">${escapeHtml(p.at.toISOString())}</span><br>${escapeHtml(p.text)}</li>`).join('');
    return htmlPage(
      `Docs update by the agent #${n}`,
      `<h1>Docs update by the agent <span class="muted">#${n}</span></h1>
<p><span class="badge">Open</span> acme/acme-docs · <code>${escapeHtml(job.ref)}</code> → <code>main</code></p>
<p>The local service emulator opened this pull request for agent job <code>${escapeHtml(job.id)}</code>. Its agent committed each instruction on the branch as a note on the page it names.</p>
<h2>Instructions</h2><ol>${prompts}</ol>`,
    );
  }

  /**
   * Checks the body and the limit of a create or follow-up; answers and returns undefined when
   * the request cannot go ahead. A fault or a refusal is not a use, so it is not counted.
   */
  private async acceptPrompt(ex: Exchange, projectId: string): Promise<string | undefined> {
    let body: unknown;
    try {
      body = JSON.parse(ex.rawBody);
    } catch {
      ex.json(400, errorBody('Request body is not valid JSON.'));
      return undefined;
    }
    const prompt = typeof body === 'object' && body !== null ? (body as { prompt?: unknown }).prompt : undefined;
    const fault = chooseFault(ex.header(FAULT_HEADER), typeof prompt === 'string' ? prompt : '', AGENT_FAULTS);
    if (fault && 'unknown' in fault) {
      ex.json(400, errorBody(`Unknown emulator fault "${fault.unknown}". Known: ${AGENT_FAULTS.join(', ')}.`));
      return undefined;
    }
    if (fault && (await this.fault(ex, fault.mode))) return undefined;
    if (typeof prompt !== 'string' || prompt.trim().length === 0) {
      ex.json(400, errorBody('prompt is required and must be a non-empty string.'));
      return undefined;
    }
    const retryAfterS = this.limitReached(projectId);
    if (retryAfterS !== undefined) {
      ex.json(429, errorBody(`Rate limit exceeded: ${this.opts.rateLimitPerHour} agent requests per project per hour.`), {
        'retry-after': String(retryAfterS),
      });
      return undefined;
    }
    return prompt;
  }

  /** Seconds until a use frees up when the project is at its limit; otherwise counts this use. */
  private limitReached(projectId: string): number | undefined {
    const now = Date.now();
    const recent = (this.uses.get(projectId) ?? []).filter((t) => t > now - HOUR_MS);
    this.uses.set(projectId, recent);
    if (recent.length >= this.opts.rateLimitPerHour) return Math.max(1, Math.ceil((recent[0]! + HOUR_MS - now) / 1000));
    recent.push(now);
    return undefined;
  }

  /** Answers as the fault says; true when it did (a fault that never answers counts too). */
  private fault(ex: Exchange, mode: AgentFault): boolean | Promise<boolean> {
    switch (mode) {
      case '500':
        ex.json(500, errorBody('Internal server error'));
        return true;
      case '503':
        ex.json(503, { error: { message: 'The agent service is temporarily unavailable.' } });
        return true;
      case '429':
        ex.json(429, errorBody('Rate limit exceeded.'), { 'retry-after': '30' });
        return true;
      case '429-no-retry-after':
        ex.json(429, { message: 'Too many requests.' });
        return true;
      case '429-huge':
        ex.json(429, errorBody('Rate limit exceeded.'), { 'retry-after': HUGE_RETRY_AFTER });
        return true;
      case 'other-id':
        ex.json(200, {
          id: `job_${randomBytes(8).toString('hex')}`,
          status: 'completed',
          source: { repository: REPOSITORY, ref: 'main' },
          model: MODEL,
          prLink: `${this.baseUrl()}${PR_PATH}999`,
          createdAt: new Date().toISOString(),
          archivedAt: null,
        });
        return true;
      case '400':
        ex.json(400, errorBody('Invalid request: prompt must be a string.'));
        return true;
      case '401':
        ex.json(401, { error: { message: 'Invalid or revoked admin API key.', code: 'unauthorized' } });
        return true;
      case '403':
        ex.json(403, { message: 'This key may not use this project.' });
        return true;
      case '404':
        ex.json(404, errorBody('Agent job not found'));
        return true;
      case 'html-502':
        ex.send(
          502,
          'text/html; charset=utf-8',
          '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>emulated-proxy/1.0</center></body></html>\n',
        );
        return true;
      case 'stall-headers':
        return ex.hold().then(() => true);
      case 'drop':
        ex.drop();
        return true;
      case 'drop-mid': {
        // 200 and half of a job, then the connection breaks: the body never completes.
        const body = JSON.stringify({
          id: `job_${randomBytes(8).toString('hex')}`,
          status: 'active',
          source: { repository: REPOSITORY, ref: 'main' },
          model: MODEL,
          prLink: null,
          createdAt: new Date().toISOString(),
          archivedAt: null,
        });
        ex.head(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
        return ex
          .write(body.slice(0, Math.floor(body.length / 2)))
          .then(() => ex.flushed())
          .then(
            () => (ex.drop(), true),
            () => true,
          );
      }
      case 'bad-json':
        ex.send(200, 'application/json; charset=utf-8', '{"id": "job_0f3a", "status": "act');
        return true;
      case 'bad-job':
        ex.json(200, { id: `job_${randomBytes(8).toString('hex')}`, status: 'weird', model: MODEL, createdAt: new Date().toISOString() });
        return true;
    }
  }

  /**
   * Brings a job up to the wall clock: an active job whose time is up gets its outcome, a pull
   * request only once its commit is on the branch, so whoever sees `completed` can fetch it.
   */
  private settle(job: JobRecord): Promise<void> {
    if (job.settling) return job.settling;
    if (this.held || !job.pending || Date.now() < job.pending.at) return Promise.resolve();
    job.settling = this.reach(job, job.pending.outcome, job.made).finally(() => (job.settling = undefined));
    return job.settling;
  }

  /** The commit for the latest instruction when it ends in a pull request, made on top of `before`'s. */
  private make(job: JobRecord, before: Promise<string | undefined>): Promise<string | undefined> {
    const prompts = job.prompts.map((p) => p.text);
    if (job.pending?.outcome !== 'pull-request') return Promise.resolve(undefined);
    const made = before.catch(() => undefined).then((parent) => makeEdit(this.repo, job.ref, job.id, prompts, parent));
    // Handled here too: a failure is reported by the read that settles the job (a 500), not as an unhandled rejection.
    made.catch(() => undefined);
    return made;
  }

  private async reach(job: JobRecord, outcome: Outcome, made: Promise<string | undefined>): Promise<void> {
    const commit = await made;
    if (commit) await this.repo.moveBranch(job.ref, commit);
    job.pending = null;
    switch (outcome) {
      case 'pull-request':
        job.status = 'completed';
        // A follow-up updates the pull request the job already has.
        job.prNumber ??= ++this.lastPr;
        break;
      case 'no-changes':
        job.status = 'completed';
        break;
      case 'fail':
        job.status = 'failed';
        break;
      case 'archive':
        job.status = 'archived';
        job.archivedAt = new Date();
        break;
    }
  }

  private view(job: JobRecord): AgentJob {
    return {
      id: job.id,
      status: job.status,
      source: { repository: REPOSITORY, ref: job.ref },
      model: MODEL,
      // Null until the agent has opened a pull request. A follow-up keeps the link, also while the
      // job is active again: the pull request still exists, and the agent adds to it.
      prLink: job.prNumber === null ? null : job.onGitHub ? `${REPOSITORY}/pull/${job.prNumber}` : `${this.baseUrl()}${PR_PATH}${job.prNumber}`,
      createdAt: job.createdAt.toISOString(),
      archivedAt: job.archivedAt ? job.archivedAt.toISOString() : null,
    };
  }
}
