import type { ContextChip, ContextKind } from '../common/protocol';

// Which kind of context a selection is, and how much of it goes to the service. Pure, so the
// rule is tested in Node. The service distinguishes code from prose (service-interface.md §2.3).

/** Prose documents; everything else is treated as source code. */
export const PROSE_LANGUAGE_IDS: ReadonlySet<string> = new Set([
  'markdown',
  'mdx',
  'plaintext',
  'restructuredtext',
  'asciidoc',
  'latex',
  'tex',
  'bibtex',
  'org',
  'wikitext',
  'textile',
  'pandoc',
  'quarto',
  'rmd',
  'jupyter-markdown',
  'git-commit',
  'scminput',
]);

export function contextKindFor(languageId: string): ContextKind {
  return PROSE_LANGUAGE_IDS.has(languageId.toLowerCase()) ? 'textSelection' : 'code';
}

export interface SelectionInput {
  id: string;
  languageId: string;
  /** Workspace-relative path (or the file name for a file outside any workspace). */
  path: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  text: string;
  maxChars: number;
}

/** A chip for the selection, cut to `maxChars` (never a whole huge file silently). */
export function buildContextChip(s: SelectionInput): ContextChip {
  const chip: ContextChip = {
    id: s.id,
    type: contextKindFor(s.languageId),
    path: s.path,
    startLine: s.startLine,
    endLine: s.endLine,
    languageId: s.languageId,
    value: s.text,
  };
  if (s.text.length > s.maxChars) {
    // Cut at a line break when one is near, so the service does not get half a statement.
    let cut = s.text.lastIndexOf('\n', s.maxChars);
    if (cut < s.maxChars * 0.8) cut = s.maxChars;
    chip.value = s.text.slice(0, cut);
    chip.truncatedFrom = s.text.length;
  }
  return chip;
}

/** The same selection: same file, same lines, same text. Attaching it twice would only repeat it. */
export function isSameSelection(a: ContextChip, b: ContextChip): boolean {
  return a.path === b.path && a.startLine === b.startLine && a.endLine === b.endLine && a.value === b.value;
}

export function chipLabel(chip: ContextChip): string {
  const name = chip.path ?? 'selection';
  if (chip.startLine === undefined) return name;
  return chip.startLine === chip.endLine ? `${name}:${chip.startLine}` : `${name}:${chip.startLine}-${chip.endLine}`;
}
