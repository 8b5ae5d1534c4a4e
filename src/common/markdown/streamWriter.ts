import { lexMarkdown, writeBlock } from './writer';

// The safe Markdown writer (writer.ts) for an answer that streams: what the @docs relay hands
// VS Code's Chat view. The text is read by marked, as CommonMark reads it, never by tracking
// fences or images by hand; a block is written once it is finished (marked has read a block
// after it), so a fence, a comment or a link the answer opens cannot reach past it, and the last
// block is written when the answer ends.
//
// Linear in the answer: the held-back text is lexed again only when a chunk brings a line break
// (or the first text after one) and it is still short (under SHORT characters), or has grown by half since it was last lexed;
// every long lex is paid for by the new text since the one before.
//
// What it costs the reader: a block shows when the next one starts, not word by word, and a
// reference-style link whose definition comes in a later block shows as text.

/** Held-back text up to this length is lexed at every line break (a paragraph shows as soon as it ends). */
const SHORT = 2048;

export class SafeMarkdownStream {
  private pending = '';
  /** Length of `pending` when it was last lexed. */
  private lexedAt = 0;
  private wrote = false;
  private endedInBreak = false;
  /** Characters handed to the lexer so far: the work this stream did, which must stay linear in the answer. */
  lexedChars = 0;

  constructor(private readonly write: (markdown: string) => void) {}

  /** More of the answer's text. */
  push(text: string): void {
    // A block is finished when the text after a line break starts another one. (Asked of the
    // chunk, not of `pending`: reading the end of a string built by += flattens it, every time.)
    const afterBreak = this.endedInBreak;
    this.endedInBreak = text.endsWith('\n');
    // marked reads \r\n and \r as \n; without them the tokens' raw text adds up to what was held.
    this.pending += text.replace(/\r/g, '');
    if (!afterBreak && !text.includes('\n')) return;
    if (this.pending.length > SHORT && this.pending.length < this.lexedAt * 1.5) return;
    this.flush(false);
  }

  /** The answer ended (or stopped): writes what is held back, every construct closed. */
  end(): void {
    this.flush(true);
  }

  private flush(all: boolean): void {
    this.lexedChars += this.pending.length;
    const tokens = lexMarkdown(this.pending);
    let keep = tokens.length;
    if (!all) while (keep > 0 && tokens[--keep]!.type === 'space');
    let consumed = 0;
    const blocks: string[] = [];
    for (let i = 0; i < keep; i++) {
      const t = tokens[i]!;
      if (this.pending.startsWith(t.raw, consumed)) consumed += t.raw.length;
      else if (!all) break; // marked's text did not add up to the source: hold the rest until the end.
      const block = writeBlock(t);
      if (block) blocks.push(block);
    }
    this.pending = all ? '' : this.pending.slice(consumed);
    this.lexedAt = this.pending.length;
    if (blocks.length === 0) return;
    this.write((this.wrote ? '\n\n' : '') + blocks.join('\n\n'));
    this.wrote = true;
  }
}
