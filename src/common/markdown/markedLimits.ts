import { Tokenizer, type MarkedExtension, type Tokens } from 'marked';
import { EmphasisMasks, SetextScans, plainLines } from './markedOnePass';

// Limits on what marked is asked to parse, so that lexing a block takes time in proportion to its
// length whatever the model sends. The streaming renderer lexes the growing block at every render
// (incremental.ts), so a rule that is quadratic on some input froze the chat: a 120 KB answer of
// pathological markdown had not rendered after a minute. marked stays (its output is what the
// sanitizer and tokenDom.ts are held to); these tokenizer overrides bound the inputs on which its
// own rules go quadratic or recurse without end. Below the limits the tokens are exactly marked's
// (test/unit/marked-limits.test.ts checks it on random text); above them, markdown that no real
// answer uses reads as plain text:
//
// - Blockquotes and lists nested deeper than MAX_BLOCK_NESTING. Each level re-lexes all of the
//   text inside it (depth × length), and `> > > …` a few thousand deep overflows the stack. 16,
//   half of tokenDom.ts's own depth (issue 34): at 32, a streamed line of `> > > …` 17,500 deep
//   was lexed 32 times a render, built through the HTML path (the paragraph inside sat deeper
//   than tokenDom's 32), and laid out a character or two a line in a column 32 indents narrow:
//   its slowest update 62 ms, 18 ms at 16 (bench/pathological.ts's construct alone). markdown-it
//   caps nesting at 20 in its CommonMark preset; no answer nests quotes or lists that deep.
// - Emphasis nested deeper than MAX_EMPHASIS_NESTING, for the same two reasons.
// - An opening `*`, `_` or `~` is closed only by one of the next MAX_CLOSER_RUNS runs of its
//   character. marked looks for the closer from every opener on, to the end of the paragraph if
//   none fits: `*a *a *a … b*` (or `~a ~a ~a …`) read the paragraph once per opener. Now each
//   opener reads at most to its MAX_CLOSER_RUNS-th run, and a character is read by at most that
//   many openers.
// - A run of more than MAX_DELIMITER_RUN `*` or `_`. marked tries to open emphasis at every
//   character of a run, and each try reads the rest of the run (length²).
// - An address whose local part is longer than MAX_ADDRESS_LOCAL (64, the most RFC 5321 allows)
//   is not autolinked: marked looks for the `@` of an address at every place its text rule and
//   address rule are tried, reading the whole run of address characters each time (`a_a_a_…`,
//   `!!!…`).
// - A link whose destination holds more than MAX_LINK_PARENS `(` is not a link. marked tries a
//   title in parentheses at every `(` of the destination, each try reading on to a `)` or the end
//   of the paragraph: `[a](((((…` read it once per `(`.
// - A URL's trailing punctuation is cut to MAX_URL_TRAILING characters before marked strips it,
//   one character per pass over the whole URL (`https://a.b.....`). It strips them all anyway,
//   bar a `)` that closes a `(` of the URL, if that `)` comes after more than that many.
//
// Some overrides change nothing but speed: an opener with no run of its character after it that
// could close it is not searched for a closer at all (`*a *a *a …` with no closer); the lines
// of a list item's paragraph, and the escapes and code spans masked from emphasis in a paragraph,
// are taken in one pass; and the setext heading rule does not read again the lines in which it
// found no underline (`a`, `***`, `a`, `***`, …) (markedOnePass.ts).
//
// All of it depends only on the text of the block being lexed, never on what came before, so a
// streamed block lexes exactly as the same block in the whole text does.

export const MAX_BLOCK_NESTING = 16;
export const MAX_EMPHASIS_NESTING = 16;
export const MAX_CLOSER_RUNS = 32;
export const MAX_DELIMITER_RUN = 32;
export const MAX_ADDRESS_LOCAL = 64;
export const MAX_LINK_PARENS = 32;
export const MAX_URL_TRAILING = 32;

