import * as l10n from '@vscode/l10n';
import createDOMPurify, { type Config } from 'dompurify';
import type { Token } from 'marked';
import { chunkCode } from './codeChunks';
import { h, iconButton } from './dom';
import { guardImages } from './images';
import { marked } from './lex';
import { buildBlocks, buildInline } from './tokenDom';

/** The lex the renders take (lex.ts), for the renderer's tests and benchmarks beside renderBlocks. */
export { lexBlocks } from './lex';
// Markdown from the service is untrusted. Plain markdown is built into DOM straight from marked's
// tokens, every string from it as a text node (tokenDom.ts). Links, images and entities go the
// HTML path: marked turns them into HTML, and DOMPurify strips that to a small, inert subset before
// it touches the DOM. Only then are the code block toolbars added, and a code block's text cut into
// chunks of lines (codeChunks.ts), as DOM nodes. Links keep their href for the host to check; the
// webview never follows them. Images load only from origins the user allowed (images.ts).
//
// Raw HTML in an answer is shown as text, as VS Code's own Chat shows it: marked's `html` and `tag`
// tokenizers are switched off (lex.ts), so `<div>` is just characters in a paragraph. An answer is written by
// a model that reads pages anyone may edit; rendered HTML let it draw buttons and banners that look
// like this extension's own, hide text that Copy still took, or leave a tag open that swallowed
// every block after it. Markdown alone cannot do any of that, and each block stands alone.

/**
 * The elements marked writes for markdown, and nothing else: no forms, media, frames or SVG. Plus
 * `div`, the wrapper renderHtmlPieces puts around each piece (marked itself writes none, and raw
 * HTML never reaches the sanitizer as markup).
 */
const ALLOWED_TAGS = [
  '#text',
  'div',
  'a',
  'blockquote',
  'br',
  'code',
  'del',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'img',
  'li',
  'ol',
  'p',
  'pre',
  'strong',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tr',
  'ul',
];
/** No id, class (bar a code block's language), role, hidden, style, aria-* or data-*: nothing that can pose as the extension's UI. */
const ALLOWED_ATTR = ['href', 'title', 'alt', 'src', 'start', 'align', 'class'];
const CODE_LANGUAGE_CLASS = /^language-[\w+#.-]+$/;

const SANITIZE: Config & { RETURN_DOM_FRAGMENT: true } = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOW_ARIA_ATTR: false,
  ALLOW_DATA_ATTR: false,
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
  // With a URI pattern of its own, DOMPurify holds every attribute it does not know to be URI-safe
  // to that pattern, and drops a list's start number and a table cell's alignment: a numbered
  // list that goes on after a code block started again at 1.
  ADD_URI_SAFE_ATTR: ['start', 'align'],
  RETURN_DOM_FRAGMENT: true,
};

// A sanitizer of our own, configured once: DOMPurify otherwise rebuilds its allow-lists from the
// config on every call, a third of its cost for the small pieces a streamed answer renders ten
// times a second. Nothing else in the page shares its hooks or settings.
let purifier: ReturnType<typeof createDOMPurify> | undefined;
function sanitizer(): ReturnType<typeof createDOMPurify> {
  if (purifier) return purifier;
  const p = createDOMPurify(window);
  p.setConfig(SANITIZE);
  p.addHook('uponSanitizeAttribute', (node, data) => {
    if (data.attrName === 'class' && !(node.nodeName === 'CODE' && CODE_LANGUAGE_CLASS.test(data.attrValue))) data.keepAttr = false;
  });
  p.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      node.setAttribute('rel', 'noopener noreferrer');
      node.removeAttribute('target');
    }
    if (node.tagName === 'IMG') {
      const src = node.getAttribute('src') ?? '';
      if (!/^(https?:|data:image\/(png|gif|jpe?g|webp);)/i.test(src)) node.removeAttribute('src');
      node.setAttribute('loading', 'lazy');
    }
  });
  purifier = p;
  return p;
}

/** Sanitized DOM for markdown blocks, with code block toolbars and chunks. Takes them lexed, so that a streamed text is lexed once per render. */
export function renderBlocks(tokens: Token[]): DocumentFragment {
  return renderPieces([{ blocks: tokens }])[0] as DocumentFragment;
}

