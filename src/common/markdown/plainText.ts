import type { Token, Tokens } from 'marked';
import { mdFenced } from './escape';
import { decodeEntities, indentLines, lexMarkdown } from './writer';

// Untrusted Markdown (an answer) as plain text, for a plaintext document a screen reader reads and a
// user copies from (the Accessible View): its words without Markdown's marks, a link's address after
// its words, each code block in a fence it cannot close, its code as it came. A plaintext editor
// renders nothing, so nothing in it is markup; what could still mislead a reader is removed: control
// characters, and the invisible characters that reorder text (bidi overrides).

// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed here (tabs and line breaks stay).
const HIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/** `text` without the characters a plaintext document would not show as they are. */
export const visibleText = (text: string): string => text.replace(HIDDEN, '');

/**
 * `text` on one line, visible characters only, at most `max` characters (an ellipsis marks a cut):
 * untrusted text in a tree row, a lens or a tooltip (Docs Health's, Docs to Update's).
 */
export function visibleLine(text: string, max: number): string {
  // Cut before the work: a 100 KB comment is not scanned whole for a 120-character label.
  const line = visibleText(text.slice(0, max * 4))
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

function inline(tokens: readonly Token[] | undefined): string {
  return (tokens ?? []).map(inlineToken).join('');
}

function inlineToken(t: Token): string {
  switch (t.type) {
    case 'text':
      return 'tokens' in t && t.tokens?.length ? inline(t.tokens) : decodeEntities(t.text);
    case 'escape':
    case 'codespan':
      return t.text;
    case 'br':
      return '\n';
    case 'link':
    case 'image': {
      const { href } = t as Tokens.Link;
      const words = t.type === 'image' ? (t as Tokens.Image).text : inline(t.tokens);
      return words.trim() && words.trim() !== href ? `${words} (${href})` : href;
    }
    default:
      return 'tokens' in t && t.tokens ? inline(t.tokens) : decodeEntities('raw' in t ? String(t.raw) : '');
  }
}

function block(t: Token): string {
  switch (t.type) {
    case 'space':
    case 'def':
    case 'hr':
      return '';
    case 'code':
      return mdFenced((t as Tokens.Code).text, (t as Tokens.Code).lang);
    case 'blockquote':
      return indentLines(blocks((t as Tokens.Blockquote).tokens), '> ', '> ');
    case 'list': {
      const list = t as Tokens.List;
      const start = typeof list.start === 'number' ? list.start : 1;
      return list.items
        .map((item, i) => {
          const marker = list.ordered ? `${start + i}. ` : '- ';
          const task = item.task ? (item.checked ? '[x] ' : '[ ] ') : '';
          return indentLines(task + blocks(item.tokens.filter((x) => x.type !== 'checkbox')), marker, ' '.repeat(marker.length));
        })
        .join('\n');
    }
    case 'table': {
      const table = t as Tokens.Table;
      const row = (cells: readonly Tokens.TableCell[]): string => cells.map((c) => inline(c.tokens)).join(' | ');
      return [row(table.header), ...table.rows.map(row)].join('\n');
    }
    default:
      return inlineToken(t).trim();
  }
}

function blocks(tokens: readonly Token[]): string {
  return tokens
    .map(block)
    .filter((b) => b !== '')
    .join('\n\n');
}

/** `markdown` (untrusted) as plain text; code blocks fenced, their code verbatim. */
export function plainText(markdown: string): string {
  return visibleText(blocks(lexMarkdown(markdown)));
}
