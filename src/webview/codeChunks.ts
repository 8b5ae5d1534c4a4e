// A code block's text in blocks of CODE_CHUNK_LINES lines: `<code>` holds one
// `<span class="code-chunk">` (display: block, media/chat.css) per chunk, each a single text node
// that ends with its last line's newline.
//
// Why: Chromium lays out a text node's lines again whenever the node changes, so one line added
// to a 35,000-line code block held in one text node cost 44 ms of layout, whatever rendered it
// (the render benchmark's "layout floor" row); in chunks, only the last chunk is laid out again
// (under 1 ms). What the block shows and what Copy, Insert and a selection copy take are the same:
// the chunks hold exactly the block's text, split only after a newline.
//
// The chunks are a function of the text alone (a cut after every CODE_CHUNK_LINES-th newline from
// the start), so the block built from tokens, the one built through the sanitizer and the one
// grown by the streaming shortcut (plainAppend.ts) are the same DOM; the streaming renderer's
// tests compare them after every render. They are added after sanitizing, like the code toolbar:
// the sanitizer allows no `span`, so an answer cannot make one.

export const CODE_CHUNK_LINES = 100;
export const CODE_CHUNK_CLASS = 'code-chunk';

/**
 * `text` cut after newlines: the first piece holds the first `room` newlines (and may be empty
 * when `room` is 0), each next piece CODE_CHUNK_LINES more; the last piece holds what remains.
 */
export function splitLines(text: string, room: number): string[] {
  const pieces: string[] = [];
  let start = 0;
  let left = room;
  for (;;) {
    let end = start;
    for (let i; left > 0 && (i = text.indexOf('\n', end)) !== -1; left--) end = i + 1;
    if (left > 0) end = text.length;
    pieces.push(text.slice(start, end));
    if (end >= text.length) return pieces;
    start = end;
    left = CODE_CHUNK_LINES;
  }
}

export function codeChunk(text: string): HTMLSpanElement {
  const span = document.createElement('span');
  span.className = CODE_CHUNK_CLASS;
  span.textContent = text;
  return span;
}

/** Replaces the text of a `<code>` of a code block with its chunks. */
export function chunkCode(code: Element): void {
  const text = code.textContent ?? '';
  if (text === '') return;
  code.replaceChildren(...splitLines(text, CODE_CHUNK_LINES).map(codeChunk));
}

/** How many newlines `text` holds. */
export function newlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
