import * as assert from 'node:assert/strict';

/**
 * The lines of a Markdown text outside its fences, read as CommonMark does: a fence closes only
 * with its own character, at least as long, alone on its line. What a draft's reader could make
 * into a line of its own is what this returns.
 */
export function outsideFences(text: string): string[] {
  const out: string[] = [];
  let open: string | undefined;
  for (const line of text.split('\n')) {
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (open === undefined) {
      if (fence) open = fence;
      else out.push(line);
    } else if (fence && fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) open = undefined;
  }
  assert.equal(open, undefined, 'every fence is closed');
  return out;
}