/** Characters of an address in marked's text rule (the lookahead that ends text before an address). */
const TEXT_ADDRESS_RUN = '~-]+@)';
/** More characters than an address's local part may have, of those marked's address rule takes. */
const LONG_ADDRESS_LOCAL = new RegExp(`^[A-Za-z0-9._+-]{${MAX_ADDRESS_LOCAL + 1}}`);
const URL_START = /^(?:https?:\/\/|ftp:\/\/|www\.)/i;
const WHITESPACE = /\s/;
/** Where marked's link rule starts reading the destination: its source up to there (the `(` of the destination's group). */
const LINK_DESTINATION = String.raw`\]\(\s*(`;
/** What marked strips from the end of a URL (its `_backpedal` rule), bar a `)` that closes a `(`. */
const URL_TRAILING = new Set('?!.,:;*_\'"~)');

/** Whether more than MAX_LINK_PARENS `(` are in the run of characters marked takes for a link's destination, from `from`. */
function tooManyParens(src: string, from: number): boolean {
  let parens = 0;
  for (let i = from; i < src.length; i++) {
    const c = src.charCodeAt(i);
    // The run ends at a space or a control character (`[^ \t\n\x00-\x1f]*`).
    if (c <= 0x20) return false;
    if (c === 0x28 && ++parens > MAX_LINK_PARENS) return true;
  }
  return false;
}

/** How many characters marked's URL rule strips from the end of `url`, or would but for a `)` it keeps. */
function trailingPunctuation(url: string): number {
  let n = 0;
  while (n < url.length && URL_TRAILING.has(url[url.length - 1 - n]!)) n++;
  return n;
}

/**
 * Where the next run of `ch` that marked's closing rule could take starts (at or after `from`),
 * or -1: every closing pattern needs a character before the run that is neither whitespace nor
 * `ch`. The answer for the last text asked about is kept, so a paragraph of openers costs one
 * pass, not one per opener.
 */
class CloserFinder {
  private masked = '';
  private from = 0;
  private at = -1;

  constructor(private readonly ch: string) {}

  next(masked: string, from: number): number {
    if (this.masked === masked && this.from <= from && (this.at < 0 || this.at >= from)) return this.at;
    let i = masked.indexOf(this.ch, from);
    while (i !== -1 && (masked[i - 1] === this.ch || WHITESPACE.test(masked[i - 1]!))) i = masked.indexOf(this.ch, i + 1);
    this.masked = masked;
    this.from = from;
    this.at = i;
    return i;
  }
}

/**
 * Where marked's search for the closer of an opener must stop: after the MAX_CLOSER_RUNS-th run
 * of `ch` from `from` on, and the one code point after it that marked's closing patterns look at
 * (not two: a cut inside the next run would make a closer of its first part). The end of the
 * text if there are fewer runs.
 */
export function closerWindowEnd(masked: string, from: number, ch: string): number {
  let i = from;
  for (let runs = 0; runs < MAX_CLOSER_RUNS; runs++) {
    i = masked.indexOf(ch, i);
    if (i === -1) return masked.length;
    while (masked[i] === ch) i++;
  }
  const c = masked.charCodeAt(i);
  return Math.min(masked.length, i + (c >= 0xd800 && c <= 0xdbff ? 2 : 1));
}

