// Line ends as marked reads them. marked reads `\r\n` and a lone `\r` as `\n`, and the streaming
// renderer finds where its finished blocks end by adding up their sources: with other line ends
// those fell short of the text, and a finished block's end was shown again at the start of the
// next one (found in review; nothing upstream makes a service's line ends `\n`). So the renderer
// holds its text with `\n` only, made a delta at a time (a delta may end between `\r` and `\n`),
// and keeps what was sent, for its callers, only once a `\r` came.

export class LineEnds {
  /** The text as sent, once it held a `\r` (until then it is the renderer's own). */
  private raw: string | undefined;
  /** The last delta ended with a `\r`, now a `\n`: a `\n` that starts the next one is the same line end. */
  private afterCr = false;

  /** `delta` with `\n` line ends, to append to `made`, the text made so far. */
  add(delta: string, made: string): string {
    if (this.raw === undefined && !delta.includes('\r')) return delta;
    // Until now what was sent is what was made: there was no `\r` to change.
    this.raw = (this.raw ?? made) + delta;
    const out = (this.afterCr && delta.startsWith('\n') ? delta.slice(1) : delta).replace(/\r\n?/g, '\n');
    this.afterCr = delta.endsWith('\r');
    return out;
  }

  /** What was sent, given the text made of it. */
  sent(text: string): string {
    return this.raw ?? text;
  }

  clear(): void {
    this.raw = undefined;
    this.afterCr = false;
  }
}
