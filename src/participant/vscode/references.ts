import * as vscode from 'vscode';
import type { ContextChip } from '../../common/protocol';
import { newId } from '../../common/ids';
import { readConfig } from '../../host/vscode/config';
import { selectedText } from '../../host/core/selection';
import { buildContextChip, fitChip } from '../../host/core/selectionContext';
import { workspacePath } from '../../host/vscode/workspacePath';

// What a question in the Chat view carries besides its text: `#selection` and `#file` references,
// and the active editor's selection when none was attached. Each becomes a `context` item: `code`
// for source, `textSelection` for prose, with its workspace-relative path (service-interface.md
// §2.3). The same bounds as the chat view's chips: one selection at most its setting's size, the
// same selection once, at most MAX_CHIPS and MAX_CONTEXT_CHARS in all.

export interface QuestionContext {
  chips: ContextChip[];
  /** Shown in the answer's references, so the user sees what went with the question. */
  shown: (vscode.Uri | vscode.Location)[];
  /** Why a reference was left out, in the user's words. */
  notes: string[];
}

/** The part of a ChatPromptReference this reads. */
interface ReferenceLike {
  readonly value: unknown;
}

async function chipFor(uri: vscode.Uri, range: vscode.Range | undefined, maxChars: number): Promise<ContextChip | undefined> {
  let doc: vscode.TextDocument;
  try {
    doc = await vscode.workspace.openTextDocument(uri);
  } catch {
    return undefined; // A folder, a binary file, or a file that is gone: nothing to send.
  }
  // No range, or an empty one: the whole document.
  const r = range && !range.isEmpty ? range : new vscode.Range(0, 0, doc.lineCount, 0);
  const selected = selectedText({ selection: r, document: doc });
  if (!selected) return undefined;
  return buildContextChip({ ...selected, id: newId(), path: workspacePath(uri), maxChars });
}

export async function questionContext(references: readonly ReferenceLike[], t: typeof vscode.l10n.t): Promise<QuestionContext> {
  const maxChars = readConfig().maxSelectionChars;
  const out: QuestionContext = { chips: [], shown: [], notes: [] };
  const add = (chip: ContextChip | undefined, shown: vscode.Uri | vscode.Location) => {
    if (!chip) return;
    const fit = fitChip(out.chips, chip, t);
    if ('reason' in fit) {
      // The same selection twice (an explicit #selection and the implicit one) is no news.
      if (!out.chips.some((c) => c.path === chip.path && c.startLine === chip.startLine && c.value === chip.value)) out.notes.push(fit.reason);
      return;
    }
    out.chips.push(fit.chip);
    out.shown.push(shown);
  };
  for (const ref of references) {
    const v = ref.value;
    if (v instanceof vscode.Location) add(await chipFor(v.uri, v.range, maxChars), v);
    else if (v instanceof vscode.Uri) add(await chipFor(v, undefined, maxChars), v);
  }
  // The active selection, when the question names none of its own (as the chat view attaches it).
  const editor = vscode.window.activeTextEditor;
  const selection = selectedText(editor);
  if (editor && selection && !out.chips.some((c) => c.path === workspacePath(editor.document.uri))) {
    add(await chipFor(editor.document.uri, editor.selection, maxChars), new vscode.Location(editor.document.uri, editor.selection));
  }
  return out;
}
