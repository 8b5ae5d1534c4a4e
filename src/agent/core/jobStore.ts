import type { AgentJob } from '../../api';
import { Emitter } from '../../common/event';
import type { Memento } from '../../common/memento';

// The service has no list endpoint (notes.md), so the jobs the user started are ours to keep.
// They live in globalState, per service address + project, so a reload or a crashed extension
// host loses nothing, and two projects never mix.

export interface FollowUp {
  prompt: string;
  sentAt: string;
}

export interface JobRecord {
  job: AgentJob;
  /** The instruction the job was created with (the service does not echo it). */
  prompt: string;
  /**
   * What the job is about, as the user knows it, stored beside the prompt: the instruction typed
   * for a job started from the palette, the question for one started from the chat. Records from
   * before it existed fall back to the prompt's Instruction: line (jobPresentation.ts labelOf).
   */
  label?: string;
  followUps: FollowUp[];
  /** The service answered 404 for this id; kept until the user removes it. */
  notFound?: boolean;
  /** The last polling error, shown on the item until a poll succeeds. */
  pollError?: string;
  /** When this record last changed (a poll that finds nothing new leaves it as it was). */
  updatedAt: string;
}

export function storeKey(baseUrl: string, projectId: string): string {
  return `docsAssistant.jobs:${baseUrl}|${projectId}`;
}

export class JobStore {
  private records: JobRecord[];
  private readonly changed = new Emitter<void>();
  /** A record was added, changed or removed (and the list saved). */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly memento: Memento,
    private readonly key: string,
  ) {
    const saved = memento.get<unknown>(key);
    this.records = Array.isArray(saved) ? saved.filter(isRecord) : [];
  }

  /** Newest first. */
  all(): readonly JobRecord[] {
    return this.records;
  }

  get(id: string): JobRecord | undefined {
    return this.records.find((r) => r.job.id === id);
  }

  active(): JobRecord[] {
    return this.records.filter((r) => r.job.status === 'active' && !r.notFound);
  }

  add(job: AgentJob, prompt: string, now = new Date(), label?: string): JobRecord {
    const existing = this.get(job.id);
    if (existing) return this.update(job.id, { job }, now)!;
    const record: JobRecord = { job, prompt, followUps: [], updatedAt: now.toISOString() };
    if (label?.trim()) record.label = label.trim();
    this.records = [record, ...this.records];
    this.save();
    return record;
  }

  /**
   * Applies `patch` to a job's record. A patch that changes nothing (most polls of a running job)
   * writes nothing and tells nobody: the list is saved, and the tree redrawn, only on a change.
   */
  update(id: string, patch: Partial<Omit<JobRecord, 'job'>> & { job?: AgentJob }, now = new Date()): JobRecord | undefined {
    const i = this.records.findIndex((r) => r.job.id === id);
    if (i < 0) return undefined;
    const before = this.records[i]!;
    const after: JobRecord = { ...before, ...patch };
    if (sameRecord(before, after)) return before;
    after.updatedAt = now.toISOString();
    const records = [...this.records];
    records[i] = after;
    this.records = records;
    this.save();
    return after;
  }

  addFollowUp(id: string, prompt: string, job: AgentJob, now = new Date()): JobRecord | undefined {
    const r = this.get(id);
    if (!r) return undefined;
    return this.update(id, { job, followUps: [...r.followUps, { prompt, sentAt: now.toISOString() }], pollError: undefined, notFound: false }, now);
  }

  remove(id: string): boolean {
    const before = this.records.length;
    this.records = this.records.filter((r) => r.job.id !== id);
    if (this.records.length === before) return false;
    this.save();
    return true;
  }

  private save(): void {
    void Promise.resolve(this.memento.update(this.key, this.records)).catch(() => {
      // globalState writes only fail when the host is going down; the list in memory stays right.
    });
    this.changed.fire();
  }
}

/** Equal as the user sees them: absent, undefined and false flags are the same, updatedAt aside. */
function sameRecord(a: JobRecord, b: JobRecord): boolean {
  return (
    sameJob(a.job, b.job) &&
    a.prompt === b.prompt &&
    a.label === b.label &&
    a.pollError === b.pollError &&
    !!a.notFound === !!b.notFound &&
    a.followUps.length === b.followUps.length &&
    a.followUps.every((f, i) => f.prompt === b.followUps[i]!.prompt && f.sentAt === b.followUps[i]!.sentAt)
  );
}

function sameJob(a: AgentJob, b: AgentJob): boolean {
  return (
    a.id === b.id &&
    a.status === b.status &&
    a.model === b.model &&
    a.prLink === b.prLink &&
    a.createdAt === b.createdAt &&
    a.archivedAt === b.archivedAt &&
    a.source.repository === b.source.repository &&
    a.source.ref === b.source.ref
  );
}

/** Drops records that a different version of the extension (or a hand edit) left malformed. */
function isRecord(v: unknown): v is JobRecord {
  if (!v || typeof v !== 'object') return false;
  const r = v as Partial<JobRecord>;
  return !!r.job && typeof r.job.id === 'string' && typeof r.job.status === 'string' && typeof r.prompt === 'string' && Array.isArray(r.followUps);
}
