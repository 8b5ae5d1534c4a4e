// The string literals of one line of code, for the readers that look for flags, commands, routes,
// environment variables and messages inside them. A hand-written scan, linear in the line, instead
// of one regex per kind of literal: quotes, escapes and unterminated strings cost nothing extra.

export interface Literal {
  /** Its text between the quotes, escapes left as written. */
  text: string;
  /** Index of the opening quote in the line. */
  start: number;
  /** Index just past the closing quote. */
  end: number;
}

/** At most this many literals are read from one line. */
const MAX_LITERALS = 16;
/** How much of the line before a literal its reader looks at (`.option(`, `throw new Error(`). */
const LEAD_CHARS = 80;

/** The line's single-, double- and back-quoted literals, in order; an unterminated one ends the scan. */
export function stringLiterals(line: string): Literal[] {
  const out: Literal[] = [];
  for (let i = 0; i < line.length && out.length < MAX_LITERALS; i++) {
    const q = line[i];
    if (q !== '"' && q !== "'" && q !== '`') continue;
    let j = i + 1;
    while (j < line.length && line[j] !== q) j += line[j] === '\\' ? 2 : 1;
    if (j >= line.length) break;
    out.push({ text: line.slice(i + 1, j), start: i, end: j + 1 });
    i = j;
  }
  return out;
}

/** The text just before `lit`, bounded, for a reader's `…\($` test. */
export const leadOf = (line: string, lit: Literal): string => line.slice(Math.max(0, lit.start - LEAD_CHARS), lit.start);

/**
 * What stays the same around a renamed name: the line without `start..end`, as a 32-bit FNV-1a
 * hash, so that thousands of finds pair without a string made for each. Keys are compared within
 * one hunk only, where two different lines sharing a hash is a chance of about one in four billion.
 */
export function contextOf(line: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < line.length; i++) {
    if (i === start) {
      h = Math.imul(h ^ 0xffff, 0x01000193);
      i = end - 1;
      continue;
    }
    h = Math.imul(h ^ line.charCodeAt(i), 0x01000193);
  }
  return h;
}

/** A find named `name`, at `at` in `line`: the rest of the line is what pairs it with its new name. */
export const foundAt = (line: string, name: string, at: number): { name: string; pairKey: number } => ({
  name,
  pairKey: contextOf(line, at, at + name.length),
});

/** A whole-line comment in JavaScript, TypeScript, Go or Python. */
export const isCommentLine = (line: string): boolean => /^\s*(?:\/\/|\/\*|\*|#)/.test(line);