/** The tokenizer overrides, with their own nesting counters (one set per marked instance). */
export function markedLimits(): MarkedExtension {
  const depth = { block: 0, emphasis: 0 };
  const closers: Record<string, CloserFinder> = { '*': new CloserFinder('*'), _: new CloserFinder('_') };
  let boundedText: { rule: RegExp; bounded: RegExp } | undefined;
  let linkStart: { rule: RegExp; start: RegExp | undefined } | undefined;
  const masks = new EmphasisMasks();
  const setext = new SetextScans();

  /** marked's own rule one level deeper, or undefined (not this construct) at the limit. */
  function nested<T>(kind: keyof typeof depth, limit: number, rule: () => T): T | undefined {
    if (depth[kind] >= limit) return undefined;
    depth[kind]++;
    try {
      return rule();
    } finally {
      depth[kind]--;
    }
  }

  return {
    extensions: [
      {
        // Tried first at every place the block lexer tries, so before any inline lexing; takes nothing.
        name: 'maskInOnePass',
        level: 'block',
        tokenizer(): undefined {
          masks.install(this.lexer.options.tokenizer as Tokenizer);
          setext.install(this.lexer);
          return undefined;
        },
      },
      {
        // Tried before marked's own inline rules at every position: a long run becomes text in one step.
        name: 'longDelimiterRun',
        level: 'inline',
        tokenizer(src: string): Tokens.Text | undefined {
          const ch = src[0];
          if (ch !== '*' && ch !== '_') return undefined;
          let end = 1;
          while (end <= MAX_DELIMITER_RUN && src[end] === ch) end++;
          if (end <= MAX_DELIMITER_RUN) return undefined;
          while (src[end] === ch) end++;
          const raw = src.slice(0, end);
          return { type: 'text', raw, text: raw };
        },
      },
    ],
    tokenizer: {
      blockquote(src) {
        return nested('block', MAX_BLOCK_NESTING, () => Tokenizer.prototype.blockquote.call(this, src));
      },
      list(src) {
        return nested('block', MAX_BLOCK_NESTING, () => Tokenizer.prototype.list.call(this, src));
      },
      emStrong(src, maskedSrc, prevChar) {
        const ch = src[0]!;
        const finder = closers[ch];
        if (!finder) return undefined;
        let run = 1;
        while (src[run] === ch) run++;
        // marked reads the text after the opening run (`maskedSrc`, the paragraph with code spans
        // and links masked, from where `src` starts); a closing pattern starts with the character
        // before its run, so a closer starts at the second character of that text or later.
        // marked finds that place from the end, `src.length` back: before it if an escaped
        // character outside the BMP was masked shorter, and from the start if that is before it.
        const at = maskedSrc.length - src.length;
        const from = Math.max(at + run, 0);
        if (finder.next(maskedSrc, from + 1) < 0) return undefined;
        const end = closerWindowEnd(maskedSrc, from, ch);
        // Cut both so that marked finds the same place: `src` as far past it as `maskedSrc`.
        const [s, m] = end < maskedSrc.length ? [src.slice(0, end - at), maskedSrc.slice(Math.max(at, 0), end)] : [src, maskedSrc];
        return nested('emphasis', MAX_EMPHASIS_NESTING, () => Tokenizer.prototype.emStrong.call(this, s, m, prevChar));
      },
      del(src) {
        // As emStrong: a closer only among the next MAX_CLOSER_RUNS runs of `~` (and the character
        // after the last). marked tries this rule wherever its text rule stops, not only at a `~`.
        if (src[0] !== '~') return false;
        let run = 1;
        while (src[run] === '~') run++;
        const end = closerWindowEnd(src, run, '~');
        return end < src.length ? Tokenizer.prototype.del.call(this, src.slice(0, end)) : false;
      },
      link(src) {
        const rule = this.rules.inline.link;
        if (linkStart?.rule !== rule) {
          const at = rule.source.indexOf(LINK_DESTINATION);
          // A marked whose link rule reads differently is left alone.
          linkStart = { rule, start: at < 0 ? undefined : new RegExp(rule.source.slice(0, at + LINK_DESTINATION.length - 1), rule.flags) };
        }
        const start = linkStart.start?.exec(src);
        return start && tooManyParens(src, start[0].length) ? undefined : false;
      },
      url(src) {
        // An address's local part longer than MAX_ADDRESS_LOCAL: not an address (nor, without a scheme or www., a URL).
        if (!URL_START.test(src)) return LONG_ADDRESS_LOCAL.test(src) ? undefined : false;
        const cap = this.rules.inline.url.exec(src);
        if (!cap || cap[2] === '@') return false;
        // marked takes what it keeps of the URL from `src`: cut, it strips the trailing punctuation left.
        const trailing = trailingPunctuation(cap[0]);
        return trailing > MAX_URL_TRAILING ? Tokenizer.prototype.url.call(this, src.slice(0, cap[0].length - trailing + MAX_URL_TRAILING)) : false;
      },
      lheading(src) {
        return setext.lheading(this, src);
      },
      text(src) {
        return plainLines(this, src);
      },
      inlineText(src) {
        const rule = this.rules.inline.text;
        if (boundedText?.rule !== rule) {
          const source = rule.source.split(TEXT_ADDRESS_RUN).join(`~-]{1,${MAX_ADDRESS_LOCAL}}@)`);
          // A marked whose text rule reads differently keeps its own rule.
          boundedText = { rule, bounded: source === rule.source ? rule : new RegExp(source, rule.flags) };
        }
        const m = boundedText.bounded.exec(src);
        if (!m) return undefined;
        return { type: 'text', raw: m[0], text: m[0], escaped: this.lexer.state.inRawBlock };
      },
    },
    hooks: {
      emStrongMask: (src) => masks.mask(src),
    },
  };
}
