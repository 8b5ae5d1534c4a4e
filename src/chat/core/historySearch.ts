import type { AnswerPartView } from '../../common/protocol';

// Finding a past conversation by what was asked and answered in it (the history quick pick).
// Plain text only: the query is split into words, each looked for with indexOf in text folded to
// lower case, never turned into a pattern. The index is built once when the list opens, so each
// keystroke costs one pass over at most MAX_SEARCH_CHARS of each conversation per word.

/** The most characters of one conversation that are searched (title, questions, answers, in order). */
export const MAX_SEARCH_CHARS = 100_000;
/** Longest query and most words looked at; more is ignored. */
const MAX_QUERY_CHARS = 200;
const MAX_TERMS = 10;
/** Characters of context kept before and after a hit in its excerpt. */
const BEFORE = 40;
const AFTER = 80;

/** What the search reads of a stored conversation (never its thread). */
export interface SearchableConversation {
  id: string;
  title: string;
  turns: readonly { question: string; answer: { parts: readonly AnswerPartView[] } }[];
}

export type HitField = 'title' | 'question' | 'answer';

export interface HistoryHit {
  id: string;
  title: string;
  /** Where the best hit is; undefined for an empty query. */
  where?: HitField;
  /** One line of text around the hit in a question or an answer (none for a title hit or an empty query). */
  excerpt?: string;
}

interface Field {
  where: HitField;
  text: string;
  /** `text` in lower case, with the same length (so offsets hold in both). */
  folded: string;
}

interface Entry {
  id: string;
  title: string;
  fields: Field[];
}

export interface HistoryIndex {
  readonly entries: readonly Entry[];
}

/**
 * Lower case of the same length as `s`. toLowerCase can lengthen a text (İ becomes i + a combining
 * dot), which would shift every offset after it; then each such character keeps its own case.
 */
export function fold(s: string): string {
  const lower = s.toLowerCase();
  if (lower.length === s.length) return lower;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const l = c.toLowerCase();
    out += l.length === 1 ? l : c;
  }
  return out;
}

/** The searchable text of each conversation, folded once, within MAX_SEARCH_CHARS per conversation. */
export function historyIndex(conversations: readonly SearchableConversation[], maxChars = MAX_SEARCH_CHARS): HistoryIndex {
  return {
    entries: conversations.map((c) => {
      const fields: Field[] = [];
      let left = maxChars;
      const add = (where: HitField, text: string) => {
        if (left <= 0 || !text) return;
        const kept = text.length > left ? text.slice(0, left) : text;
        left -= kept.length;
        fields.push({ where, text: kept, folded: fold(kept) });
      };
      add('title', c.title);
      for (const t of c.turns) {
        add('question', t.question);
        for (const p of t.answer.parts) if (p.kind === 'text') add('answer', p.text);
      }
      return { id: c.id, title: c.title, fields };
    }),
  };
}

/** The query's words, folded: at most MAX_TERMS, each once. */
function termsOf(query: string): string[] {
  const words = fold(query.slice(0, MAX_QUERY_CHARS)).split(/\s+/).filter(Boolean);
  return [...new Set(words)].slice(0, MAX_TERMS);
}

/** The first field (in order) holding `needle`, with where in it. */
function firstHit(fields: readonly Field[], needle: string): { field: Field; at: number } | undefined {
  for (const field of fields) {
    const at = field.folded.indexOf(needle);
    if (at >= 0) return { field, at };
  }
  return undefined;
}

const RANK: Record<HitField, number> = { title: 0, question: 1, answer: 2 };

/**
 * The conversations that hold every word of `query` (case-insensitive), best first: the whole
 * query as a phrase in the title, then in a question, then in an answer, then the words apart;
 * among equals, the order they came in (newest first). An empty query offers them all.
 */
export function searchHistory(index: HistoryIndex, query: string): HistoryHit[] {
  const terms = termsOf(query);
  if (!terms.length) return index.entries.map((e) => ({ id: e.id, title: e.title }));
  const ranked = index.entries.flatMap((e, order) => {
    const r = rankEntry(e, terms);
    return r ? [{ ...r, order }] : [];
  });
  return ranked.sort((a, b) => a.rank - b.rank || a.order - b.order).map((r) => r.hit);
}

/** A hit and how good it is (lower is better): what orders hits found one conversation at a time. */
export interface RankedHit {
  hit: HistoryHit;
  rank: number;
}

