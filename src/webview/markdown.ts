import DOMPurify, { type Config } from 'dompurify';
import { marked, type Token } from 'marked';
import { h, iconButton } from './dom';

// Markdown from the service is untrusted: marked turns it into HTML, DOMPurify strips it to a
// small, inert subset before it touches the DOM, and only then are the code block toolbars
// added, as DOM nodes. Links keep their href for the host to check; the webview never follows them.

const SANITIZE: Config & { RETURN_DOM_FRAGMENT: true } = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'option', 'iframe', 'frame', 'object', 'embed', 'svg', 'math', 'link', 'meta', 'base', 'audio', 'video', 'source', 'template', 'dialog'],
  FORBID_ATTR: ['style', 'srcset', 'action', 'formaction', 'background', 'ping'],
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
  ALLOW_DATA_ATTR: false,
  RETURN_DOM_FRAGMENT: true,
};

let hooked = false;
function installHooks(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      node.setAttribute('rel', 'noopener noreferrer');
      node.removeAttribute('target');
    }
    if (node.tagName === 'IMG') {
      const src = node.getAttribute('src') ?? '';
      if (!/^(https:|data:image\/(png|gif|jpe?g|webp);)/i.test(src)) node.removeAttribute('src');
      node.setAttribute('loading', 'lazy');
    }
  });
}

marked.setOptions({ gfm: true, breaks: false });

/** Top-level blocks of a markdown text, with their raw source. */
export function lexBlocks(src: string): Token[] {
  return marked.lexer(src);
}

/** Sanitized DOM for one or more markdown blocks, with code block toolbars. */
export function renderMarkdown(src: string): DocumentFragment {
  installHooks();
  const html = marked.parse(src, { async: false }) as string;
  const frag = DOMPurify.sanitize(html, SANITIZE);
  for (const pre of Array.from(frag.querySelectorAll('pre'))) decorateCodeBlock(pre);
  return frag;
}

function decorateCodeBlock(pre: HTMLPreElement): void {
  const code = pre.querySelector('code');
  const lang = /language-([\w+#.-]+)/.exec(code?.className ?? '')?.[1] ?? '';
  const wrapper = h('div', { class: 'code-block' });
  const header = h(
    'div',
    { class: 'code-header' },
    h('span', { class: 'code-lang' }, lang || 'text'),
    h('span', { class: 'code-actions' }, iconButton('copy', 'Copy code', 'copyCode', {}, 'Copy'), iconButton('insert', 'Insert at cursor', 'insertCode', {}, 'Insert')),
  );
  pre.replaceWith(wrapper);
  wrapper.append(header, pre);
}
