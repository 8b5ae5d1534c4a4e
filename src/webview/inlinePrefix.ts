import type { Token } from 'marked';

// A paragraph grows at its end while it streams, and each render used to parse, sanitize and
// rebuild all of it. Most of a paragraph is settled long before it ends: once a bold word or a
// code span has closed and plain prose follows, nothing that arrives later can change how that
// part lexes or renders. This finds that settled prefix among a paragraph's inline tokens, so that
// a render only needs to process what follows it.
//
// The rules are deliberately narrow; anything they do not recognise ends the prefix, which only
// costs speed: that part is rendered again next time, as before. test/unit/inline-prefix.test.ts
// checks them against marked itself, and found the cases the narrower rules below exclude.
// - The last token may always grow (a word, a closing delimiter run, a URL), so it never counts.
// - Plain text counts only if it holds nothing that a later character could pair with and turn
//   into markup: no emphasis or strike delimiters, brackets, angle brackets, backticks,
//   backslashes, ampersands, exclamation marks, and nothing an autolink could grow from.
// - A closed element (bold, italic, strike, code span, inline link or image, `<…>` autolink)
//   counts if nothing inside it could pair with later text (a lone backtick or bracket could),
//   and it stands between spaces or plain punctuation, `(**a**)`, `` `b`. ``: inside a word,
//   marked's reading of a delimiter run can still change with what follows. (Spaces alone left
//   a paragraph unsettled from its first sentence that ended in code or bold on: every render
//   after that one built and compared the rest of the paragraph again, a cost that grew with it.)
// - Raw HTML never counts: a tag's meaning depends on what the HTML parser sees after it. Nor
//   does a hard line break (a block that interrupts the paragraph on the next line drops it), a
//   bare URL or address (it can start with a delimiter: `_me@x.test`), or a reference link
//   (its definition may come later).
// The prefix always ends right after an element, so in the DOM it ends with that element's node
// and what follows starts a new node: no text node is shared between the two parts.

const LOOSE_IN_TEXT = /[*_~`[\]<>!\\&@]|:\/\/|www\./i;
const LOOSE_IN_ELEMENT = /[`[\]<>\\!]/;
const ELEMENT_TYPES = new Set(['strong', 'em', 'del', 'codespan', 'link', 'image']);
/**
 * An inline link or image that marked's masking reads exactly as its link tokenizer does: no
 * brackets, backticks, angle brackets or backslashes in its text, no parentheses, quotes, spaces
 * or backslashes in its address, no title. Any of those let the mask of a link run past its end
 * (`[a](u "t(")`, `[a [b] <c](u)`, `[a](u\)`), hiding emphasis that comes later (found in review).
 */
const PLAIN_LINK = /^!?\[[^[\]\\`<>]*\]\([^\s()\\<>"'`]*\)$/;
/**
 * What may stand right before a settled element, and what right after it: a space or line break
 * (both whitespace to marked's delimiter rules), or punctuation that no delimiter, backtick or
 * bracket rule reads. (Without the line break, a quote or paragraph whose lines start with a bold
 * word or code span settled nothing past its first such line: its renders grew with it, 4.9× near
 * the end of the bench's 10 KB quote against its start, 2.8× with it.)
 */
const OPENS = ' (\n';
const CLOSES = ' .,;:?)\n';

export interface SettledPrefix {
  /** Leading tokens that are settled. */
  tokens: number;
  /** Top-level elements they render to (each settled element token renders exactly one). */
  elements: number;
}

const isDelimiter = (c: string | undefined): boolean => c === '*' || c === '_' || c === '~';

/**
 * The inside of an element token, without its own delimiters or brackets. The delimiters are
 * stripped by hand: `/[*_~]+$/` is tried from every delimiter inside the token and reads to the
 * end of its run each time (`**a___…b**` with 40,000 underscores took seconds).
 */
export function innerOf(t: Token): string {
  switch (t.type) {
    case 'strong':
    case 'em':
    case 'del': {
      const raw = t.raw;
      let start = 0;
      let end = raw.length;
      while (start < end && isDelimiter(raw[start])) start++;
      while (end > start && isDelimiter(raw[end - 1])) end--;
      return raw.slice(start, end);
    }
    default:
      return '';
  }
}

/** A code span's source without its opening and closing runs of backticks (by hand, as innerOf). */
function innerCode(raw: string): string {
  let start = 0;
  let end = raw.length;
  while (start < end && raw[start] === '`') start++;
  while (end > start && raw[end - 1] === '`') end--;
  return raw.slice(start, end);
}

/** Whether an element token is closed for good, whatever follows it. */
function isClosedElement(t: Token): boolean {
  switch (t.type) {
    case 'strong':
    case 'em':
    case 'del':
      return !LOOSE_IN_ELEMENT.test(innerOf(t));
    // Before it looks for emphasis, marked masks what looks like a code span in the whole
    // paragraph, and that look pairs equal runs of backticks with no backtick between them: a
    // span with a backtick inside (``` ``a`b`` ```) leaves its closing run free to pair with one
    // that comes later, and the bold word between them stops being bold. (The fuzz found it once
    // it ran with the webview's own marked set-up.) Links: PLAIN_LINK.
    case 'codespan':
      return !innerCode(t.raw).includes('`');
    case 'image':
      return PLAIN_LINK.test(t.raw);
    case 'link':
      // An inline link `[…](…)` or an autolink `<…>`. Reference links `[…][…]` depend on
      // definitions yet to come; a bare URL or address can start with a delimiter (`_me@x.test`)
      // that later text may pair.
      if (t.raw.startsWith('[')) return PLAIN_LINK.test(t.raw);
      return t.raw.startsWith('<') && t.raw.endsWith('>');
    default:
      return false;
  }
}

/**
 * The settled prefix of a paragraph's inline tokens. `from`: a settled prefix of these same tokens
 * already known (a later one only goes on from it; each token's test looks at it and its
 * neighbours only), so that a render does not test the whole paragraph again.
 */
export function settledPrefix(tokens: readonly Token[], from: SettledPrefix = { tokens: 0, elements: 0 }): SettledPrefix {
  let best = from;
  let elements = from.elements;
  for (let i = from.tokens; i < tokens.length - 1; i++) {
    const t = tokens[i]!;
    if (t.type === 'text') {
      if (LOOSE_IN_TEXT.test(t.raw)) break;
      continue;
    }
    if (!ELEMENT_TYPES.has(t.type) || !isClosedElement(t)) break;
    const before = i === 0 ? ' ' : tokens[i - 1]!.raw.slice(-1);
    if (!OPENS.includes(before) || !CLOSES.includes(tokens[i + 1]!.raw[0]!)) break;
    elements++;
    best = { tokens: i + 1, elements };
  }
  return best;
}

/** The raw source of the tokens before index `n`, from index `from` on. */
export function rawOf(tokens: readonly Token[], n: number, from = 0): string {
  let s = '';
  for (let i = from; i < n; i++) s += tokens[i]!.raw;
  return s;
}
