import { ServiceError } from './errors';
import { safeExternalUrl } from './sources';
import { describeValue, isObj, own, str, type Obj } from './json';
import { PREVIEW_STATES, type PreviewDeployment, type PreviewState, type PreviewStatus } from './types';

// Validates what the preview endpoints answer (notes.md "Preview deployments"). They are beyond
// the interface, so nothing about them is taken on trust: a preview URL is opened in the browser
// and its logs are shown, so both are checked and bounded here, before anything else sees them.

/** Status ids go back into a request's path: short, and plain characters only. */
const STATUS_ID = /^[A-Za-z0-9_.:-]{1,128}$/;
export const MAX_PREVIEW_URL_CHARS = 2048;
/** The last lines are kept (a build says why it failed at its end); one more line says how many were left out. */
export const MAX_PREVIEW_LOG_LINES = 1000;
export const MAX_PREVIEW_LOG_LINE_CHARS = 2000;
export const MAX_PREVIEW_SUMMARY_CHARS = 500;

function bad(field: string, expected: string, got: unknown): ServiceError {
  return new ServiceError({ reason: { code: 'badPreview', field, expected, got: describeValue(got) } });
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** An absolute http(s) address without a user name or password (safeExternalUrl's rule), of a bounded length, or undefined. */
export function safePreviewUrl(v: unknown): string | undefined {
  return str(v) && v.length <= MAX_PREVIEW_URL_CHARS ? safeExternalUrl(v) : undefined;
}

function statusIdOf(v: unknown, field: string): string {
  if (!str(v) || !STATUS_ID.test(v)) throw bad(field, 'a status id (letters, digits, _ . : -)', v);
  return v;
}

/** The answer to POST /v1/project/preview/{projectId}. */
export function parsePreviewDeployment(body: unknown): PreviewDeployment {
  if (!isObj(body)) throw bad('', 'a preview deployment', body);
  const statusId = statusIdOf(own(body, 'statusId'), 'statusId');
  const previewUrl = safePreviewUrl(own(body, 'previewUrl'));
  if (previewUrl === undefined) throw bad('previewUrl', 'an http(s) address', own(body, 'previewUrl'));
  return { statusId, previewUrl };
}

function nullableDate(o: Obj, field: string): string | null {
  const v = own(o, field);
  if (v === undefined || v === null) return null;
  if (!str(v) || !Number.isFinite(Date.parse(v))) throw bad(field, 'a date-time or null', v);
  return v;
}

/** The logs as lines of text: entries that are not text are left out, and the count and lengths bounded. */
function logsOf(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw bad('logs', 'a list of lines', v);
  const lines = v.filter(str);
  const kept = lines.slice(-MAX_PREVIEW_LOG_LINES).map((l) => cut(l, MAX_PREVIEW_LOG_LINE_CHARS));
  const left = lines.length - kept.length;
  return left > 0 ? [`… ${left} earlier lines not shown`, ...kept] : kept;
}

function isState(v: unknown): v is PreviewState {
  return str(v) && (PREVIEW_STATES as readonly string[]).includes(v);
}

/** The answer to GET /v1/project/update-status/{statusId}; a status about another id is refused. */
export function parsePreviewStatus(body: unknown, statusId: string): PreviewStatus {
  if (!isObj(body)) throw bad('', 'a preview status', body);
  const id = own(body, '_id') ?? own(body, 'id') ?? statusId;
  if (id !== statusId) throw bad('_id', `"${statusId}"`, id);
  const status = own(body, 'status');
  if (!isState(status)) throw bad('status', `one of ${PREVIEW_STATES.join(', ')}`, status);
  const summary = own(body, 'summary');
  const out: PreviewStatus = {
    id: statusId,
    status,
    summary: str(summary) ? cut(summary, MAX_PREVIEW_SUMMARY_CHARS) : '',
    logs: logsOf(own(body, 'logs')),
    createdAt: nullableDate(body, 'createdAt'),
    endedAt: nullableDate(body, 'endedAt'),
  };
  const commit = own(body, 'commit');
  if (isObj(commit) && str(commit.sha) && str(commit.ref)) out.commit = { sha: cut(commit.sha, 64), ref: cut(commit.ref, 255) };
  return out;
}