/** One conversation against a non-empty query (see searchHistory); undefined when it does not hold every word. */
export function searchOne(c: SearchableConversation, query: string, maxChars = MAX_SEARCH_CHARS): RankedHit | undefined {
  const terms = termsOf(query);
  const [entry] = historyIndex([c], maxChars).entries;
  return terms.length && entry ? rankEntry(entry, terms) : undefined;
}

function rankEntry(e: Entry, terms: string[]): RankedHit | undefined {
  const phrase = terms.join(' ');
  if (!terms.every((term) => e.fields.some((f) => f.folded.includes(term)))) return undefined;
  const whole = terms.length > 1 ? firstHit(e.fields, phrase) : firstHit(e.fields, terms[0]!);
  // The excerpt comes from a question or an answer: the title is on the row already.
  const body = e.fields.filter((f) => f.where !== 'title');
  const shown = (whole && whole.field.where !== 'title' ? whole : undefined) ?? firstHit(body, whole ? phrase : terms[0]!) ?? firstHit(body, terms[0]!);
  const len = shown && shown.field.folded.startsWith(phrase, shown.at) ? phrase.length : terms[0]!.length;
  return {
    hit: {
      id: e.id,
      title: e.title,
      where: whole?.field.where ?? shown?.field.where ?? 'title',
      excerpt: shown ? excerpt(shown.field.text, shown.at, len) : undefined,
    },
    rank: whole ? RANK[whole.field.where] : 3,
  };
}

/**
 * One line of `text` around [at, at + len): whitespace runs become one space, an ellipsis marks a
 * cut, and `$(` cannot name a codicon in the quick pick (VS Code renders `$(name)` as an icon).
 */
export function excerpt(text: string, at: number, len: number): string {
  let start = Math.max(0, at - BEFORE);
  const end = Math.min(text.length, at + len + AFTER);
  // Start at a word where one is near, rather than in the middle of one.
  if (start > 0) {
    const space = text.slice(start, at).search(/\s/);
    if (space >= 0 && space < 15) start += space + 1;
  }
  const line = text.slice(start, end).replace(/\s+/g, ' ').trim().replace(/\$\(/g, '$\u200b(');
  return `${start > 0 ? '…' : ''}${line}${end < text.length ? '…' : ''}`;
}

/** The history pick waits this long after a keystroke before a search reads the files (typing goes on). */
export const SEARCH_DELAY_MS = 120;

/** After the first, partial results are shown at most this often (ms): each one sorts what was found. */
export const PARTIAL_EVERY_MS = 100;

/** Partial results while a scan goes on (the history pick shows them while its busy bar runs). */
export interface ScanProgress {
  /** The hits so far, in the order the final list will have them. */
  show(hits: HistoryHit[]): void;
  now?: () => number;
}

/**
 * searchHistory over conversations kept as files: each is read, searched and let go before the
 * next, so the search never holds more than one in memory. `cancelled` is asked between files (the
 * next keystroke starts another search); then the answer is undefined. `entries` are newest first.
 * With `progress`, the first hit is shown as soon as its file is read, and then the hits so far at
 * most every PARTIAL_EVERY_MS, so a search through a thousand files shows something at once. The
 * sorts are bounded by time, not by hits: the scan stays linear in the files.
 */
export async function scanHistory(
  entries: readonly { id: string }[],
  read: (id: string) => Promise<SearchableConversation | undefined>,
  query: string,
  cancelled: () => boolean,
  progress?: ScanProgress,
): Promise<HistoryHit[] | undefined> {
  const ranked: (RankedHit & { order: number })[] = [];
  const sorted = () => ranked.sort((a, b) => a.rank - b.rank || a.order - b.order).map((r) => r.hit);
  const now = progress?.now ?? Date.now;
  let shown = 0;
  let shownAt = 0;
  for (const [order, e] of entries.entries()) {
    if (cancelled()) return undefined;
    const c = await read(e.id);
    const r = c && searchOne(c, query);
    if (!r) continue;
    ranked.push({ ...r, order });
    if (progress && (shown === 0 || now() - shownAt >= PARTIAL_EVERY_MS) && !cancelled()) {
      shown = ranked.length;
      shownAt = now();
      progress.show(sorted());
    }
  }
  return cancelled() ? undefined : sorted();
}
