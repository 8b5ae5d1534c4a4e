import type { Links, Token, Tokens } from 'marked';

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
    // marked matches a label with its runs of white space as one space, in any case.
    const source = finishedText.toLowerCase().replace(/\s+/g, ' ');
    return changed.some((tag) => source.includes(`[${tag}]`));
  }

  /** `blocks` are finished: their definitions are final. */
  finish(blocks: readonly Token[]): void {
    // Blocks only, and in list items and quotes too: marked reads a definition anywhere a block
    // starts. (Not marked.walkTokens: it also walks every inline token, and copies the list of its
    // callback's results once per token, which took 0.7 s for a paragraph of 10,000 code spans.)
    for (const t of blocks) {
      if (t.type === 'def' && !(t.tag in this.finished)) {
        this.finished[t.tag] = { href: t.href, title: t.title };
        // It moved, it did not change.
        delete this.open[t.tag];
      } else if (t.type === 'list') for (const item of (t as Tokens.List).items) this.finish(item.tokens);
      else if (t.type === 'blockquote') this.finish((t as Tokens.Blockquote).tokens);
    }
  }

  clear(): void {
    this.finished = {};
    this.open = {};
  }
}
