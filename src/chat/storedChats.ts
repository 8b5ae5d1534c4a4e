import type { AnswerView, TurnView } from '../common/protocol';
import { safeExternalUrl } from './webviewMessages';

// What ChatStore needs to keep stored conversations bounded and safe, apart from the store itself:
// their size, the bound, and how a restored conversation is made safe to show again.

/** The most the stored conversations may take together, in characters of JSON (about bytes). */
export const MAX_STORED_CHARS = 4 * 1024 * 1024;
/** Past conversations kept, besides the one on screen. */
export const HISTORY_MAX = 20;

const TRIMMED_NOTICE = `Earlier questions of this conversation were dropped: Docs Assistant keeps about ${MAX_STORED_CHARS / 1024 / 1024} MB of conversations.`;

/** What the history list says when older conversations were dropped; undefined when none were. */
export function historyNote(dropped: number): string | undefined {
  if (!(dropped > 0)) return undefined;
  const what = dropped === 1 ? '1 older conversation was' : `${dropped} older conversations were`;
  return `${what} dropped: Docs Assistant keeps the ${HISTORY_MAX} most recent, in about ${MAX_STORED_CHARS / 1024 / 1024} MB.`;
}

/**
 * The length of `value` as JSON, near enough: exact for text without characters JSON escapes.
 * It walks the structure without building the string, so it costs the number of parts, not of
 * characters, and can run on every save while an answer streams.
 */
export function jsonChars(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'object': {
      if (value === null) return 4;
      if (Array.isArray(value)) {
        let n = 2 + Math.max(0, value.length - 1);
        for (const v of value) n += v === undefined ? 4 : jsonChars(v);
        return n;
      }
      let n = 2;
      let fields = 0;
      for (const [k, v] of Object.entries(value)) {
        if (v === undefined || typeof v === 'function') continue;
        n += k.length + 3 + jsonChars(v);
        fields++;
      }
      return n + Math.max(0, fields - 1);
    }
    default:
      return 0;
  }
}

/**
 * The newest turns that fit in `budget` characters, at least the last one; when some were left
 * out, the first kept answer says so. Undefined when all of them fit.
 */
export function newestTurnsWithin(turns: readonly TurnView[], budget: number): TurnView[] | undefined {
  let used = 0;
  let first = turns.length;
  while (first > 0) {
    const size = jsonChars(turns[first - 1]) + 1;
    if (first < turns.length && used + size > budget) break;
    used += size;
    first--;
  }
  if (first === 0) return undefined;
  const kept = turns.slice(first);
  const head = kept[0]!;
  if (!head.answer.notices.includes(TRIMMED_NOTICE)) kept[0] = { ...head, answer: { ...head.answer, notices: [...head.answer.notices, TRIMMED_NOTICE] } };
  return kept;
}

/**
 * A turn read back from storage, made safe to show: source links are checked again, because an
 * older version stored them unchecked, and the webview must never get a link that is not http(s).
 */
export function safeTurn(t: TurnView): TurnView {
  const sources = t.answer.sources;
  if (!Array.isArray(sources) || sources.every((s) => s.url === undefined || safeExternalUrl(s.url) === s.url)) return t;
  const checked: AnswerView['sources'] = [];
  for (const s of sources) {
    const url = s.url === undefined ? undefined : safeExternalUrl(s.url);
    if (url) checked.push({ url, title: s.title });
    else if (s.title) checked.push({ title: s.title });
  }
  return { ...t, answer: { ...t.answer, sources: checked } };
}
