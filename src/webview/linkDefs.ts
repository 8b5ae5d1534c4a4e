import type { Links } from 'marked';
import { blockLinks } from './markdown';

// Reference definitions (`[ref]: https://…`) while an answer streams. The open text is lexed on
// its own, after the finished blocks, so it is handed the definitions those blocks made. A
// definition in the open text is not final: it arrives a few characters at a time (`[1]: h`,
// `[1]: https://do…`), and marked keeps the first definition of a label, so handing it on would
// pin a link to the first few characters of its address for good. Only definitions in finished
// blocks are handed on; those in the open text are read from each lex. When they change, a
// finished block that names one (`[text][1]`, `[1]`) may read differently, and the renderer
// renders the whole text again.

export class LinkDefs {
  /** Definitions in finished blocks, by label (as marked normalizes it). */
  finished: Links = {};
  /** The open text's definitions at the last lex. */
  private open: Links = {};

  /**
   * After a lex of the open text that knew `all` (the finished blocks' definitions and its own):
   * whether a definition of the open text changed in a way that can change how `finishedText`
   * (the finished blocks' source) reads.
   */
  changedFor(all: Links, finishedText: string): boolean {
    const open = Object.fromEntries(Object.entries(all).filter(([tag]) => !(tag in this.finished)));
    const changed = Object.keys({ ...open, ...this.open }).filter((tag) => JSON.stringify(open[tag]) !== JSON.stringify(this.open[tag]));
    this.open = open;
    if (!changed.length || !finishedText) return false;
    // marked matches a label in a block's own text, with its runs of white space as one space, in
    // any case: `[label]`, `[text][label]`, `[label][]`, across lines, in a quote (whose `>` it
    // does not see) or a table cell (whose `\|` it reads as `|`). A label with a bracket or a
    // backslash is taken to be named.
    const source = finishedText
      .toLowerCase()
      .replace(/^[ \t]*(?:>[ \t]?)+/gm, '')
      .replace(/\\\|/g, '|')
      .replace(/\s+/g, ' ');
    return changed.some((tag) => /[[\]\\]/.test(tag) || source.includes(`[${tag}]`));
  }

  /**
   * `source` (the blocks just finished) is final, and so are its definitions. Read from a lex of
   * its blocks, not from their tokens: marked drops the token of a definition it reads a second
   * time (a quote ending in a list, followed by a lazy line, is lexed twice), and one missing here
   * read as removed on every render after (found in review).
   */
  finish(source: string): void {
    const all = blockLinks(source, this.finished);
    for (const tag of Object.keys(all)) {
      if (tag in this.finished) continue;
      this.finished[tag] = all[tag]!;
      // It moved, it did not change.
      delete this.open[tag];
    }
  }

  clear(): void {
    this.finished = {};
    this.open = {};
  }
}
