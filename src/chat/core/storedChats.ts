import type * as l10n from '@vscode/l10n';
import type { ThreadRef } from '../../assistant/core/threads';
import type { AnswerView, TurnView } from '../../common/protocol';
import { safeExternalUrl } from './webviewMessages';

// What ChatStore needs to keep stored conversations bounded and safe, apart from the store itself:
// their size, the bound, and how a restored conversation is made safe to show again. What it adds
// for the user to read (a title, notices) is worded by the translator the store was given.

/** The most the stored conversations may take together, in characters of JSON (about bytes). */
export const MAX_STORED_CHARS = 4 * 1024 * 1024;
/** Past conversations kept, besides the one on screen. */
export const HISTORY_MAX = 20;

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

/** One conversation as the store keeps it (ChatStore holds the list of them). */
export interface StoredConversation {
  id: string;
  /** @userFacing The history list shows it. */
  title: string;
  createdAt: number;
  turns: TurnView[];
  threadId?: string | null;
  threadKey?: string | null;
}

const STORED_MB = MAX_STORED_CHARS / 1024 / 1024;

export function fresh(id: string, now: number, t: Translate): StoredConversation {
  const l10n = { t };
  return { id, title: l10n.t('New conversation'), createdAt: now, turns: [], threadId: null, threadKey: null };
}

/** An answer cut off by the window going away: stopped, its text kept, and saying why. */
export function interrupted(answer: AnswerView, t: Translate): AnswerView {
  const l10n = { t };
  const notice = l10n.t('Interrupted: the window was reloaded while this answer was streaming.');
  return { ...answer, status: 'stopped', notices: [...answer.notices.filter((n) => n !== notice), notice] };
}

/** A turn that was streaming when the window went away comes back stopped, its text kept. */
export function settle(c: StoredConversation, t: Translate): StoredConversation {
  return {
    ...c,
    turns: c.turns.map((turn) =>
      turn.answer.status === 'streaming' || turn.answer.status === 'waiting' ? { ...turn, answer: interrupted(turn.answer, t) } : turn,
    ),
  };
}

/** What the history list says when older conversations were dropped; undefined when none were. */
export function historyNote(dropped: number, t: Translate): string | undefined {
  const l10n = { t };
  if (!(dropped > 0)) return undefined;
  return dropped === 1
    ? l10n.t('1 older conversation was dropped: Docs Assistant keeps the {0} most recent, in about {1} MB.', HISTORY_MAX, STORED_MB)
    : l10n.t('{0} older conversations were dropped: Docs Assistant keeps the {1} most recent, in about {2} MB.', dropped, HISTORY_MAX, STORED_MB);
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
export function newestTurnsWithin(turns: readonly TurnView[], budget: number, t: Translate): TurnView[] | undefined {
  const l10n = { t };
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
  const trimmed = l10n.t('Earlier questions of this conversation were dropped: Docs Assistant keeps about {0} MB of conversations.', STORED_MB);
  if (!head.answer.notices.includes(trimmed)) kept[0] = { ...head, answer: { ...head.answer, notices: [...head.answer.notices, trimmed] } };
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

const INPUT_HISTORY_MAX = 50;
/** Characters of remembered questions (for ↑ in the input box). */
const INPUT_HISTORY_MAX_CHARS = 100_000;

/** The questions remembered for ↑ in the input box, with `question` as the newest, within their bounds. */
export function withQuestion(asked: readonly string[], question: string): string[] {
  const list = [...asked.filter((q) => q !== question), question].slice(-INPUT_HISTORY_MAX);
  let chars = 0;
  let from = list.length;
  while (from > 0 && chars + list[from - 1]!.length <= INPUT_HISTORY_MAX_CHARS) chars += list[--from]!.length;
  return list.slice(Math.min(from, list.length - 1));
}

/** The service thread a conversation continues, if it has one. */
export function threadRefOf(c: StoredConversation | undefined): ThreadRef | undefined {
  if (!c?.threadId) return undefined;
  return c.threadKey ? { threadId: c.threadId, threadKey: c.threadKey } : { threadId: c.threadId };
}
