import type { AgentJob } from '../../api';
import { Emitter } from '../../common/event';
import type { Memento } from '../../common/memento';
import { appendBounded, changesBetween, readTimeline, startTimeline, type TimelineEntry } from './timeline';

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
  /**
   * What happened to the job, oldest first (timeline.ts): recorded here as the store learns it,
   * bounded, and made from the fields above for a record saved before it existed.
   */
  timeline: TimelineEntry[];
}

/** What update() may change: the timeline follows from the change, it is never patched. */
export type RecordPatch = Partial<Omit<JobRecord, 'job' | 'timeline' | 'updatedAt'>> & { job?: AgentJob };

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
    this.records = Array.isArray(saved) ? saved.filter(isRecord).map((r) => ({ ...r, timeline: readTimeline(r.timeline, r) })) : [];
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
    const at = now.toISOString();
    const record: JobRecord = { job, prompt, followUps: [], updatedAt: at, timeline: startTimeline(job, prompt, at) };
    if (label?.trim()) record.label = label.trim();
    this.records = [record, ...this.records];
    this.save();
    return record;
  }

  /**
   * Applies `patch` to a job's record. A patch that changes nothing (most polls of a running job)
   * writes nothing and tells nobody: the list is saved, and the tree redrawn, only on a change.
   */
  update(id: string, patch: RecordPatch, now = new Date()): JobRecord | undefined {
    return this.write(id, now, (before) => patched(before, patch, now.toISOString()));
  }

  /** The follow-up, then what the answer to it says (the job working again), in one write. */
  addFollowUp(id: string, prompt: string, job: AgentJob, now = new Date()): JobRecord | undefined {
    const sentAt = now.toISOString();
    return this.write(id, now, (before) =>
      patched(
        { ...before, timeline: appendBounded(before.timeline, { at: sentAt, kind: 'followUp', text: prompt }) },
        { job, followUps: [...before.followUps, { prompt, sentAt }], pollError: undefined, notFound: false },
        sentAt,
      ),
    );
  }

  /**
   * Adds what happened to a job to its timeline: for the features that do things with a job
   * (its preview, a review of its changes). An entry that is not one (timeline.ts) is dropped.
   */
  appendTimeline(jobId: string, entry: TimelineEntry, now = new Date()): void {
    this.write(jobId, now, (before) => ({ ...before, timeline: appendBounded(before.timeline, entry) }));
  }

  /** Replaces a job's record with what `change` makes of it, saving and telling only on a real change. */
  private write(id: string, now: Date, change: (before: JobRecord) => JobRecord): JobRecord | undefined {
    const i = this.records.findIndex((r) => r.job.id === id);
    if (i < 0) return undefined;
    const before = this.records[i]!;
    const after = change(before);
    if (sameRecord(before, after)) return before;
    after.updatedAt = now.toISOString();
    const records = [...this.records];
    records[i] = after;
    this.records = records;
    this.save();
    return after;
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

/** `before` with `patch` applied; what the job's new state says happened since joins the timeline. */
function patched(before: JobRecord, patch: RecordPatch, at: string): JobRecord {
  const after: JobRecord = { ...before, ...patch };
  for (const entry of changesBetween(before.job, after.job, at)) after.timeline = appendBounded(after.timeline, entry);
  return after;
}

/** Equal as the user sees them: absent, undefined and false flags are the same, updatedAt aside. */
function sameRecord(a: JobRecord, b: JobRecord): boolean {
  return (
    sameJob(a.job, b.job) &&
    a.prompt === b.prompt &&
    a.label === b.label &&
    a.pollError === b.pollError &&
    !!a.notFound === !!b.notFound &&
    a.timeline === b.timeline &&
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
