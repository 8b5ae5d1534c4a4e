import { ServiceError } from './errors';
import { describeValue, isObj, own, str, type Obj } from './json';
import {
  FEEDBACK_SOURCES,
  FEEDBACK_STATUSES,
  type AnalyticsPage,
  type AssistantConversationRecord,
  type FeedbackEntry,
  type FeedbackSource,
  type FeedbackStatus,
  type PageFeedbackCounts,
  type SearchRecord,
} from './types';

// Reads what the reader analytics endpoints answer (notes.md "Reader analytics"). Everything in
// them was written by readers or the service, and is shown in trees, hovers, CodeLens titles and
// agent prompts: so a page whose envelope is wrong is refused by name, and inside a good page an
// entry that is not one is dropped and counted (one bad entry must not hide the others). Every
// string is bounded here, before anything else holds it; numbers are finite and not negative.

export const MAX_COMMENT_CHARS = 4000;
export const MAX_QUERY_CHARS = 4000;
export const MAX_RESPONSE_CHARS = 4000;
/** A page path or URL longer than this names no page: the entry is dropped, not cut to another path. */
export const MAX_PATH_CHARS = 2048;
export const MAX_CODE_CHARS = 20_000;
export const MAX_SOURCES_PER_CONVERSATION = 20;
export const MAX_CURSOR_CHARS = 1024;
/** Ids, titles, file names, languages, categories, dates: short by nature. */
const MAX_ID_CHARS = 256;
const MAX_TITLE_CHARS = 300;
const MAX_LABEL_CHARS = 200;
const MAX_DATE_CHARS = 64;

function bad(field: string, expected: string, got: unknown): ServiceError {
  return new ServiceError({ reason: { code: 'badAnalytics', field, expected, got: describeValue(got) } });
}

/** At most `max` characters, the last one an ellipsis when cut; a surrogate pair is never split. */
export function boundText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

const text = (v: unknown, max: number): string | undefined => (str(v) ? boundText(v, max) : undefined);
const nullableText = (v: unknown, max: number): string | null => text(v, max) ?? null;
/** Text a reader typed, which the entry is about: not blank, bounded. */
const nonBlank = (v: unknown, max: number): string | undefined => (str(v) && v.trim() !== '' ? boundText(v, max) : undefined);

/** A non-empty string of at most `max` characters, or undefined (the entry is dropped). */
function required(v: unknown, max: number): string | undefined {
  return str(v) && v.trim() !== '' && v.length <= max ? v : undefined;
}

function dateOrNull(v: unknown): string | null {
  return str(v) && v.length <= MAX_DATE_CHARS && Number.isFinite(Date.parse(v)) ? v : null;
}

/** A count: a finite number, not negative, whole; `missing` when absent; undefined (dropped) when it is anything else. */
function count(v: unknown, missing: number | undefined): number | undefined {
  if (v === undefined || v === null) return missing;
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : undefined;
}

function oneOf<T extends string>(v: unknown, allowed: readonly T[]): T | undefined {
  return str(v) && (allowed as readonly string[]).includes(v) ? (v as T) : undefined;
}

function feedbackEntry(o: Obj): FeedbackEntry | undefined {
  const id = required(own(o, 'id'), MAX_ID_CHARS);
  const path = required(own(o, 'path'), MAX_PATH_CHARS);
  const source = oneOf<FeedbackSource>(own(o, 'source'), FEEDBACK_SOURCES);
  const status = oneOf<FeedbackStatus>(own(o, 'status'), FEEDBACK_STATUSES);
  if (id === undefined || path === undefined || source === undefined || status === undefined) return undefined;
  const entry: FeedbackEntry = {
    id,
    path,
    comment: nullableText(own(o, 'comment'), MAX_COMMENT_CHARS),
    createdAt: dateOrNull(own(o, 'createdAt')),
    source,
    status,
  };
  const helpful = own(o, 'helpful');
  if (typeof helpful === 'boolean') entry.helpful = helpful;
  const code = text(own(o, 'code'), MAX_CODE_CHARS);
  if (code !== undefined) entry.code = code;
  const filename = text(own(o, 'filename'), MAX_LABEL_CHARS);
  if (filename !== undefined) entry.filename = filename;
  const language = text(own(o, 'language'), MAX_LABEL_CHARS);
  if (language !== undefined) entry.language = language;
  return entry;
}

