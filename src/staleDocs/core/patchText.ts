// The patch a check reads, bounded: the wiring asks the Git extension for it a piece at a time (the
// staged patch, then the unstaged one; or one file's patch after another on a branch) and stops
// asking once MAX_PATCH_CHARS are in. What is past the bound is cut at a line and counted, so the
// extractor reads whole lines and the result can say the change was larger than was read.

/** The most characters of patch a check reads: a 10,000-line diff is about 0.5 MB. */
export const MAX_PATCH_CHARS = 4 * 1024 * 1024;
/** The most files of a branch's change whose patch is read, one request each. */
export const MAX_PATCH_FILES = 2000;

export class PatchText {
  private readonly parts: string[] = [];
  private size = 0;
  /** The text reached the bound: nothing more goes in. */
  private overflow = false;
  /** Files left out unread; the text may still take others. */
  private leftOut = false;

  constructor(private readonly max = MAX_PATCH_CHARS) {}

  /** Whether another piece may be read. */
  get full(): boolean {
    return this.overflow || this.size >= this.max;
  }

  /** Adds a piece (a whole patch); the part past the bound is dropped at the last line break before it. */
  add(piece: string): void {
    if (!piece) return;
    if (this.full) {
      this.overflow = true;
      return;
    }
    let text = piece.endsWith('\n') ? piece : `${piece}\n`;
    const room = this.max - this.size;
    if (text.length > room) {
      const end = text.lastIndexOf('\n', room - 1);
      text = end < 0 ? '' : text.slice(0, end + 1);
      this.overflow = true;
    }
    this.parts.push(text);
    this.size += text.length;
  }

  /** Something was left out without being read (a file too large, or past the file bound). */
  leaveOut(): void {
    this.leftOut = true;
  }

  /** Whether something was left out for a bound. */
  get cut(): boolean {
    return this.overflow || this.leftOut;
  }

  get text(): string {
    return this.parts.join('');
  }

  get length(): number {
    return this.size;
  }
}
