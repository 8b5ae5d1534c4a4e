import * as vscode from 'vscode';
import { trimCurrentPath } from '../../api';
import { newId } from '../../common/ids';
import { Disposable } from '../../common/lifecycle';
import type { ContextChip } from '../../common/protocol';
import { readConfig } from '../../host/vscode/config';
import { selectedText } from '../../host/core/selection';
import { workspacePath } from '../../host/vscode/workspacePath';
import { buildContextChip } from '../../host/core/selectionContext';

// What the chat takes from the text editor and gives back to it: the selection as a chip, the
// current file's path for the question, and code inserted from an answer. While the chat has
// focus no text editor is active, so the last one the user was in stands in for it.

export class EditorBridge extends Disposable {
  private lastTextEditor: vscode.TextEditor | undefined = vscode.window.activeTextEditor;

  constructor() {
    super();
    this._register(vscode.window.onDidChangeActiveTextEditor((e) => e && (this.lastTextEditor = e)));
  }

  private get editor(): vscode.TextEditor | undefined {
    return vscode.window.activeTextEditor ?? this.lastTextEditor;
  }

  /** The editor's selection as a chip, cut to the configured maximum; undefined (the user is told) when there is none. */
  selectionChip(): ContextChip | undefined {
    const editor = this.editor;
    const selected = selectedText(editor);
    if (!editor || !selected) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Docs Assistant: Select some code or text first.'));
      return undefined;
    }
    return buildContextChip({ ...selected, id: newId(), path: workspacePath(editor.document.uri), maxChars: readConfig().maxSelectionChars });
  }

  /** The workspace-relative path of the file being read, trimmed for the request (never the Output panel). */
  currentPath(): string | undefined {
    const editor = this.editor;
    if (!editor || editor.document.uri.scheme === 'output') return undefined;
    return trimCurrentPath(workspacePath(editor.document.uri));
  }

  /** Replaces every selection of the last text editor with `code`. */
  async insertCode(code: string): Promise<boolean> {
    const editor = this.lastTextEditor;
    if (!editor || editor.document.isClosed) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Docs Assistant: Open an editor to insert the code into.'));
      return false;
    }
    await vscode.window.showTextDocument(editor.document, editor.viewColumn);
    return editor.edit((b) => {
      for (const sel of editor.selections) b.replace(sel, code);
    });
  }
}