/**
 * Markdown to render: whole blocks, or some of a paragraph's inline tokens (what goes inside its
 * `<p>`, whose parse does not depend on being inside a paragraph).
 */
export type Piece = { blocks: Token[] } | { inline: Token[] };

/**
 * Sanitized DOM for each piece: a node whose children are the piece's DOM, in the order given.
 * Most pieces are built straight from their tokens (tokenDom.ts); the rest take the HTML path.
 */
export function renderPieces(pieces: readonly Piece[]): Node[] {
  const out = pieces.map((p): Node | undefined => ('inline' in p ? buildInline(p.inline) : buildBlocks(p.blocks)));
  const viaHtml = pieces.filter((_, i) => out[i] === undefined);
  if (viaHtml.length) {
    const rendered = renderHtmlPieces(viaHtml);
    for (let i = 0, k = 0; i < out.length; i++) out[i] ??= rendered[k++];
  }
  for (const node of out as Node[]) {
    for (const pre of Array.from((node as ParentNode).querySelectorAll('pre'))) decorateCodeBlock(pre);
    guardImages(node as ParentNode);
  }
  return out as Node[];
}

/** A piece through marked's HTML and the sanitizer only, without code block toolbars or chunks: tests hold tokenDom.ts to it. */
export function renderViaHtml(piece: Piece): Node {
  return renderHtmlPieces([piece])[0]!;
}

/**
 * Pieces through marked's HTML and the sanitizer. They go through together, because each
 * sanitizer call parses its input into a new document, and that set-up, not the size of the
 * input, is most of its cost for a small piece.
 */
function renderHtmlPieces(pieces: readonly Piece[]): Node[] {
  const html = pieces.map((p) => ('inline' in p ? marked.Parser.parseInline(p.inline) : rendersNothing(p.blocks) ? '' : marked.parser(p.blocks)));
  const oneByOne = () => html.map((x) => (x === '' ? document.createDocumentFragment() : sanitize(x)));
  if (pieces.length === 1) return oneByOne();
  if (html.every((x) => x === '')) return pieces.map(() => document.createDocumentFragment());
  // marked's own HTML is well formed and escapes every `<` of the text, so each piece stays
  // inside its wrapper (and if one ever did not, each piece is sanitized on its own).
  const frag = sanitize(html.map((x) => `<div>${x}</div>`).join(''));
  return frag.children.length === pieces.length ? Array.from(frag.children) : oneByOne();
}

/** Blank lines and link definitions: the streamed tail is often just a blank line. */
function rendersNothing(tokens: Token[]): boolean {
  return tokens.every((t) => t.type === 'space' || t.type === 'def');
}

function sanitize(html: string): DocumentFragment {
  const frag = sanitizer().sanitize(html) as unknown as DocumentFragment;
  // DOMPurify puts a piece's leading whitespace back as a text node of its own (the HTML parser
  // drops it before <body>); in the paragraph it continues, it is one text node with what follows.
  if (/^\s/.test(html)) frag.normalize();
  return frag;
}

/** A code block's toolbar, and its text in chunks of lines; whichever path built it, its `<code>` holds one text node until then. */
function decorateCodeBlock(pre: HTMLPreElement): void {
  const code = pre.querySelector('code');
  if (code) chunkCode(code);
  const lang = /language-([\w+#.-]+)/.exec(code?.className ?? '')?.[1] ?? '';
  const wrapper = h('div', { class: 'code-block' });
  const header = h(
    'div',
    { class: 'code-header' },
    h('span', { class: 'code-lang' }, lang || l10n.t('text')),
    h(
      'span',
      { class: 'code-actions' },
      iconButton('copy', l10n.t('Copy code'), 'copyCode', {}, l10n.t('Copy')),
      iconButton('insert', l10n.t('Insert at cursor'), 'insertCode', {}, l10n.t('Insert')),
    ),
  );
  // A long line scrolls the block sideways: a keyboard user scrolls it once it has focus (axe's
  // scrollable-region-focusable), as in VS Code's own Chat.
  pre.tabIndex = 0;
  pre.replaceWith(wrapper);
  wrapper.append(header, pre);
}
