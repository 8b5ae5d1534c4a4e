import type { Selection } from '../../common/selection';

// What an editor has selected, as the one Selection (src/common/selection.ts) less its path, which
// the caller knows. Pure (it only reads the editor it is given), so the line rule is tested in Node.

interface PositionLike {
  readonly line: number;
  readonly character: number;
}

interface SelectionLike {
  readonly isEmpty: boolean;
  readonly start: PositionLike;
  readonly end: PositionLike;
}

/** The part of a vscode.TextEditor this reads. */
export interface EditorLike<S extends SelectionLike> {
  readonly selection: S;
  readonly document: { readonly languageId: string; getText(range: NoInfer<S>): string };
}

/**
 * The selection of `editor`, or undefined when there is none. Its lines are 1-based and
 * inclusive; a selection that ends at the very start of a line (as selecting whole lines does)
 * does not count that line.
 */
export function selectedText<S extends SelectionLike>(editor: EditorLike<S> | undefined): Omit<Selection, 'path'> | undefined {
  if (!editor || editor.selection.isEmpty) return undefined;
  const { start, end } = editor.selection;
  return {
    languageId: editor.document.languageId,
    startLine: start.line + 1,
    endLine: end.character === 0 && end.line > start.line ? end.line : end.line + 1,
    text: editor.document.getText(editor.selection),
  };
}
