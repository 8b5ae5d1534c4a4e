import * as l10n from '@vscode/l10n';

// A finished answer as a screen reader should hear it once: its text as rendered, each code block
// summarised by its language and length (code read as prose is noise; the code is in the Accessible
// View, verbatim), cut at a length a listener can follow, saying where the rest is.

/** What an announcement holds of an answer at most; the Accessible View has all of it. */
export const SPOKEN_MAX_CHARS = 1000;

/** Elements that run on in a line: no pause is added around them. */
const INLINE = new Set(['A', 'ABBR', 'B', 'CODE', 'DEL', 'EM', 'I', 'KBD', 'MARK', 'S', 'SPAN', 'STRONG', 'SUB', 'SUP']);

function codeSummary(block: Element): string {
  const lang = block.querySelector('.code-lang')?.textContent?.trim() ?? '';
  const code = (block.querySelector('pre > code')?.textContent ?? '').replace(/\n$/, '');
  const lines = code ? code.split('\n').length : 0;
  return lines === 1 ? l10n.t('Code block in {0}, 1 line.', lang) : l10n.t('Code block in {0}, {1} lines.', lang, lines);
}

function walk(node: Node, out: string[]): void {
  if (node.nodeType === Node.TEXT_NODE) {
    out.push((node as Text).data);
    return;
  }
  if (!(node instanceof Element)) return;
  // Buttons (a code block's Copy, an image's placeholder) and decoration are not the answer.
  if (node.tagName === 'BUTTON' || node.getAttribute('aria-hidden') === 'true') return;
  if (node.classList.contains('code-block')) {
    out.push(` ${codeSummary(node)} `);
    return;
  }
  const pause = !INLINE.has(node.tagName);
  if (pause) out.push(' ');
  for (const child of node.childNodes) walk(child, out);
  if (pause) out.push(' ');
}

/** The text of the rendered answer `parts` (its text parts' elements), for one announcement. */
export function spokenAnswer(parts: readonly Element[], max = SPOKEN_MAX_CHARS): string {
  const out: string[] = [];
  for (const el of parts) walk(el, out);
  const text = out.join('').replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const atWord = cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2));
  return `${atWord}… ${l10n.t('The rest is in the Accessible View.')}`;
}
