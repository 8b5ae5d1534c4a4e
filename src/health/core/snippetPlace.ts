// Where code-snippet feedback sits in a page: on the code block it is about. A reader's snippet is
// the code as the site showed it, so it is looked for in each fenced block's code (``` or ~~~,
// indented inside MDX components too), with whitespace runs made one space on both sides. Found:
// the line of the block's opening fence (0-based). Not found: undefined, and the feedback counts
// on the page instead. One pass over the text; nothing in it is run or rendered.

const FENCE = /^\s*(`{3,}|~{3,})/;

const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

export function snippetLine(text: string, code: string): number | undefined {
  const wanted = squash(code);
  if (!wanted) return undefined;
  const lines = text.split(/\r\n|\r|\n/);
  let open: { line: number; char: string; length: number } | undefined;
  let body: string[] = [];
  const holds = (): boolean => squash(body.join('\n')).includes(wanted);
  for (let i = 0; i < lines.length; i++) {
    const fence = FENCE.exec(lines[i]!)?.[1];
    if (!open) {
      if (fence) {
        open = { line: i, char: fence[0]!, length: fence.length };
        body = [];
      }
      continue;
    }
    // Only a fence of the same character, at least as long, with nothing after it, closes the block.
    if (fence && fence[0] === open.char && fence.length >= open.length && lines[i]!.trim() === fence) {
      if (holds()) return open.line;
      open = undefined;
    } else body.push(lines[i]!);
  }
  return open && holds() ? open.line : undefined;
}
