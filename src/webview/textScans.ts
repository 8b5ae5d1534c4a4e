// Scans of the streamed text that run from its end by hand, in time linear in what they read.

/**
 * Whether the text ends with a blank line: nothing after it can join a block before it (bar the
 * list case in render()). That is, its trailing spaces, tabs and newlines hold two newlines (what
 * `/\n[ \t]*\n[ \t\n]*$/` tests). Scanned from the end by hand: a regex anchored at `$` is
 * tried from every newline, and each try reads to the end of the text (a fence of 40,000 blank
 * lines took seconds).
 */
export function endsWithBlankLine(text: string): boolean {
  let newlines = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      if (++newlines === 2) return true;
    } else if (c !== 32 && c !== 9) return false;
  }
  return false;
}
