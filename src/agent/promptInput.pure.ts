// Line breaks in the one-line review box: shown as ⏎, turned back on the way out.

export const NEWLINE_MARK = ' ⏎ ';

export function toOneLine(prompt: string): string {
  return prompt.replace(/\r?\n/g, NEWLINE_MARK);
}

export function fromOneLine(value: string): string {
  return value.split(NEWLINE_MARK).join('\n').replace(/⏎/g, '\n');
}

