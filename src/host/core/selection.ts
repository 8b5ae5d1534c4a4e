// What an editor has selected, as the chat's chips and the agent's prompts describe it. Pure (it
// only reads the editor it is given), so the line rule is tested in Node.

export interface SelectedText {
  languageId: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  text: string;
}

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
export function selectedText<S extends SelectionLike>(editor: EditorLike<S> | undefined): SelectedText | undefined {
  if (!editor || editor.selection.isEmpty) return undefined;
  const { start, end } = editor.selection;
  return {
    languageId: editor.document.languageId,
    startLine: start.line + 1,
    endLine: end.character === 0 && end.line > start.line ? end.line : end.line + 1,
    text: editor.document.getText(editor.selection),
  };
}
