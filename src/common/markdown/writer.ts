import { Marked, type Token, type Tokens } from 'marked';
import { mdCodeSpan, mdFenced, mdLink, mdText } from './escape';
import { markedLimits } from './markedLimits';

// The one safe Markdown writer. Whatever leaves the extension as Markdown (an exported
// conversation, an answer's Copy, the @docs relay, the agent's draft, progress and error text)
// is written here, so that it is inert in every renderer a user opens it in: VS Code's Markdown
// preview (markdown-it with raw HTML on and img-src https allowed), the Chat view, GitHub.
//
// Untrusted Markdown (an answer) is not passed through: it is read by marked, with the same
// bounds as the chat view (markedLimits.ts: linear time, bounded nesting) and raw HTML off, and
// written again from its tokens. So in what comes out:
// - raw HTML, comments and entities are text;
// - an image is a link to it (a badge inside a link is its alt text), so nothing loads unasked;
// - a link keeps only an http(s) or mailto destination;
// - code blocks are fenced by a fence the code cannot close, and every block is closed, so the
//   text cannot open or close a fence, a comment or a link around what the extension writes next.
// What cannot be written safely is written as text, never dropped silently.

const lexer = new Marked({ gfm: true, breaks: false });
// Raw HTML is text, as in the chat view: marked's html and tag rules never match.
lexer.use({ tokenizer: { html: () => undefined, tag: () => undefined } }, markedLimits());

/** The blocks of `markdown`, as marked reads them with the chat view's bounds. */
export function lexMarkdown(markdown: string): Token[] {
  return lexer.lexer(markdown);
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Marked leaves character references in text as written; they stand for characters, which are then escaped. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
  });
}

/** Inline tokens as safe one-line Markdown. `inLink`: inside a link's text, where no other link may open. */
function inline(tokens: readonly Token[] | undefined, inLink = false): string {
  const out = { md: '' };
  writeInline(out, tokens, inLink);
  return out.md;
}

function writeInline(out: { md: string }, tokens: readonly Token[] | undefined, inLink: boolean): void {
  for (const t of tokens ?? []) writeInlineToken(out, t, inLink);
}

function writeInlineToken(out: { md: string }, t: Token, inLink: boolean): void {
  switch (t.type) {
    case 'text':
      if ('tokens' in t && t.tokens?.length) writeInline(out, t.tokens, inLink);
      else out.md += mdText(decodeEntities(t.text), inLink);
      return;
    case 'escape':
      out.md += mdText(t.text, inLink);
      return;
    case 'codespan':
      // A bare URL just before it (which the preview and marked make a link of, up to the next
      // space) would take the opening backticks, and the code would be read as Markdown and HTML.
      if (out.md !== '' && !/\s$/.test(out.md)) out.md += ' ';
      out.md += mdCodeSpan(t.text);
      return;
    case 'strong':
      return wrap(out, '**', t.tokens, inLink);
    case 'em':
      return wrap(out, '*', t.tokens, inLink);
    case 'del':
      return wrap(out, '~~', t.tokens, inLink);
    case 'br':
      out.md += '\\\n';
      return;
    case 'link':
      out.md += linkOf(inline(t.tokens, true), (t as Tokens.Link).href, inLink);
      return;
    case 'image':
      // An image is a link to it, so nothing loads until the user clicks; inside a link, its words.
      out.md += linkOf(mdText((t as Tokens.Image).text.trim(), true) || 'image', (t as Tokens.Image).href, inLink);
      return;
    default:
      out.md += mdText(decodeEntities('raw' in t ? String(t.raw) : ''), inLink);
  }
}

/** Emphasis around text only when there is text: `****` alone is a thematic break. */
function wrap(out: { md: string }, mark: string, tokens: readonly Token[] | undefined, inLink: boolean): void {
  const before = out.md;
  out.md += mark;
  const start = out.md.length;
  writeInline(out, tokens, inLink);
  if (out.md.slice(start).trim()) out.md += mark;
  else out.md = before + out.md.slice(start);
}

/** Inside a link's text no other link may open: there, only the words. */
const linkOf = (safeText: string, href: string, inLink: boolean): string => (inLink ? safeText : mdLink(safeText, href));

/** `text` with every line after the first indented by `indent`, and the first prefixed by `first`. */
export function indentLines(text: string, first: string, indent: string): string {
  return text
    .split('\n')
    .map((line, i) => (i === 0 ? first : line ? indent : indent.trimEnd()) + line)
    .join('\n');
}

function listOf(list: Tokens.List): string {
  const start = typeof list.start === 'number' ? list.start : 1;
  const items = list.items.map((item, i) => {
    const marker = list.ordered ? `${start + i}. ` : '- ';
    const task = item.task ? (item.checked ? '[x] ' : '[ ] ') : '';
    const body = blocks(
      item.tokens.filter((t) => t.type !== 'checkbox'),
      item.loose ? '\n\n' : '\n',
    );
    return indentLines(task + body, marker, ' '.repeat(marker.length));
  });
  return items.join(list.loose ? '\n\n' : '\n');
}

function tableOf(table: Tokens.Table): string {
  const cell = (c: Tokens.TableCell): string => inline(c.tokens).replace(/\|/g, '\\|') || ' ';
  const row = (cells: readonly Tokens.TableCell[]): string => `| ${cells.map(cell).join(' | ')} |`;
  const align = table.align.map((a) => (a === 'center' ? ':---:' : a === 'left' ? ':---' : a === 'right' ? '---:' : '---'));
  return [row(table.header), `| ${align.join(' | ')} |`, ...table.rows.map(row)].join('\n');
}

/** One block as safe Markdown, or '' for what shows nothing (blank lines, link definitions). */
export function writeBlock(t: Token): string {
  switch (t.type) {
    case 'space':
    case 'def':
      return '';
    case 'paragraph':
      return inline(t.tokens).trim();
    case 'text':
      return ('tokens' in t && t.tokens ? inline(t.tokens) : mdText(decodeEntities(t.text))).trim();
    case 'heading':
      return `${'#'.repeat((t as Tokens.Heading).depth)} ${inline(t.tokens).trim()}`;
    case 'code':
      return mdFenced((t as Tokens.Code).text, (t as Tokens.Code).lang);
    case 'blockquote': {
      const body = blocks((t as Tokens.Blockquote).tokens);
      return body ? indentLines(body, '> ', '> ') : '';
    }
    case 'list':
      return listOf(t as Tokens.List);
    case 'table':
      return tableOf(t as Tokens.Table);
    case 'hr':
      return '---';
    default:
      return mdText(decodeEntities('raw' in t ? String(t.raw) : '')).trim();
  }
}

/** Blocks joined by `separator` (a blank line between blocks; a loose list item's too). */
function blocks(tokens: readonly Token[], separator = '\n\n'): string {
  return tokens
    .map(writeBlock)
    .filter((b) => b !== '')
    .join(separator);
}

/** Untrusted Markdown (an answer, a question), written again so that it is inert wherever it is opened. */
export function safeMarkdown(markdown: string): string {
  return blocks(lexMarkdown(markdown));
}
