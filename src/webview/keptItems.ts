import type { Token, Tokens, TokensList } from 'marked';
import { morphChildren } from './morph';
import type { Piece } from './markdown';

// A list or a table that streams as the growing block grows an item or a row at a time, and each
// render used to build the DOM of all of it again and compare it, node by node, with what the page
// shows: a render late in a 120-item list cost five times one early in it. The items before the
// last one are finished as soon as the next starts. So when the block is the list or table the
// tail showed last time, the items (rows) whose source has not changed keep their DOM, and only
// the ones after them are built and morphed in.
//
// An item's DOM depends on its own tokens and on whether the list is loose (a blank line anywhere
// in it puts every item's text in a <p>); a row's on its cells and the table's alignments. So a
// change of looseness, numbering or kind, a header or an alignment that changed, renders the block
// whole, as does anything else about the tail. test/webview/streaming-render.test.ts holds the
// result to the full render after every render.

type Container = Tokens.List | Tokens.Table;

/** How many leading items of `next` are the same as in `shown`, or -1 when the container itself differs. */
function keptCount(shown: Container, next: Container): number {
  if (shown.type === 'list' && next.type === 'list') {
    if (shown.ordered !== next.ordered || shown.start !== next.start || shown.loose !== next.loose) return -1;
    // marked trims the end of a list, and "- [ ]" becomes a task item once a space follows it: the
    // source alone does not say that an item reads the same.
    const same = (a: Tokens.ListItem, b: Tokens.ListItem) =>
      a.raw === b.raw && a.text === b.text && a.task === b.task && a.checked === b.checked && a.loose === b.loose;
    let k = 0;
    while (k < shown.items.length && k < next.items.length && same(shown.items[k]!, next.items[k]!)) k++;
    return k;
  }
  if (shown.type === 'table' && next.type === 'table') {
    // marked pads or cuts every row to the header's columns.
    const same = (a: readonly Tokens.TableCell[], b: readonly Tokens.TableCell[]) => a.length === b.length && a.every((c, i) => c.text === b[i]!.text);
    if (!same(shown.header, next.header) || shown.align.join() !== next.align.join()) return -1;
    let k = 0;
    while (k < shown.rows.length && k < next.rows.length && same(shown.rows[k]!, next.rows[k]!)) k++;
    return k;
  }
  return -1;
}

/**
 * The source of a shown list's or table's finished items (all but the last), and what a lex of
 * the rest needs before it (a table's header and delimiter rows), or undefined when none is finished.
 */
function grownFrom(shown: Container): { finished: string; head: string } | undefined {
  if (shown.type === 'list') {
    if (shown.items.length < 2) return undefined;
    let cut = 0;
    for (let i = 0; i < shown.items.length - 1; i++) cut += shown.items[i]!.raw.length;
    return { finished: shown.raw.slice(0, cut), head: '' };
  }
  if (shown.rows.length < 2) return undefined;
  // marked reads a table a line a row: its header, its delimiter row, then one line for each row.
  // The finished part ends after the line of the last row but one; the head, after the delimiter row.
  let end = 0;
  let head = 0;
  for (let line = 0; line < shown.rows.length + 1; line++) {
    end = shown.raw.indexOf('\n', end) + 1;
    if (end === 0) return undefined;
    if (line === 1) head = end;
  }
  return { finished: shown.raw.slice(0, end), head: shown.raw.slice(0, head) };
}

/** The list or table the blocks are, when they are one with blank space after it. */
function containerOf(tokens: readonly Token[]): Container | undefined {
  const first = tokens[0];
  if ((first?.type !== 'list' && first?.type !== 'table') || tokens.some((t, i) => i > 0 && t.type !== 'space')) return undefined;
  return first as Container;
}

/**
 * The plan that brings `block` (the tail's first element, showing `shown`) up to date with `next`
 * by building only the items after the kept ones, or undefined when it must render whole.
 */
function planKeptItems(
  block: Element | null,
  shown: Container | undefined,
  next: Container,
  /** Text went straight into the last item since `shown` was rendered (plainAppend.ts): it is built again. */
  lastTouched: boolean,
): { pieces: Piece[]; apply(rendered: Node[]): void } | undefined {
  if (!block || !shown) return undefined;
  const total = next.type === 'list' ? next.items.length : next.rows.length;
  const before = shown.type === 'list' ? shown.items.length : shown.rows.length;
  const k = Math.min(keptCount(shown, next), lastTouched ? before - 1 : before);
  // Text that changed no item (a newline after a row): the DOM is right.
  if (k === total && k === before) return { pieces: [], apply: () => undefined };
  if (k <= 0 || k >= total) return undefined;
  // The element the items live in, and the node the first item after the kept ones starts at
  // (none when they are all kept: the new ones are appended). marked writes a newline before each
  // list item, and one after each table row.
  let parent: Element | null;
  let at: number;
  if (next.type === 'list') {
    parent = block.tagName === (next.ordered ? 'OL' : 'UL') ? block : null;
    at = 1 + 2 * k;
  } else {
    parent = block.tagName === 'TABLE' ? block.querySelector(':scope > tbody') : null;
    at = 2 * k;
  }
  if (!parent || parent.childElementCount !== before) return undefined;
  const from = parent.childNodes[at] ?? null;
  const rest: Container = next.type === 'list' ? { ...next, items: next.items.slice(k) } : { ...next, rows: next.rows.slice(k) };
  const live = parent;
  return {
    pieces: [{ blocks: [rest] }],
    apply([fragment]) {
      const built = (fragment as ParentNode).firstElementChild;
      const items = next.type === 'list' ? built : built?.querySelector(':scope > tbody');
      // A list or table token always renders to its element (tokenDom.ts, or marked and the sanitizer).
      if (!items) throw new Error('a kept list or table rendered without its items');
      // The live list already holds the newline marked writes before an item, after the last kept one.
      if (next.type === 'list' && items.firstChild?.nodeType === Node.TEXT_NODE) items.firstChild.remove();
      morphChildren(live, items, from);
    },
  };
}

