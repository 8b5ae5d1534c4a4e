import { AGENT_JOB_STATUSES, PREVIEW_STATES, safeExternalUrl, type AgentJob, type AgentJobStatus, type PreviewState } from '../../api';

// A job's timeline (issue 30 §3): what happened to it, in order, each with its time. It is kept in
// the job's record (jobStore.ts) and read back after a reload, so it is bounded like the rest of the
// store, and every entry read back (globalState may hold anything an older or newer version wrote)
// is checked before it is shown.

export type TimelineEntry = { at: string } & (
  | { kind: 'prompt'; text: string }
  | { kind: 'followUp'; text: string }
  | { kind: 'status'; status: AgentJobStatus }
  | { kind: 'pullRequest'; url: string }
  | { kind: 'preview'; state: PreviewState | 'requested' | 'notOffered'; url?: string }
  | { kind: 'review'; action: 'diff' | 'checkout'; files?: number }
);

/** Entries kept per job: the prompt, and the newest after it. */
export const MAX_TIMELINE_ENTRIES = 100;
/** Characters kept of a prompt or a follow-up (the tooltip shows them whole up to this). */
export const MAX_TIMELINE_TEXT = 2000;
/** Characters of a link: longer is no address a browser takes, so it is dropped, not cut. */
export const MAX_TIMELINE_URL = 2048;

const PREVIEW_ENTRY_STATES: readonly string[] = [...PREVIEW_STATES, 'requested', 'notOffered'];

/** The entry, checked and bounded, or undefined when it is not one (wrong kind, bad time, bad fields). */
export function boundedEntry(value: unknown): TimelineEntry | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.at !== 'string' || !Number.isFinite(Date.parse(v.at))) return undefined;
  const at = new Date(Date.parse(v.at)).toISOString();
  switch (v.kind) {
    case 'prompt':
    case 'followUp':
      return typeof v.text === 'string' ? { at, kind: v.kind, text: cut(v.text, MAX_TIMELINE_TEXT) } : undefined;
    case 'status':
      return typeof v.status === 'string' && (AGENT_JOB_STATUSES as readonly string[]).includes(v.status)
        ? { at, kind: 'status', status: v.status as AgentJobStatus }
        : undefined;
    case 'pullRequest': {
      const url = checkedUrl(v.url);
      return url === undefined ? undefined : { at, kind: 'pullRequest', url };
    }
    case 'preview': {
      if (typeof v.state !== 'string' || !PREVIEW_ENTRY_STATES.includes(v.state)) return undefined;
      const entry: TimelineEntry = { at, kind: 'preview', state: v.state as PreviewState | 'requested' | 'notOffered' };
      const url = checkedUrl(v.url);
      if (url !== undefined) entry.url = url;
      return entry;
    }
    case 'review': {
      if (v.action !== 'diff' && v.action !== 'checkout') return undefined;
      const entry: TimelineEntry = { at, kind: 'review', action: v.action };
      if (typeof v.files === 'number' && Number.isSafeInteger(v.files) && v.files >= 0) entry.files = v.files;
      return entry;
    }
    default:
      return undefined;
  }
}

/**
 * `entries` with `entry`, checked and bounded, added at the end, keeping the first (the prompt) and
 * the newest; `entries` itself when `entry` is not one.
 */
export function appendBounded(entries: TimelineEntry[], entry: TimelineEntry): TimelineEntry[] {
  const checked = boundedEntry(entry);
  return checked ? keepBounded([...entries, checked]) : entries;
}

function keepBounded(all: TimelineEntry[]): TimelineEntry[] {
  if (all.length <= MAX_TIMELINE_ENTRIES) return all;
  return [all[0]!, ...all.slice(all.length - (MAX_TIMELINE_ENTRIES - 1))];
}

/**
 * What a newer answer for a job says happened since the last one: its status changed, its pull
 * request appeared (or is another one). A status comes before the pull request it brought.
 */
export function changesBetween(before: AgentJob, after: AgentJob, at: string): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  if (after.status !== before.status) entries.push({ at, kind: 'status', status: after.status });
  const prLink = after.prLink && after.prLink !== before.prLink ? checkedUrl(after.prLink) : undefined;
  if (prLink !== undefined) entries.push({ at, kind: 'pullRequest', url: prLink });
  return entries;
}

/**
 * The timeline of a job just started: its prompt. A job is created working, so that is no change
 * worth a row; a job stored already further on (an import, a test) says so after the prompt.
 */
export function startTimeline(job: AgentJob, prompt: string, at: string): TimelineEntry[] {
  return [{ at, kind: 'prompt', text: cut(prompt, MAX_TIMELINE_TEXT) }, ...changesBetween({ ...job, status: 'active', prLink: null }, job, at)];
}

/** What a record keeps besides its timeline: enough to tell the story of one saved before timelines. */
export interface TimelineSource {
  job: AgentJob;
  prompt: string;
  followUps: readonly { prompt: string; sentAt: string }[];
  updatedAt: string;
}

/**
 * The timeline of a saved record: its own, checked, or, for one saved before timelines existed (or
 * whose entries were all unreadable), one made from what it has (the prompt when the job was
 * created, each follow-up when it was sent, the status and pull request as last seen), in the
 * order of their times.
 */
export function readTimeline(saved: unknown, r: TimelineSource): TimelineEntry[] {
  const own = Array.isArray(saved) ? checked(saved) : [];
  if (own.length > 0) return keepBounded(own);
  const made: unknown[] = [
    { at: r.job.createdAt, kind: 'prompt', text: r.prompt },
    // Read back from globalState: a follow-up may be anything there.
    ...r.followUps.map((f: Partial<TimelineSource['followUps'][number]> | null) => ({ at: f?.sentAt, kind: 'followUp', text: f?.prompt })),
    { at: r.updatedAt, kind: 'status', status: r.job.status },
    { at: r.updatedAt, kind: 'pullRequest', url: r.job.prLink },
  ];
  // Stable: entries at the same time keep the order above.
  return keepBounded(checked(made).sort((a, b) => Date.parse(a.at) - Date.parse(b.at)));
}

function checked(values: readonly unknown[]): TimelineEntry[] {
  return values.map(boundedEntry).filter((e): e is TimelineEntry => !!e);
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** An absolute http(s) address of a sane length; anything else is not kept. */
/** The address as the API's one rule for outside addresses reads it (safeExternalUrl), when it is one and fits. */
function checkedUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_TIMELINE_URL) return undefined;
  const url = safeExternalUrl(value);
  return url !== undefined && url.length <= MAX_TIMELINE_URL ? url : undefined;
}
