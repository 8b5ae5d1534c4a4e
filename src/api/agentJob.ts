import { ServiceError } from './errors';
import { describeValue, own } from './json';
import { AGENT_JOB_STATUSES, type AgentJob, type AgentJobStatus } from './types';

// Validates an agent job body (service-interface.md §2.1, notes.md "Agent jobs"). Everything
// downstream (tree view, poller, PR buttons) trusts these types, so a body that does not fit is
// refused here with the field named, instead of failing somewhere far away.

function bad(field: string, expected: string, got: unknown): ServiceError {
  const value = describeValue(got);
  return new ServiceError({
    reason: { code: 'badJob', field, expected, got: value },
  });
}

function requireString(o: Record<string, unknown>, field: string, path = field): string {
  const v = own(o, field);
  if (typeof v !== 'string' || v.length === 0) throw bad(path, 'a non-empty string', v);
  return v;
}

/** Absent and null both mean "not set" for the fields the service documents as nullable. */
function nullableString(o: Record<string, unknown>, field: string, path = field): string | null {
  const v = own(o, field);
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw bad(path, 'a string or null', v);
  return v;
}

/**
 * A pull request link is shown, copied and opened: only an absolute http(s) address is kept.
 * Anything else (empty, `javascript:`, `file:`, a bare path) is as good as no link, and a job
 * that is otherwise fine still updates.
 */
function webLinkOrNull(v: string | null): string | null {
  if (!v) return null;
  try {
    const url = new URL(v);
    return url.protocol === 'https:' || url.protocol === 'http:' ? v : null;
  } catch {
    return null;
  }
}

function isStatus(v: unknown): v is AgentJobStatus {
  return typeof v === 'string' && (AGENT_JOB_STATUSES as readonly string[]).includes(v);
}

function requireDate(o: Record<string, unknown>, field: string): string {
  const v = requireString(o, field);
  if (!Number.isFinite(Date.parse(v))) throw bad(field, 'a date-time', v);
  return v;
}

/** Parses and validates a job body; throws ServiceError kind 'protocol' naming the first bad field. */
export function parseAgentJob(body: unknown): AgentJob {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    const value = describeValue(body);
    throw new ServiceError({
      reason: { code: 'badJob', field: '', expected: 'an agent job', got: value },
    });
  }
  const o = body as Record<string, unknown>;
  const id = requireString(o, 'id');
  const status = own(o, 'status');
  if (!isStatus(status)) throw bad('status', `one of ${AGENT_JOB_STATUSES.join(', ')}`, status);
  const source = own(o, 'source');
  if (source === null || typeof source !== 'object' || Array.isArray(source)) throw bad('source', 'an object', source);
  const s = source as Record<string, unknown>;
  const archivedAt = nullableString(o, 'archivedAt');
  if (archivedAt !== null && !Number.isFinite(Date.parse(archivedAt))) throw bad('archivedAt', 'a date-time or null', archivedAt);
  return {
    id,
    status,
    source: { repository: requireString(s, 'repository', 'source.repository'), ref: nullableString(s, 'ref', 'source.ref') },
    model: requireString(o, 'model'),
    // An empty link is as good as none; a button to nowhere, or to a script, would be worse.
    prLink: webLinkOrNull(nullableString(o, 'prLink')),
    createdAt: requireDate(o, 'createdAt'),
    archivedAt,
  };
}
