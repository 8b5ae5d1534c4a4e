import { lexBlocks, renderMarkdown } from './markdown';

// Streaming markdown without re-rendering the whole answer on every delta. The text is cut into
// top-level blocks; every block but the last one that is still growing is rendered once and
// never touched again. Each update re-parses and re-renders only the open tail, so the cost of a
// delta depends on the size of the current block, not of the whole answer.
//
// Three more things keep an update cheap enough for every frame of a long answer:
// - A delta that cannot change the tail's structure (plain words inside a paragraph, list item,
//   heading or table cell, or anything but a fence inside an open fenced code block) is appended
//   to the tail's last text node, without markdown or sanitizing: the result is the text the full
//   render would produce. Anything else (markup characters, a new line in prose) renders the tail.
// - While an answer streams, the tail is rendered at most every MIN_RENDER_INTERVAL_MS (by the
//   frame clock): every render costs the browser a layout of the page, whatever its size, and a
//   model sends deltas about as often as the screen refreshes. A flush (the answer ended,
//   stopped or failed) renders at once.
// - Finished blocks sit in groups of GROUP_SIZE inside one container, so the browser's layout of
//   an update walks a handful of boxes, not one per block of the answer so far.

export interface MarkdownRenderer {
  readonly element: HTMLElement;
  setText(text: string): void;
  append(text: string): void;
  /** Renders what is pending now (normally done once per animation frame). */
  flush(): void;
  readonly text: string;
}

