import type { Token, Tokens } from 'marked';

// Markdown DOM built straight from marked's tokens, for the plain blocks that make up most of an
// answer (paragraphs, headings, lists, tables, code, quotes, with bold, italic, code spans and
// strikethrough). It makes the same nodes that the HTML path (marked's HTML, then DOMPurify)
// makes of those tokens, down to the whitespace text nodes; test/webview/token-dom.test.ts
// compares the two on every fixture and on random and hostile documents.
//
// Why: a streamed answer renders a few small pieces ten times a second, and the HTML path parses
// each render into a new document and walks it node by node to sanitize it: over a long answer
// that costs more than building the same nodes. It is also safe by construction, not by
// filtering: every string from the model goes in as a text node, element names come from this
// file, and the only attributes are a code block's language class (a plain word), an ordered
// list's start number and a table cell's alignment (one of three words).
//
// Anything else returns undefined and takes the HTML path: links and images (their
// URLs are the sanitizer's job), entities (`&amp;`: the HTML parser decodes them), task lists
// (their checkboxes are sanitized away), NUL and form feed characters, markup nested deeper than
// MAX_NESTING, unknown token types. It mirrors marked's default renderer: markdown.ts installs
// no renderer overrides (its only extension switches raw HTML off at the tokenizer, which changes
// which tokens exist, not how they render), and must not without changing this file too.

const LANGUAGE = /^[\w+#.-]+$/;
const ALIGN = new Set(['left', 'center', 'right']);
/**
 * How deep blocks and inline markup may nest here (each level is one or two elements). Deeper
 * text (a quote in a list in a quote…, a few KB can nest thousands deep) takes the HTML path,
 * whose parser caps the tree's depth: Chromium's layout of a tree thousands deep crashes the page.
 */
const MAX_NESTING = 32;

class Unsupported extends Error {}

let nesting = 0;
function enter(): void {
  if (++nesting > MAX_NESTING) throw new Unsupported();
}

/** Appends text, merging with a text node before it as the HTML parser does; never an empty node. */
function text(parent: Node, data: string): void {
  if (data === '') return;
  // The HTML parser drops NUL characters, and a form feed that starts a piece.
  if (data.includes('\0') || data.includes('\f')) throw new Unsupported();
  const last = parent.lastChild;
  if (last?.nodeType === Node.TEXT_NODE) (last as Text).appendData(data);
  else parent.appendChild(document.createTextNode(data));
}

function el(parent: Node, tag: string): HTMLElement {
  return parent.appendChild(document.createElement(tag));
}

function inline(parent: Node, tokens: readonly Token[]): void {
  enter();
  // Consecutive text and escapes go into the DOM as one string: appended to the text node one at
  // a time, each append copied all of the node's text so far (a paragraph of 20,000 escapes,
  // which renders whole at every update, spent 10 ms of each on it).
  const run: string[] = [];
  const endRun = () => {
    text(parent, run.join(''));
    run.length = 0;
  };
  for (const t of tokens) {
    if ((t.type === 'text' || t.type === 'escape') && !('tokens' in t && t.tokens)) {
      run.push(prose(t as Tokens.Text));
      continue;
    }
    endRun();
    switch (t.type) {
      case 'text':
        inline(parent, (t as Tokens.Text).tokens!);
        break;
      case 'strong':
      case 'em':
      case 'del':
        inline(el(parent, t.type), (t as Tokens.Strong).tokens);
        break;
      case 'codespan':
        text(el(parent, 'code'), (t as Tokens.Codespan).text);
        break;
      case 'br':
        el(parent, 'br');
        break;
      default:
        throw new Unsupported();
    }
  }
  endRun();
  nesting--;
}

/** marked's Parser.parse: `top` wraps runs of text tokens (in loose list items) in a paragraph. */
function blocks(parent: Node, tokens: readonly Token[], top: boolean): void {
  enter();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    switch (t.type) {
      case 'space':
      case 'def':
        break;
      case 'hr':
        el(parent, 'hr');
        text(parent, '\n');
        break;
      case 'heading': {
        const { depth, tokens: content } = t as Tokens.Heading;
        if (!(depth >= 1 && depth <= 6)) throw new Unsupported();
        inline(el(parent, `h${depth}`), content);
        text(parent, '\n');
        break;
      }
      case 'paragraph':
        inline(el(parent, 'p'), (t as Tokens.Paragraph).tokens);
        text(parent, '\n');
        break;
      case 'code':
        code(parent, t as Tokens.Code);
        break;
      case 'blockquote': {
        const q = el(parent, 'blockquote');
        text(q, '\n');
        blocks(q, (t as Tokens.Blockquote).tokens, true);
        text(parent, '\n');
        break;
      }
      case 'list':
        list(parent, t as Tokens.List);
        break;
      case 'table':
        table(parent, t as Tokens.Table);
        break;
      case 'text': {
        // Consecutive text tokens are one run, a line apart.
        const target = top ? el(parent, 'p') : parent;
        for (;;) {
          textBlock(target, tokens[i] as Tokens.Text);
          if (tokens[i + 1]?.type !== 'text') break;
          text(target, '\n');
          i++;
        }
        if (top) text(parent, '\n');
        break;
      }
      default:
        throw new Unsupported();
    }
  }
  nesting--;
}

