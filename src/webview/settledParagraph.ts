import type { Token, Tokens } from 'marked';
import { rawOf, settledPrefix } from './inlinePrefix';

// What the renderer keeps of the paragraph its growing block starts with (or the paragraph of a
// quote: leadParagraph): the settled part of its inline tokens (inlinePrefix.ts) and the DOM nodes
// that show it. A render neither lexes nor builds that part again: the next lex of the paragraph
// lexes only the text after it (lexAfterSettled), and the render morphs only what follows its
// nodes (incremental.ts).

/**
 * The paragraph a growing block starts with: the block itself, or the one block of a quote (a
 * streamed quote is mostly one paragraph, `> ` lines and lazy lines alike). Anything else has none.
 */
export function leadParagraph(block: Token | undefined): Tokens.Paragraph | undefined {
  if (block?.type === 'paragraph') return block as Tokens.Paragraph;
  const inner = block?.type === 'blockquote' ? (block as Tokens.Blockquote).tokens : undefined;
  return inner?.length === 1 && inner[0]!.type === 'paragraph' ? (inner[0] as Tokens.Paragraph) : undefined;
}

/** The element of leadParagraph in the DOM of its block. */
export function leadP(block: Element | null): Element | null {
  const p = block?.tagName === 'BLOCKQUOTE' && block.childElementCount === 1 ? block.firstElementChild : block;
  return p?.tagName === 'P' ? p : null;
}

export interface SettledParagraph {
  /** Source of the settled inline tokens. */
  raw: string;
  /** The settled inline tokens. */
  head: Token[];
  /** How many of them render to an element. */
  elements: number;
  /** How many of the paragraph element's child nodes show them. */
  nodes: number;
}

/**
 * The settled part of the paragraph `p` shows, once `inline` is rendered into it. `before`: the
 * settled part of the last render, when `inline` starts with its very tokens (lexAfterSettled):
 * the search goes on from there, in the tokens and in the DOM, not from the paragraph's start.
 */
export function settledOf(p: Element | null, inline: Token[], before?: SettledParagraph): SettledParagraph | undefined {
  if (p?.tagName !== 'P') return undefined;
  const known = before?.head.length && inline[before.head.length - 1] === before.head.at(-1) ? before : undefined;
  const { tokens, elements } = settledPrefix(inline, known && { tokens: known.head.length, elements: known.elements });
  if (elements === 0) return { raw: '', head: [], elements: 0, nodes: 0 };
  if (known && tokens === known.head.length) return known;
  // The settled part ends with its last element; every element before it is one of its own.
  let seen = known?.elements ?? 0;
  const children = p.childNodes;
  for (let i = known?.nodes ?? 0; i < children.length; i++) {
    if (children[i]!.nodeType === Node.ELEMENT_NODE && ++seen === elements) {
      const raw = (known?.raw ?? '') + rawOf(inline, tokens, known?.head.length);
      return { raw, head: inline.slice(0, tokens), elements, nodes: i + 1 };
    }
  }
  return undefined;
}

/**
 * Before marked lexes `paragraph` inline: when its text goes on from the settled part of the last
 * render, its tokens are that part's and those of the text after it, lexed alone (`inline`), and
 * true is returned (marked need not lex it). A settled part ends with an element and nothing in it
 * can pair with what follows (inlinePrefix.ts), so the text after it lexes alone as it does in the
 * whole paragraph; test/unit/inline-prefix.test.ts checks that against marked.
 */
export function lexAfterSettled(paragraph: Tokens.Paragraph, settled: SettledParagraph | undefined, inline: (src: string) => Token[]): boolean {
  if (!settled?.head.length || paragraph.text.length <= settled.raw.length || !paragraph.text.startsWith(settled.raw)) return false;
  const rest = inline(paragraph.text.slice(settled.raw.length));
  paragraph.tokens.length = 0;
  paragraph.tokens.push(...settled.head, ...rest);
  return true;
}