/** Every token list inside `node` (what marked queues for inline lexing is among them). */
function unfilled(node: unknown, into: Set<Token[]>): void {
  if (Array.isArray(node)) {
    for (const child of node) unfilled(child, into);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const t = node as Record<string, unknown>;
  if (Array.isArray(t.tokens)) into.add(t.tokens as Token[]);
  for (const key of ['tokens', 'items', 'header', 'rows']) unfilled(t[key], into);
}

/** Whether `node` is or holds a task item (at any depth: an item's own list may have them). */
function hasTask(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasTask);
  if (!node || typeof node !== 'object') return false;
  const t = node as Record<string, unknown>;
  return t.task === true || hasTask(t.tokens) || hasTask(t.items);
}

/** What the tail's list or table shows, for its next render (one per renderer). */
export class KeptItems {
  private shown: Container | undefined;
  private touched = false;
  /** The reference definitions the lex of `shown` knew. */
  private links = '';

  /** The plan for the tail's next render of `tokens`, when it can keep items; undefined to render it whole. */
  plan(block: Element | null, tokens: readonly Token[]): { pieces: Piece[]; apply(rendered: Node[]): void } | undefined {
    const next = containerOf(tokens);
    return next && planKeptItems(block, this.shown, next, this.touched);
  }

  /**
   * Before marked lexes the inline text of `blocks` (the tail's, blocks only so far): the items
   * and rows of its list or table that read as those shown take the shown ones' tokens, so that a
   * render lexes only the new ones. Returns the token lists marked need not fill. Not items that
   * are or hold task items: marked's HTML renderer writes their box into their tokens.
   */
  reuse(blocks: TokensList): Set<Token[]> {
    const skip = new Set<Token[]>();
    // Items lexed before a reference definition came or changed may read differently now.
    const links = JSON.stringify(blocks.links);
    if (links !== this.links) this.shown = undefined;
    this.links = links;
    const next = containerOf(blocks.slice(0, 1));
    const shown = this.shown;
    if (!next || !shown || next.type !== shown.type) return skip;
    const k = keptCount(shown, next);
    if (next.type === 'list' && shown.type === 'list') {
      for (let i = 0; i < k && !hasTask(shown.items[i]); i++) {
        unfilled(next.items[i], skip);
        next.items[i] = shown.items[i]!;
      }
    } else if (next.type === 'table' && shown.type === 'table' && k >= 0) {
      for (const cell of next.header) skip.add(cell.tokens);
      next.header = shown.header;
      for (let i = 0; i < k; i++) {
        for (const cell of next.rows[i]!) skip.add(cell.tokens);
        next.rows[i] = shown.rows[i]!;
      }
    }
    return skip;
  }

  /**
   * The tail lexed by `lex`, when it is the list or table shown last time, grown: every item (row)
   * of it but the last is final (the next one has started), so only the source from its last item
   * on is lexed (a table's, after its header and delimiter rows), and the token is put together
   * again from the shown items and the new ones, as marked puts it together (each item's source
   * adds to the list's, one line a row). marked's list and table rules read every item or row
   * again at each lex: 663 µs for a 10 KB list in Node, 203 µs for 1 KB; 194 and 41 µs for a
   * table. Undefined when the shown items may not stand (a definition in the tail, which may be new
   * or may change as it streams, and which they were lexed without; a task item; a list that
   * turned loose or changed kind): the caller lexes the whole tail.
   */
  lexGrown(open: string, lex: (src: string) => TokensList): TokensList | undefined {
    const shown = this.shown;
    const grown = shown && grownFrom(shown);
    // Task items too: marked's HTML renderer writes their box into their tokens (see reuse).
    // Every definition holds a `]:`, wherever it starts (`- [r]: /u`, `1. > [a\]b]: /u`).
    if (!shown || !grown || !open.startsWith(grown.finished) || open.includes(']:') || hasTask(shown)) return undefined;
    const links = this.links;
    const tokens = lex(grown.head + open.slice(grown.finished.length));
    const rest = tokens[0] as Container | undefined;
    const fits =
      // reuse() forgets the shown items when the definitions the lex knew changed.
      this.shown === shown &&
      rest?.type === shown.type &&
      rest.raw.startsWith(grown.head) &&
      (rest.type === 'list' && shown.type === 'list'
        ? rest.ordered === shown.ordered && rest.loose === shown.loose
        : rest.type === 'table' && shown.type === 'table' && rest.align.join() === shown.align.join());
    if (!fits) {
      // The lex of the whole tail must start from what this one found, as if it had not happened.
      [this.shown, this.links] = [shown, links];
      return undefined;
    }
    const raw = grown.finished + rest.raw.slice(grown.head.length);
    tokens[0] =
      shown.type === 'list'
        ? { ...(rest as Tokens.List), raw, start: shown.start, items: [...shown.items.slice(0, -1), ...(rest as Tokens.List).items] }
        : { ...(rest as Tokens.Table), raw, header: shown.header, rows: [...shown.rows.slice(0, -1), ...(rest as Tokens.Table).rows] };
    return tokens;
  }

  /** The tail now shows `tokens` (undefined: a new tail, or nothing is known of it). */
  rendered(tokens: readonly Token[] | undefined): void {
    this.shown = tokens && containerOf(tokens);
    this.touched = false;
  }

  /** Text went straight into the tail's last text node (plainAppend.ts). */
  appended(): void {
    this.touched = true;
  }
}
