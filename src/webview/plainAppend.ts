import { CODE_CHUNK_CLASS, CODE_CHUNK_LINES, codeChunk, newlines, splitLines } from './codeChunks';

// The shortcut for the plainest updates of a streaming answer: a delta that cannot change the
// structure of the block it lands in (plain words inside a paragraph, list item or heading, or
// anything but a fence inside an open fenced code block) goes straight into that block's
// last text node, without markdown or sanitizing. The result must be the DOM the full render
// would produce; test/webview/streaming-render.test.ts compares the two after every render.

/** Prose that can be appended as is: no markup (not even a link's closing parenthesis), no line break. */
const PLAIN_PROSE = /^[\p{L}\p{N} ,;'"?!/%$^{}=+-]*$/u;
/** Dots and colons too, unless the line may hold an autolink they would complete. */
const PLAIN_PROSE_WITH_DOTS = /^[\p{L}\p{N} ,;'"?!/%$^{}=+.:-]*$/u;
const AUTOLINK_HINT = /www|http|ftp|mailto|xmpp|@/i;
/** Characters of the line kept to find AUTOLINK_HINT across deltas: its longest word but one. */
const HINT_OVERLAP = 5;
/** A line of the open text that starts like a link definition: `[label]:`. */
const DEFINITION_START = /^ {0,3}\[[^\]\n]*\]:/m;
/** Elements whose text is the text of the source line, in a paragraph-like block. */
// Not table cells: a row's text past its last column is dropped, and which cell the text goes
// into depends on pipes a code span or escape may hide. A table's render keeps its finished rows
// (keptItems.ts), so only the last row is built again.
const PROSE_PARENTS = new Set(['P', 'LI', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6']);

/** The last text node with something visible in it, descending into the last elements only. */
function lastTextNode(root: Node): Text | undefined {
  let n: Node | null = root.lastChild;
  while (n) {
    if (n.nodeType === Node.TEXT_NODE) {
      if ((n as Text).data.trim() !== '') return n as Text;
      n = n.previousSibling;
    } else if (n.nodeType === Node.ELEMENT_NODE && n.lastChild) n = n.lastChild;
    else return undefined;
  }
  return undefined;
}

/** The text of the last chunk of the tail's code block (`div.code-block > pre > code > span.code-chunk`), if that is how it ends. */
function lastCodeChunk(tail: HTMLElement): Text | undefined {
  const pre = tail.lastElementChild?.lastElementChild;
  const chunk = pre?.tagName === 'PRE' && pre.firstElementChild?.tagName === 'CODE' ? pre.firstElementChild.lastElementChild : null;
  const node = chunk?.className === CODE_CHUNK_CLASS && chunk.childNodes.length === 1 ? chunk.firstChild : null;
  return node?.nodeType === Node.TEXT_NODE ? (node as Text) : undefined;
}

/**
 * An open fence: starts the tail at column 0, its info line is complete, and no closing fence yet.
 * Where its content starts, or -1.
 */
function openFenceContent(rest: string): number {
  const m = /^(`{3,}|~{3,})[^\n]*\n/.exec(rest);
  if (!m) return -1;
  const marker = m[1]!;
  const close = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
  return rest
    .slice(m[0].length)
    .split('\n')
    .some((line) => close.test(line))
    ? -1
    : m[0].length;
}

// Every update must cost what the delta costs, not what the line or block it lands in costs: an
// answer's line can be 40,000 spaces long. So the shortcut keeps what it needs to know about the
// line (whether it holds an autolink hint, and its last few characters), not the line itself, and
// trailing spaces are counted from the end by hand: a regex like `/[ ]*$/` is tried from every
// space of a run and reads to its end each time.

export type FastPath =
  | { mode: 'prose'; node: Text; hint: boolean; lineEnd: string; held: string; keepsSpaces: boolean }
  /** `node` is the text of the code block's last chunk (codeChunks.ts), which holds `lines` newlines. */
  | { mode: 'code'; node: Text; endsWithNewline: boolean; lines: number };

/** How many spaces `s` ends with. */
export function trailingSpaces(s: string): number {
  let n = 0;
  while (n < s.length && s.charCodeAt(s.length - 1 - n) === 32) n++;
  return n;
}

/** Whether, after rendering `rest` into `tail`, later plain deltas may go straight into a text node. */
export function fastPathAfterRender(tail: HTMLElement, rest: string): FastPath | undefined {
  const content = openFenceContent(rest);
  if (content >= 0) {
    // marked renders an open fence's content with one trailing newline, whether the source has it or
    // not (no content at all shows as that newline alone), and leaves a blank last line out until
    // something follows it.
    const node = lastCodeChunk(tail);
    if (!node || !node.data.endsWith('\n') || rest.endsWith('\n\n')) return undefined;
    return { mode: 'code', node, endsWithNewline: rest.length > content && rest.endsWith('\n'), lines: newlines(node.data) };
  }
  // A paragraph that starts like a link definition (`[1]: https://… "Title`) becomes one when a
  // later delta closes it, and shows nothing then (found in review).
  if (DEFINITION_START.test(rest)) return undefined;
  const node = lastTextNode(tail);
  if (!node) return undefined;
  const parent = node.parentElement!;
  if (!PROSE_PARENTS.has(parent.tagName)) return undefined;
  const core = rest.slice(0, rest.length - trailingSpaces(rest));
  const trailing = rest.slice(core.length);
  const line = core.slice(core.lastIndexOf('\n') + 1);
  const lastChar = core.slice(-1);
  // marked keeps the spaces at the end of a paragraph's text, and trims them in list items (their
  // paragraphs too), headings and table cells.
  const keepsSpaces = parent.tagName === 'P' && !parent.closest('li');
  // The line must already be prose (a letter in it), so that what follows cannot turn it into a
  // list item, heading or table row; and it must end with what the node ends with.
  if (!/[\p{L}\p{N}]/u.test(lastChar) || !/\p{L}/u.test(line) || !node.data.endsWith(keepsSpaces ? lastChar + trailing : lastChar)) return undefined;
  // Letters after an `&` can complete an entity (`&amp;`), which the full render decodes. No delta
  // the shortcut takes holds one, so only the line it starts from can.
  if (line.includes('&')) return undefined;
  return { mode: 'prose', node, hint: AUTOLINK_HINT.test(line), lineEnd: line.slice(-HINT_OVERLAP), held: keepsSpaces ? '' : trailing, keepsSpaces };
}

/** Appends `delta` straight to the tail's text when that gives what a full render would; false if not. */
export function tryFastAppend(fast: FastPath, delta: string): boolean {
  if (fast.mode === 'code') {
    // A blank line at the end of an open fence is not shown until something follows it.
    if (/[`~]/.test(delta) || delta.includes('\n\n') || (fast.endsWithNewline && delta.startsWith('\n'))) return false;
    appendCode(fast, delta);
    return true;
  }
  // A hint anywhere in the line so far: in it before, across its end and the delta, or in the delta.
  const seam = fast.lineEnd + delta;
  const hint = fast.hint || AUTOLINK_HINT.test(seam);
  if (!(PLAIN_PROSE.test(delta) || (PLAIN_PROSE_WITH_DOTS.test(delta) && !hint))) return false;
  fast.hint = hint;
  fast.lineEnd = seam.slice(-HINT_OVERLAP);
  if (fast.keepsSpaces) {
    fast.node.appendData(delta);
    return true;
  }
  // Trailing spaces are not rendered at the end of a list item, heading or cell; they are held until a word follows.
  const spaces = trailingSpaces(delta);
  if (spaces === delta.length) {
    fast.held += delta;
    return true;
  }
  fast.node.appendData(fast.held + delta.slice(0, delta.length - spaces));
  fast.held = delta.slice(delta.length - spaces);
  return true;
}

/**
 * The code shown holds the content without its last newline, plus one newline: `delta` goes
 * before that newline, or after it once the content ends with one. Chunks are cut as
 * codeChunks.ts cuts the whole text: the last chunk takes lines until it holds CODE_CHUNK_LINES,
 * and the rest go into new chunks after it. (The chunks before the last one hold a multiple of
 * CODE_CHUNK_LINES newlines, so cutting the text again from the start would cut them the same.)
 */
function appendCode(fast: Extract<FastPath, { mode: 'code' }>, delta: string): void {
  const added = `${delta.endsWith('\n') ? delta.slice(0, -1) : delta}\n`;
  // The last chunk's newlines before where `added` goes.
  const before = fast.endsWithNewline ? fast.lines : fast.lines - 1;
  const [head, ...more] = splitLines(added, CODE_CHUNK_LINES - before);
  // `head` ends with a newline, or is empty (the chunk was full); before the shown newline, its own takes that one's place.
  if (fast.endsWithNewline) fast.node.appendData(head!);
  else fast.node.insertData(fast.node.length - 1, head!.slice(0, -1));
  fast.lines = before + newlines(head!);
  fast.endsWithNewline = delta.endsWith('\n');
  if (!more.length) return;
  const code = fast.node.parentNode!.parentNode!;
  for (const piece of more) code.appendChild(codeChunk(piece));
  const last = more.at(-1)!;
  fast.node = code.lastChild!.firstChild as Text;
  fast.lines = newlines(last);
}
