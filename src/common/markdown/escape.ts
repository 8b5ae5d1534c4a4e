// The pieces of the one safe Markdown writer (writer.ts) that take plain text: whatever the text
// holds, it comes out as text in every renderer a user opens the result in (VS Code's Markdown
// preview, which is markdown-it with raw HTML on; VS Code's Chat view; GitHub). Nothing in it can
// start a block, a link, an image, an HTML tag or comment, an entity, emphasis, math or a table
// cell, and nothing can end a construct the writer opened around it.

/**
 * The ASCII punctuation that starts or ends something anywhere in a line, in CommonMark, GFM or
 * the preview's plug-ins (`$` is KaTeX math there). CommonMark defines a backslash before any
 * ASCII punctuation as that character, so each renders as itself. `!`, `(`, `)`, `:` and quotes
 * mean something only next to a `[` or a `]`, which are escaped (and a `!` that ends the text).
 */
const SPECIAL = /[\\`*_[\]<>#|~&$]/g;
/** What means something only at a line's start (a list item, a setext underline, a rule), as text starts one. */
const LINE_START = /^( ?)([-+=]|\d{1,9}[.)])/;
/** Bidi and other invisible format characters: shown as text they could reorder what follows. */
const FORMAT_CHARS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed here.
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/**
 * Written as character references rather than escaped: every renderer shows them as the character
 * and none reads them as markup. marked's bare-URL autolink takes a backslash before a `<` into the
 * URL, so `\<` there would open an autolink (`<javascript:…>`) after all.
 */
const REFS: Record<string, string> = { '<': '&lt;', '>': '&gt;' };
/** Brackets too, inside a link's text: marked reads `\[x\](u)` there as a link (or, after `!`, an image). */
const BRACKET_REFS: Record<string, string> = { '[': '&#91;', ']': '&#93;' };

/**
 * Text as inline Markdown on one line: whitespace (line breaks included) collapsed to one space,
 * so nothing in it reaches the start of a line, where blocks begin. `inLinkText`: the text goes
 * between a link's brackets, where brackets are written as character references (every renderer
 * shows them as brackets; none reads them as markup, marked included).
 */
export function mdText(text: string, inLinkText = false): string {
  return (
    text
      .replace(CONTROL_CHARS, '')
      .replace(FORMAT_CHARS, '')
      .replace(/\s+/g, ' ')
      .replace(SPECIAL, (c) => REFS[c] ?? ((inLinkText && BRACKET_REFS[c]) || `\\${c}`))
      // No bare URL: the preview's linkify makes a link of `//host` (and of `https://…`) in text.
      .replace(/\/\//g, '/&#47;')
      // A `!` at the end is an image's start if a link is written right after it.
      .replace(/!$/, '\\!')
      .replace(LINE_START, (_, space: string, mark: string) => `${space}${mark.slice(0, -1)}\\${mark.slice(-1)}`)
  );
}

/** Like mdText, with the ends trimmed: a heading, a list entry, a progress line. */
export const mdLine = (text: string): string => mdText(text).trim();

/** The longest run of `ch` in `text`. */
function longestRun(text: string, ch: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/**
 * `text` as a code span: literal in every renderer, on one line, closed by a longer backtick run
 * than any inside. Spaces stay as they are (a code span keeps them); a line break, which would end
 * the paragraph at a blank line, is a space, or `lineBreak` when the text must show exactly.
 */
export function mdCodeSpan(text: string, lineBreak = ' '): string {
  const body = text.replace(CONTROL_CHARS, '').replace(/\r\n|\r|\n/g, lineBreak);
  const ticks = '`'.repeat(longestRun(body, '`') + 1);
  // A span that starts or ends with a backtick (or is all spaces) needs a space inside each end.
  const pad = body.startsWith('`') || body.endsWith('`') || body.startsWith(' ') || body.endsWith(' ') ? ' ' : '';
  return `${ticks}${pad}${body}${pad}${ticks}`;
}

/** Schemes a written link may keep: a click opens them in the browser or the mail client; none runs anything. */
const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/**
 * A link destination safe to write, or undefined: an absolute http(s) or mailto URL, normalised by
 * the URL parser, with every character that could end the destination or be read as markup
 * percent-encoded. Anything else (command:, vscode:, javascript:, data:, file:, relative) is dropped.
 */
export function mdLinkDestination(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  if (!LINK_SCHEMES.has(parsed.protocol) || parsed.username || parsed.password) return undefined;
  return parsed.href.replace(/[\s()<>\\`"'|]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/**
 * `[text](url)` when the url is safe to link to and there is text to click, else the text alone.
 * `text` is Markdown the caller already made safe.
 */
export function mdLink(safeText: string, url: string): string {
  const dest = mdLinkDestination(url);
  return dest && safeText.trim() ? `[${safeText}](${dest})` : safeText;
}

/** A fenced code block's info string: a plain language id, or nothing. Languages that a renderer draws live (maps, diagrams that fetch) are dropped. */
export function mdFenceLanguage(lang: string | undefined): string {
  const id = (lang ?? '').trim().split(/\s/)[0] ?? '';
  if (!/^[\w+#.-]{1,40}$/.test(id)) return '';
  return LIVE_LANGUAGES.has(id.toLowerCase()) ? '' : id;
}
/** GitHub draws these code blocks as maps, 3-D models or diagrams, some of which load from other hosts. */
const LIVE_LANGUAGES = new Set(['geojson', 'topojson', 'stl', 'mermaid', 'math']);

/** `text` in a backtick fence it cannot close (longer than any backtick run in it), with an optional language. */
export function mdFenced(text: string, lang = ''): string {
  const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  return `${fence}${mdFenceLanguage(lang)}\n${text.replace(CONTROL_CHARS, '')}\n${fence}`;
}
