import type { Links } from 'marked';
import { blockLinks } from './lex';

// Reference definitions (`[ref]: https://…`) while an answer streams. The open text is lexed on
// its own, after the finished blocks, so it is handed the definitions those blocks made. A
// definition in the open text is not final: it arrives a few characters at a time (`[1]: h`,
// `[1]: https://do…`), and marked keeps the first definition of a label, so handing it on would
// pin a link to the first few characters of its address for good. Only definitions in finished
// blocks are handed on; those in the open text are read from each lex. When one changes, the
// finished blocks that name its label (`[text][1]`, `[1]`) read differently, and those blocks
// alone are rendered again: a definition that changes with every delta must not make every render
// cost the whole answer (issue 27). A render takes only so many of them (RENDER_AGAIN), first
// come first; the rest wait for the next renders, and a block too long for any waits for the end
// of the answer.

/**
 * What one render may spend on finished blocks rendered again, in characters of their source plus
 * PER_BLOCK for each: about 10 ms, for text dense with links too (those take the sanitizer's path).
 * A table or list of a few KB that cites sources still shows each definition as it arrives.
 */
const RENDER_AGAIN = 8_000;
const PER_BLOCK = 200;

export class LinkDefs {
  /** Definitions in finished blocks, by label (as marked normalizes it). */
  private finished: Links = Object.create(null) as Links;
  /** The open text's definitions at the last lex. */
  private open: Links = Object.create(null) as Links;
  /** What rendering each finished block again costs, in order. */
  private costs: number[] = [];
  /** The finished blocks that may name each label. */
  private named = new Map<string, number[]>();
  /** Finished blocks to render again, in the order their labels changed. */
  private pending = new Set<number>();

  /** For a lex of the open text: the finished blocks' definitions of the labels it may name. */
  finishedFor(open: string): Links {
    return namedLinks(open, [this.finished]);
  }

  /** For a lex of a finished block again: the definitions so far of the labels it may name. */
  linksFor(source: string): Links {
    return namedLinks(source, [this.finished, this.open]);
  }

  /**
   * After a lex of the open text that knew `all` (finished blocks' definitions and its own): the
   * finished blocks, by index, to render again now (with linksFor), because a definition of the
   * open text that they name came, changed or went.
   */
  blocksToRender(all: Links): number[] {
    const open = Object.create(null) as Links;
    for (const tag in all) if (!(tag in this.finished)) open[tag] = all[tag]!;
    const tags = new Set([...Object.keys(open), ...Object.keys(this.open)]);
    const changed = [...tags].filter((tag) => JSON.stringify(open[tag]) !== JSON.stringify(this.open[tag]));
    this.open = open;
    for (const tag of changed) for (const block of this.named.get(tag) ?? []) this.pending.add(block);
    const now: number[] = [];
    let budget = RENDER_AGAIN;
    for (const block of this.pending) {
      if (budget < PER_BLOCK) break;
      const cost = this.costs[block]!;
      if (cost > budget) continue;
      budget -= cost;
      now.push(block);
      this.pending.delete(block);
    }
    return now;
  }

  /** The blocks still to render again, once the text is complete (and forgets them). */
  takePending(): number[] {
    const pending = [...this.pending];
    this.pending.clear();
    return pending;
  }

  /**
   * `source`, finished block number `block`, is final, and so are its definitions. Read from a
   * lex of its blocks, not from their tokens: marked drops the token of a definition it reads a
   * second time (a quote ending in a list, followed by a lazy line, is lexed twice), and one
   * missing here read as removed on every render after (found in review).
   */
  finish(source: string, block: number): void {
    this.costs[block] = source.length + PER_BLOCK;
    // A block without a bracket defines and names nothing: most blocks of most answers. Its lex
    // for definitions cost a block lex at every commit (4 ms of a 40 KB answer's stream).
    if (!source.includes('[')) return;
    const all = blockLinks(source, this.finishedFor(source));
    for (const tag of Object.keys(all)) {
      if (tag in this.finished) continue;
      this.finished[tag] = all[tag]!;
      // It moved, it did not change.
      delete this.open[tag];
    }
    for (const tag of labelsNamedIn(source)) {
      const blocks = this.named.get(tag);
      if (blocks) blocks.push(block);
      else this.named.set(tag, [block]);
    }
  }

  clear(): void {
    this.finished = Object.create(null) as Links;
    this.open = Object.create(null) as Links;
    this.costs = [];
    this.named.clear();
    this.pending.clear();
  }
}

/**
 * Every label `source` may name, as marked reads a label (`[label]`, `[text][label]`,
 * `[label][]`): in any case, with its runs of white space as one space, across lines, in a quote
 * (whose `>` it does not see) or a table cell (whose `\|` it reads as `|`). What follows a `[`, up
 * to the next bracket that no backslash escapes, if that is a `]`. Brackets inside a link's text,
 * a code span or after a backslash may give more labels than marked reads, never fewer. One pass,
 * as the text is scanned on every render.
 */
function labelsNamedIn(source: string): Set<string> {
  const read = source.replace(/^[ \t]*(?:>[ \t]*)+/gm, '').replace(/\s+/g, ' ');
  const labels = new Set<string>();
  for (const text of read.includes('\\|') ? [read, read.replace(/\\\|/g, '|')] : [read]) {
    for (let open = text.indexOf('['); open !== -1;) {
      let end = open + 1;
      while (end < text.length && text[end] !== '[' && text[end] !== ']') end += text[end] === '\\' ? 2 : 1;
      if (text[end] === ']' && end > open + 1) labels.add(text.slice(open + 1, end).toLowerCase());
      open = text.indexOf('[', end);
    }
  }
  return labels;
}

/**
 * The definitions for the labels `source` may name, each from the first of `sets` that has it: a
 * lex of `source` reads no others, so it is handed only these, and its cost does not grow with
 * every definition of the answer (marked goes through all it is handed for each paragraph, item
 * or cell).
 */
function namedLinks(source: string, sets: Links[]): Links {
  const named = Object.create(null) as Links;
  // Most answers define nothing: their text need not be read then.
  if (sets.every(isEmpty)) return named;
  for (const tag of labelsNamedIn(source)) {
    const def = sets.find((links) => tag in links)?.[tag];
    if (def) named[tag] = def;
  }
  return named;
}

function isEmpty(links: Links): boolean {
  for (const _ in links) return false;
  return true;
}