const GROUP_SIZE = 16;
export const MIN_RENDER_INTERVAL_MS = 100;
/** Prose that can be appended as is: no markup (not even a link's closing parenthesis), no line break. */
const PLAIN_PROSE = /^[\p{L}\p{N} ,;'"?!/%$^{}=+-]*$/u;
/** Dots and colons too, unless the line may hold an autolink they would complete. */
const PLAIN_PROSE_WITH_DOTS = /^[\p{L}\p{N} ,;'"?!/%$^{}=+.:-]*$/u;
const AUTOLINK_HINT = /www|http|ftp|mailto|xmpp|@/i;
/** Elements whose text is the text of the source line, in a paragraph-like block. */
const PROSE_PARENTS = new Set(['P', 'LI', 'TD', 'TH', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6']);

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

/** An open fence: starts the tail at column 0, its info line is complete, and no closing fence yet. */
function isOpenFence(rest: string): boolean {
  const m = /^(`{3,}|~{3,})[^\n]*\n/.exec(rest);
  if (!m) return false;
  const marker = m[1]!;
  const close = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
  return !rest.slice(m[0].length).split('\n').some((line) => close.test(line));
}

type FastPath =
  | { mode: 'prose'; node: Text; line: string; held: string }
  | { mode: 'code'; node: Text; endsWithNewline: boolean };

/** Whether, after rendering `rest` into `tail`, later plain deltas may go straight into a text node. */
function fastPathAfterRender(tail: HTMLElement, rest: string): FastPath | undefined {
  const node = lastTextNode(tail);
  if (!node) return undefined;
  const parent = node.parentElement!;
  if (isOpenFence(rest)) {
    // marked renders an open fence's content with one trailing newline, whether the source has it or not.
    if (parent.tagName !== 'CODE' || parent.parentElement?.tagName !== 'PRE' || !node.data.endsWith('\n')) return undefined;
    return { mode: 'code', node, endsWithNewline: rest.endsWith('\n') };
  }
  if (!PROSE_PARENTS.has(parent.tagName)) return undefined;
  const held = /[ ]*$/.exec(rest)![0];
  const core = rest.slice(0, rest.length - held.length);
  const line = core.slice(core.lastIndexOf('\n') + 1);
  const lastChar = core.slice(-1);
  // The line must already be prose (a letter in it), so that what follows cannot turn it into a
  // list item, heading or table row; and it must end with what the node ends with.
  if (!/[\p{L}\p{N}]/u.test(lastChar) || !/\p{L}/u.test(line) || !node.data.endsWith(lastChar)) return undefined;
  return { mode: 'prose', node, line, held };
}

/** Appends `delta` straight to the tail's text when that gives what a full render would; false if not. */
function tryFastAppend(fast: FastPath, delta: string): boolean {
  if (fast.mode === 'code') {
    if (/[`~]/.test(delta)) return false;
    // The node holds the content without its last newline, plus one newline.
    const body = delta.endsWith('\n') ? delta.slice(0, -1) : delta;
    if (fast.endsWithNewline) fast.node.appendData(`${body}\n`);
    else fast.node.insertData(fast.node.length - 1, body);
    fast.endsWithNewline = delta.endsWith('\n');
    return true;
  }
  const line = fast.line + delta;
  if (!(PLAIN_PROSE.test(delta) || (PLAIN_PROSE_WITH_DOTS.test(delta) && !AUTOLINK_HINT.test(line)))) return false;
  // Trailing spaces are not rendered at the end of a paragraph; they are held until a word follows.
  const s = fast.held + delta;
  const held = /[ ]*$/.exec(s)![0];
  if (s.length > held.length) fast.node.appendData(s.slice(0, s.length - held.length));
  fast.held = held;
  fast.line = line;
  return true;
}

/** Runs `fn` at the next frame, with the frame's time (requestAnimationFrame). */
export type FrameScheduler = (fn: (time: number) => void) => void;

/**
 * `onRendered` runs after each render the frame clock drives, and only then: a frame the throttle
 * skips must not touch the page (a scroll or attribute write there costs a style recalculation).
 * flush() does not call it: its callers (a turn being built, an answer that ended) follow the
 * page themselves once they are done, rather than forcing a layout per part.
 */
export function createIncrementalMarkdown(element: HTMLElement, onRendered: () => void = () => undefined, schedule: FrameScheduler = requestAnimationFrame): MarkdownRenderer {
  let text = '';
  /** Characters of `text` already rendered into finished blocks. */
  let committed = 0;
  /** Characters of `text` the DOM shows. */
  let shown = 0;
  let fast: FastPath | undefined;
  let done!: HTMLElement;
  let group: HTMLElement | undefined;
  let tail!: HTMLElement;
  let scheduled = false;
  let dirty = false;
  let lastFrameRender = -Infinity;

  const reset = () => {
    committed = 0;
    shown = 0;
    fast = undefined;
    group = undefined;
    done = document.createElement('div');
    done.className = 'md-done';
    tail = document.createElement('div');
    tail.className = 'md-tail';
    element.replaceChildren(done, tail);
  };
  reset();

  const commit = (src: string) => {
    const finished = document.createElement('div');
    finished.className = 'md-block';
    finished.append(renderMarkdown(src));
    if (!group || group.childElementCount >= GROUP_SIZE) {
      group = document.createElement('div');
      group.className = 'md-group';
      done.append(group);
    }
    group.append(finished);
  };

  const onFrame = (time: number) => {
    scheduled = false;
    if (!dirty) return;
    if (time - lastFrameRender < MIN_RENDER_INTERVAL_MS) {
      scheduled = true;
      schedule(onFrame);
      return;
    }
    lastFrameRender = time;
    render();
    onRendered();
  };

  const render = () => {
    dirty = false;
    if (fast && tryFastAppend(fast, text.slice(shown))) {
      shown = text.length;
      return;
    }
    const open = text.slice(committed);
    const tokens = lexBlocks(open);
    // The last block that is not blank space may still grow; everything before it is final.
    let last = tokens.length - 1;
    while (last > 0 && tokens[last]!.type === 'space') last--;
    let consumed = 0;
    for (let i = 0; i < last; i++) consumed += tokens[i]!.raw.length;
    if (consumed > 0) {
      commit(open.slice(0, consumed));
      committed += consumed;
    }
    const rest = text.slice(committed);
    tail.replaceChildren(renderMarkdown(rest));
    shown = text.length;
    fast = fastPathAfterRender(tail, rest);
  };

  const request = () => {
    dirty = true;
    if (scheduled) return;
    scheduled = true;
    schedule(onFrame);
  };

  return {
    element,
    get text() {
      return text;
    },
    setText(next: string) {
      if (next.startsWith(text)) {
        if (next.length > text.length) {
          text = next;
          request();
        }
        return;
      }
      text = next;
      reset();
      request();
    },
    append(delta: string) {
      if (!delta) return;
      text += delta;
      request();
    },
    flush() {
      if (dirty) render();
    },
  };
}

/** The approach we compare against in the benchmark: re-render the whole text on every update. */
export function createNaiveMarkdown(element: HTMLElement, onRendered: () => void = () => undefined, schedule: FrameScheduler = requestAnimationFrame): MarkdownRenderer {
  let text = '';
  let dirty = false;
  let scheduled = false;
  const render = () => {
    dirty = false;
    element.replaceChildren(renderMarkdown(text));
  };
  const onFrame = () => {
    scheduled = false;
    if (!dirty) return;
    render();
    onRendered();
  };
  const request = () => {
    dirty = true;
    if (!scheduled) {
      scheduled = true;
      schedule(onFrame);
    }
  };
  return {
    element,
    get text() {
      return text;
    },
    setText(next: string) {
      text = next;
      request();
    },
    append(delta: string) {
      text += delta;
      request();
    },
    flush() {
      if (dirty) render();
    },
  };
}
