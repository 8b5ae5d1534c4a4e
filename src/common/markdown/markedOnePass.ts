import { Tokenizer, type Lexer, type Tokens } from 'marked';

// Steps of marked that read a list item or a paragraph again for each of its lines, escapes or
// code spans, replaced by steps that give exactly the same tokens reading it once. They change
// nothing but speed (no limit, unlike the rest of markedLimits.ts, which installs them);
// test/unit/marked-limits.test.ts compares the tokens with marked's own on random text, and times
// a list item of 80,000 lines, a paragraph of 40,000 code spans and 26,667 paragraphs between
// rules. They rely on how marked 16 runs these steps, which that test pins.

/** After up to 3 spaces, what a blank line, indented code, quote, heading, fence, bullet or numbered item starts with. */
const NOT_PLAIN_START = /[\s>#]|`{3}|~{3}|[*+-](?:[ \t\n]|$)|\d{1,9}[.)](?:[ \t\n]|$)/y;
/** A line of only these: a rule, a setext underline, a table's delimiter row. */
const MARKS_ONLY = /[-+*=_:| \t]*(?:\n|$)/y;
/** After up to 3 spaces, a line that is one HTML tag: the setext heading rule does not read on to it (marked's `html` in that rule). */
const TAG_LINE = /<[^\n>]+>\n/y;
/** A line, up to its newline or a line break that `.` in marked's rules does not take. */
const LINE = /[^\n\r\u2028\u2029]*/y;

/**
 * Whether the line at `at` is plain: in a list item, when the line after it is plain too, no
 * block rule of marked takes it but `text` (a table's header is any line, but the line after it
 * is its delimiter row), and the setext heading rule reads past it looking for an underline. A
 * line that starts with `[` or `<` is plain if marked's own rules (as this lexer has them) take
 * no definition or HTML from it: they are tried where marked would try them, and read what it
 * would read there.
 */
function plainAt(tokenizer: Tokenizer, src: string, at: number): boolean {
  let i = at;
  while (i < at + 3 && src.charCodeAt(i) === 32) i++;
  NOT_PLAIN_START.lastIndex = i;
  MARKS_ONLY.lastIndex = at;
  if (i >= src.length || NOT_PLAIN_START.test(src) || MARKS_ONLY.test(src)) return false;
  if (src[i] === '[') return !tokenizer.def(src.slice(at));
  TAG_LINE.lastIndex = i;
  return src[i] !== '<' || (!TAG_LINE.test(src) && !tokenizer.html(src.slice(at)));
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
 * as raw and as text, lexed inline as one. A line that starts with `[` or `<` is plain where no
 * definition or HTML starts (plainAt): a list item of 20,000 lines `[a` and `<a` took 4.9 s.
 */
export function plainLines(tokenizer: Tokenizer, src: string): Tokens.Text | false {
  // At the top level, `paragraph` takes the lines; `text` is only reached in list items.
  if (tokenizer.lexer.state.top || !plainAt(tokenizer, src, 0)) return false;
  let cut = -1;
  for (let at = 0; ;) {
    LINE.lastIndex = at;
    LINE.test(src);
    const end = LINE.lastIndex;
    if (src.charCodeAt(end) !== 10 || !plainAt(tokenizer, src, end + 1)) break;
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

/** How marked's setext heading rule ends: the underline after the lines it takes for the heading's text. */
const SETEXT_UNDERLINE = String.raw`+?)\n {0,3}(=+|-+) *(?:\n+|$)`;

/**
 * The setext heading rule, told where it already found no heading. marked tries it before a
 * paragraph at the top level and before each line of a list item's text, and it reads on, line
 * after line, to an underline or to a line that cannot go on a heading's text (a blank line, a
 * bullet, a quote, a heading, a fence, indented code, a line of one tag). Lines that end a
 * paragraph but not that text let it read to the end of the block at each try: `a`, `***`, `a`,
 * `***`, … read the rest of the text once per paragraph (a rule of `***` or `___` ends a
 * paragraph), and so did a list item's lines that plainLines leaves to marked (definitions and
 * HTML), once per line.
 *
 * Here, when the rule finds no heading, where its reading stopped is kept, and from any later
 * place before that in the same text it fails at once: from there it reads the same lines, tests
 * the same line ends for an underline, and stops at the same place. The place is kept as a
 * distance from the end of the text, for the text of the blockTokens call under way: the
 * lexer's own, and each one it makes for a quote's or an item's lines keeps its own (marked
 * makes them through the lexer's public blockTokens, which is wrapped here for that; the
 * random-text test in marked-limits.test.ts fails if one text's answer is used for another).
 */
export class SetextScans {
  /** For each lexer, where the call under way found no heading: from `from` characters before the end of its text to `to`. */
  private readonly known = new WeakMap<Lexer, { from: number; to: number }>();
  private reach: { rule: RegExp; run: RegExp | undefined } | undefined;

  /** Keeps what the rule found for each blockTokens call of `lexer` apart (once per lexer, before its first lheading). */
  install(lexer: Lexer): void {
    if (this.known.has(lexer)) return;
    const known = { from: 0, to: 0 };
    this.known.set(lexer, known);
    const blockTokens = lexer.blockTokens as (...args: unknown[]) => unknown;
    // The call that made this one reads on in its own text when it returns.
    (lexer as { blockTokens: unknown }).blockTokens = function (this: Lexer, ...args: unknown[]) {
      const { from, to } = known;
      known.from = known.to = 0;
      try {
        return blockTokens.apply(this, args);
      } finally {
        known.from = from;
        known.to = to;
      }
    };
  }

  /** marked's setext heading rule, or no heading at once where it found none before. */
  lheading(tokenizer: Tokenizer, src: string): Tokens.Heading | undefined {
    const known = this.known.get(tokenizer.lexer);
    if (known && src.length < known.from && src.length > known.to) return undefined;
    const heading = Tokenizer.prototype.lheading.call(tokenizer, src);
    if (heading || !known) return heading;
    const run = this.runOf(tokenizer.rules.block.lheading)?.exec(src);
    if (run) [known.from, known.to] = [src.length, src.length - run[0].length];
    return undefined;
  }

  /** The rule without its underline, reading as far as it can: where it stops reading. */
  private runOf(rule: RegExp): RegExp | undefined {
    if (this.reach?.rule !== rule) {
      const source = rule.source;
      // A marked whose rule reads differently is left to read as it does.
      const run = source.endsWith(SETEXT_UNDERLINE) ? new RegExp(`${source.slice(0, -SETEXT_UNDERLINE.length)}*)`, rule.flags) : undefined;
      this.reach = { rule, run };
    }
    return this.reach.run;
  }
}