function pageCounts(o: Obj): PageFeedbackCounts | undefined {
  const path = required(own(o, 'path'), MAX_PATH_CHARS);
  const thumbsUp = count(own(o, 'thumbsUp'), 0);
  const thumbsDown = count(own(o, 'thumbsDown'), 0);
  const code = count(own(o, 'code'), 0);
  if (path === undefined || thumbsUp === undefined || thumbsDown === undefined || code === undefined) return undefined;
  const total = count(own(o, 'total'), thumbsUp + thumbsDown + code);
  return total === undefined ? undefined : { path, thumbsUp, thumbsDown, code, total };
}

function sourcesOf(v: unknown): { title: string; url: string }[] {
  if (!Array.isArray(v)) return [];
  const out: { title: string; url: string }[] = [];
  for (const s of v) {
    if (out.length >= MAX_SOURCES_PER_CONVERSATION) break;
    if (!isObj(s)) continue;
    const url = required(own(s, 'url'), MAX_PATH_CHARS);
    if (url !== undefined) out.push({ title: text(own(s, 'title'), MAX_TITLE_CHARS) ?? '', url });
  }
  return out;
}

function conversation(o: Obj): AssistantConversationRecord | undefined {
  const id = required(own(o, 'id'), MAX_ID_CHARS);
  const query = nonBlank(own(o, 'query'), MAX_QUERY_CHARS);
  if (id === undefined || query === undefined) return undefined;
  return {
    id,
    timestamp: dateOrNull(own(o, 'timestamp')),
    query,
    response: text(own(o, 'response'), MAX_RESPONSE_CHARS) ?? '',
    // Unknown values read as the plain case: only what the service marks is flagged.
    responseType: own(o, 'responseType') === 'clarifying_question' ? 'clarifying_question' : 'answer',
    sources: sourcesOf(own(o, 'sources')),
    resolutionStatus: own(o, 'resolutionStatus') === 'unanswered' ? 'unanswered' : 'answered',
    queryCategory: nullableText(own(o, 'queryCategory'), MAX_LABEL_CHARS),
  };
}

function search(o: Obj): SearchRecord | undefined {
  const searchQuery = nonBlank(own(o, 'searchQuery'), MAX_QUERY_CHARS);
  const hits = count(own(o, 'hits'), undefined);
  const ctrRaw = own(o, 'ctr');
  const ctr = typeof ctrRaw === 'number' && Number.isFinite(ctrRaw) ? Math.min(1, Math.max(0, ctrRaw)) : undefined;
  if (searchQuery === undefined || hits === undefined || ctr === undefined) return undefined;
  const top = own(o, 'topClickedPage');
  return {
    searchQuery,
    hits,
    ctr,
    topClickedPage: str(top) && top.length <= MAX_PATH_CHARS ? top : null,
    lastSearchedAt: dateOrNull(own(o, 'lastSearchedAt')),
  };
}

/** The envelope `{<list>: [...], nextCursor, hasMore}` read with `entry`: a bad envelope throws, a bad entry is dropped and counted. */
function pageOf<T>(body: unknown, list: string, entry: (o: Obj) => T | undefined): AnalyticsPage<T> {
  if (!isObj(body)) throw bad('', `an object with "${list}"`, body);
  const raw = own(body, list);
  if (!Array.isArray(raw)) throw bad(list, 'a list', raw);
  const cursor = own(body, 'nextCursor');
  if (cursor !== undefined && cursor !== null && !(str(cursor) && cursor.length <= MAX_CURSOR_CHARS)) {
    throw bad('nextCursor', `a cursor of at most ${MAX_CURSOR_CHARS} characters, or null`, cursor);
  }
  const hasMore = own(body, 'hasMore');
  if (hasMore !== undefined && typeof hasMore !== 'boolean') throw bad('hasMore', 'true or false', hasMore);
  const items: T[] = [];
  let dropped = 0;
  for (const e of raw) {
    const item = isObj(e) ? entry(e) : undefined;
    if (item === undefined) dropped++;
    else items.push(item);
  }
  const nextCursor = str(cursor) && cursor !== '' ? cursor : null;
  return { items, nextCursor, hasMore: hasMore === true, dropped };
}

/** GET …/feedback. */
export function parseFeedbackPage(body: unknown): AnalyticsPage<FeedbackEntry> {
  return pageOf(body, 'feedback', feedbackEntry);
}

/** GET …/feedback/by-page. */
export function parseFeedbackByPage(body: unknown): AnalyticsPage<PageFeedbackCounts> {
  return pageOf(body, 'feedback', pageCounts);
}

/** GET …/assistant. */
export function parseAssistantPage(body: unknown): AnalyticsPage<AssistantConversationRecord> {
  return pageOf(body, 'conversations', conversation);
}

/** GET …/searches. */
export function parseSearchPage(body: unknown): AnalyticsPage<SearchRecord> {
  return pageOf(body, 'searches', search);
}
