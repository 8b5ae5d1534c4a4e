import { boundText } from '../../api';
import { MAX_LINES_PER_PAGE, type ChangedItem, type StaleLine } from './staleDocs';

// Which lines of a page still say an item's old form, and which already say its new one. A line
// says a form when it contains ALL of its needles, each as a whole token: `--dlq` is not in
// `--dlq-retries` nor in `orders--dlq`, `/v1/queues` is not in `/v1/queues/{id}`, `30s` is not in
// `300s`. Linear in the page's length times the items it is checked for; no regular expression
// is built from the (untrusted) needles.

/** A line shown longer than this is cut: it is plain text in a tree, and the page is one click away. */
export const MAX_LINE_TEXT_CHARS = 1000;

const WORD = /[\p{L}\p{N}_]/u;
const isWord = (c: string | undefined): boolean => c !== undefined && WORD.test(c);

/** Whether the needle at `i` in `line` stands alone: not glued to a word before it, nor continued after it. */
function standsAlone(line: string, i: number, needle: string): boolean {
  const first = needle[0]!;
  const before = line[i - 1];
  // `dlq` in `orders-dlq`, `--dlq` in `x--dlq`: the same name is not the same token.
  if ((isWord(first) || first === '-') && (isWord(before) || before === '-')) return false;
  const last = needle[needle.length - 1]!;
  const after = line[i + needle.length];
  if (!isWord(last)) return true;
  if (isWord(after)) return false;
  // `--dlq-retries`, `/v1/queues/{id}`, `a.b.c` for `a.b`: the name goes on.
  const next = line[i + needle.length + 1];
  return !((after === '-' || after === '/' || after === '.') && (isWord(next) || next === '{' || next === ':'));
}

/** Whether `line` contains `needle` as a whole token, at least once. */
export function hasNeedle(line: string, needle: string): boolean {
  if (needle === '') return false;
  for (let i = line.indexOf(needle); i !== -1; i = line.indexOf(needle, i + 1)) if (standsAlone(line, i, needle)) return true;
  return false;
}

/** Every needle, each as a whole token; none is no match. */
export function hasAll(line: string, needles: readonly string[]): boolean {
  return needles.length > 0 && needles.every((n) => hasNeedle(line, n));
}

export interface PageScan {
  /** In page order, at most MAX_LINES_PER_PAGE. */
  lines: StaleLine[];
  /** In the items' order. */
  staleItemIds: string[];
  updatedItemIds: string[];
}

/** Characters of a page that are read: docs pages are far shorter; a hostile one stops here. */
export const MAX_SCAN_CHARS = 512 * 1024;

const BARE = /^[\p{L}\p{N}_$]+$/u;

/**
 * A renamed function or sub-command is one bare word (`publish`, `create`), which prose uses too
 * ("to publish a message"): for those, a line says the old form only where the word is code, in a
 * code span, a code block, or called (`publish(`).
 */
function codeOnly(item: ChangedItem): boolean {
  return (item.kind === 'symbol' || item.kind === 'command') && item.staleNeedles.every((n) => BARE.test(n));
}

/** Per character of `line`, whether it is inside a `code span`: one pass, so each lookup is O(1). */
function codeSpans(line: string): Uint8Array {
  const inside = new Uint8Array(line.length);
  let open = false;
  for (let i = 0; i < line.length; i++) {
    if (line.charCodeAt(i) === 96 /* ` */) open = !open;
    else if (open) inside[i] = 1;
  }
  return inside;
}

/** `needle` as a whole token where it is code: in a code span (per `spans`) or called. */
function hasCodeNeedle(line: string, needle: string, spans: () => Uint8Array): boolean {
  if (needle === '') return false;
  for (let i = line.indexOf(needle); i !== -1; i = line.indexOf(needle, i + 1)) {
    if (!standsAlone(line, i, needle)) continue;
    if (line[i + needle.length] === '(' || spans()[i] === 1) return true;
  }
  return false;
}

/** The stale lines of `text` for `items`, and which items the page already states in their new form. */
export function scanPage(text: string, items: readonly ChangedItem[]): PageScan {
  const stale = new Set<string>();
  const updated = new Set<string>();
  const lines: StaleLine[] = [];
  const code = new Set(items.filter(codeOnly).map((i) => i.id));
  let number = 0;
  let fence = false;
  for (const raw of boundText(text, MAX_SCAN_CHARS).split('\n')) {
    number++;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (/^\s{0,3}(?:```|~~~)/.test(line)) fence = !fence;
    let spans: Uint8Array | undefined;
    const spansOf = () => (spans ??= codeSpans(line));
    const says = (item: ChangedItem, needles: readonly string[]) =>
      code.has(item.id) && !fence ? needles.length > 0 && needles.every((n) => hasCodeNeedle(line, n, spansOf)) : hasAll(line, needles);
    const ids: string[] = [];
    for (const item of items) {
      if (says(item, item.staleNeedles)) ids.push(item.id);
      if (says(item, item.updatedNeedles)) updated.add(item.id);
    }
    if (ids.length === 0) continue;
    for (const id of ids) stale.add(id);
    if (lines.length < MAX_LINES_PER_PAGE) lines.push({ line: number, text: boundText(line, MAX_LINE_TEXT_CHARS), itemIds: ids });
  }
  const inOrder = (set: Set<string>): string[] => items.filter((i) => set.has(i.id)).map((i) => i.id);
  return { lines, staleItemIds: inOrder(stale), updatedItemIds: inOrder(updated) };
}