function textBlock(parent: Node, t: Tokens.Text): void {
  if (t.tokens) inline(parent, t.tokens);
  else text(parent, prose(t));
}

/** The text of a text token; marked writes it with its entities left as they are, for the HTML parser to decode. */
function prose(t: Tokens.Text | Tokens.Escape): string {
  if (('escaped' in t && t.escaped) || t.text.includes('&')) throw new Unsupported();
  return t.text;
}

function code(parent: Node, t: Tokens.Code): void {
  if (t.escaped) throw new Unsupported();
  const lang = /^\S*/.exec(t.lang ?? '')![0];
  if (lang && !LANGUAGE.test(lang)) throw new Unsupported();
  const c = el(el(parent, 'pre'), 'code');
  if (lang) c.className = `language-${lang}`;
  text(c, `${t.text.replace(/\n$/, '')}\n`);
  text(parent, '\n');
}

function list(parent: Node, t: Tokens.List): void {
  const l = el(parent, t.ordered ? 'ol' : 'ul');
  if (t.ordered && t.start !== 1) l.setAttribute('start', String(Number(t.start)));
  text(l, '\n');
  for (const item of t.items) {
    if (item.task) throw new Unsupported();
    blocks(el(l, 'li'), item.tokens, item.loose);
    text(l, '\n');
  }
  text(parent, '\n');
}

function table(parent: Node, t: Tokens.Table): void {
  const tableEl = el(parent, 'table');
  text(tableEl, '\n');
  const head = el(tableEl, 'thead');
  text(head, '\n');
  row(head, t.header);
  text(tableEl, '\n');
  if (t.rows.length) {
    const body = el(tableEl, 'tbody');
    for (const r of t.rows) row(body, r);
  }
  text(parent, '\n');
}

function row(parent: Node, cells: readonly Tokens.TableCell[]): void {
  const tr = el(parent, 'tr');
  text(tr, '\n');
  for (const cell of cells) {
    const c = el(tr, cell.header ? 'th' : 'td');
    if (cell.align) {
      if (!ALIGN.has(cell.align)) throw new Unsupported();
      c.setAttribute('align', cell.align);
    }
    inline(c, cell.tokens);
    text(tr, '\n');
  }
  text(parent, '\n');
}

function build(fill: (f: DocumentFragment) => void): DocumentFragment | undefined {
  const f = document.createDocumentFragment();
  // An Unsupported thrown from deep inside leaves the count where it was.
  nesting = 0;
  try {
    fill(f);
    return f;
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
}

/** The DOM of top-level blocks, or undefined if one of them needs the HTML path. */
export function buildBlocks(tokens: readonly Token[]): DocumentFragment | undefined {
  return build((f) => blocks(f, tokens, true));
}

/** The DOM of a paragraph's inline tokens, or undefined if one of them needs the HTML path. */
export function buildInline(tokens: readonly Token[]): DocumentFragment | undefined {
  return build((f) => inline(f, tokens));
}
