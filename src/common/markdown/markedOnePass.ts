import type { Tokenizer, Tokens } from 'marked';

// Steps of marked that read a list item or a paragraph again for each of its lines, escapes or
// code spans, replaced by steps that give exactly the same tokens reading it once. They change
// nothing but speed (no limit, unlike the rest of markedLimits.ts, which installs them);
// test/unit/marked-limits.test.ts compares the tokens with marked's own on random text, and times
// a list item of 80,000 lines and a paragraph of 40,000 code spans. They rely on how marked 16
// runs these steps, which that test pins.

/** After up to 3 spaces, what a blank line, indented code, quote, heading, HTML, link definition, fence, bullet or numbered item starts with. */
const NOT_PLAIN_START = /[\s>#<[]|`{3}|~{3}|[*+-](?:[ \t\n]|$)|\d{1,9}[.)](?:[ \t\n]|$)/y;
/** A line of only these: a rule, a setext underline, a table's delimiter row. */
const MARKS_ONLY = /[-+*=_:| \t]*(?:\n|$)/y;
/** A line, up to its newline or a line break that `.` in marked's rules does not take. */
const LINE = /[^\n\r\u2028\u2029]*/y;

/**
 * Whether the line at `at` is plain: in a list item, when the line after it is plain too, no
 * block rule of marked takes it but `text` (a table's header is any line, but the line after it
 * is its delimiter row), and the setext heading rule reads past it looking for an underline.
 */
function plainAt(src: string, at: number): boolean {
  let i = at;
  while (i < at + 3 && src.charCodeAt(i) === 32) i++;
  NOT_PLAIN_START.lastIndex = i;
  MARKS_ONLY.lastIndex = at;
  return i < src.length && !NOT_PLAIN_START.test(src) && !MARKS_ONLY.test(src);
}

/**
 * Lines of a paragraph in a list item. marked lexes a list item's text a line at a time: at each
 * line it tries every block rule, the setext heading rule reading on to the end of the paragraph
 * looking for an underline, then `text` takes the line and joins it to the text before with
 * `raw.endsWith('\n')`, which copies the whole text joined so far (a string built with `+=` is
 * copied to be read). A list item of 20,000 lazy lines read itself 20,000 times, twice (5 s).
 *
 * Here, where `text` takes a plain line (so the setext rule found no underline from it), it takes
 * at once every line after it that is followed by a plain line. marked would have taken each of
 * them the same way: no other rule takes such a line, and the setext rule, which found no
 * underline from the first line, finds none from a later one (it reads the same lines and tests
 * the same line ends). The token is the one marked's joins make: the lines with their newlines,
 * as raw and as text, lexed inline as one.
 */
export function plainLines(tokenizer: Tokenizer, src: string): Tokens.Text | false {
  // At the top level, `paragraph` takes the lines; `text` is only reached in list items.
  if (tokenizer.lexer.state.top || !plainAt(src, 0)) return false;
  let cut = -1;
  for (let at = 0; ;) {
    LINE.lastIndex = at;
    LINE.test(src);
    const end = LINE.lastIndex;
    if (src.charCodeAt(end) !== 10 || !plainAt(src, end + 1)) break;
    cut = end;
    at = end + 1;
  }
  if (cut < 0) return false;
  const raw = src.slice(0, cut);
  return { type: 'text', raw, text: raw, tokens: tokenizer.lexer.inline(raw) };
}

/** An escaped character outside the BMP: two code units and the backslash, masked as two (see EmphasisMasks). */
const ASTRAL_ESCAPE = /\\[\uD800-\uDBFF]/;

/**
 * Escapes, code spans, links and HTML tags masked from emphasis. Before looking for emphasis in a
 * paragraph, marked replaces each escape with `++` and each code span, link or tag with `[aaa…]`
 * in a copy of its text, one at a time, building the whole copy again each time and searching it
 * again: `` `a` `a` `a` … `` built it once per code span (7 s for 40,000), `\* \* \* …` once per
 * escape. Here its two loops are given rules that find nothing, and marked's `emStrongMask` hook,
 * which runs right after them, masks the same matches in one pass over the text each.
 *
 * The matches are the same, since every mask is as long as what it replaces: an escape's rule
 * does not look back, and a code span's looks back one character (it is not preceded by a
 * backtick); at the end of a masked match it would see `]` where the text has `` ` ``, `)` or
 * `>`, but no code span starts right after one (its rule checks that no backtick follows). An
 * escaped character outside the BMP is masked shorter, which shifts marked's search: a text
 * holding one is masked by marked's own loop, as marked does it.
 */
export class EmphasisMasks {
  private rules: { anyPunctuation: RegExp; blockSkip: RegExp } | undefined;
  private skipped: string | undefined;
  private readonly escapes = {
    lastIndex: 0,
    exec: (text: string) => {
      this.skipped = text;
      return null;
    },
    // marked also unescapes a link's destination and title and a fence's language with this rule.
    [Symbol.replace]: (text: string, replacement: string) => text.replace(this.rules!.anyPunctuation, replacement),
  };
  private readonly blocks = { lastIndex: 0, exec: () => null };

  /** Gives marked's two loops, in this lexer's own rules, rules that find nothing (once per lexer, before any inline lexing). */
  install(tokenizer: Tokenizer): void {
    const inline = tokenizer.rules.inline;
    if (inline.blockSkip === (this.blocks as unknown)) return;
    this.rules = { anyPunctuation: inline.anyPunctuation, blockSkip: inline.blockSkip };
    tokenizer.rules.inline = { ...inline, anyPunctuation: this.escapes as unknown as RegExp, blockSkip: this.blocks as unknown as RegExp };
  }

  /** What marked's loops would have made of `text`, if they have just seen it (a lexer without install() has masked it already). */
  mask(text: string): string {
    if (text !== this.skipped || !this.rules) return text;
    this.skipped = undefined;
    const { anyPunctuation, blockSkip } = this.rules;
    const escaped = ASTRAL_ESCAPE.test(text) ? maskedByMarked(text, anyPunctuation) : maskEach(text, anyPunctuation, () => '++');
    // marked keeps the character a code span's match may start with (when the engine has no lookbehind).
    return maskEach(escaped, blockSkip, (m) => {
      const offset = m[2] ? m[2].length : 0;
      return `${m[0].slice(0, offset)}[${'a'.repeat(m[0].length - offset - 2)}]`;
    });
  }
}

/** `text` with each match of the global `rule` replaced by its mask, found in one pass over `text`. */
function maskEach(text: string, rule: RegExp, mask: (m: RegExpExecArray) => string): string {
  let out = '';
  let from = 0;
  rule.lastIndex = 0;
  for (let m = rule.exec(text); m !== null; m = rule.exec(text)) {
    out += text.slice(from, m.index) + mask(m);
    from = rule.lastIndex;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** marked's own loop for escapes, word for word. */
function maskedByMarked(text: string, rule: RegExp): string {
  let masked = text;
  rule.lastIndex = 0;
  for (let m = rule.exec(masked); m !== null; m = rule.exec(masked)) masked = masked.slice(0, m.index) + '++' + masked.slice(rule.lastIndex);
  return masked;
}
