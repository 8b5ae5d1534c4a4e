import * as vscode from 'vscode';
import { planCodeActions, SHORT_SELECTION_CHARS, type PlanInput } from '../core/actionPlan';

// The lightbulb's Docs actions (Quick Fix, Ctrl+.): ask the docs about a passage or a symbol, or
// have the agent fix the docs for it. This feature knows the chat and the agent only as command
// ids and argument shapes (src/common/commandArgs.ts); the commands read the document, and look up
// its symbols, when the user runs one. provideCodeActions itself reads no more than a short
// one-line selection and awaits nothing: it runs on every cursor move, in any workspace.

export const CODE_ACTIONS_SETTING = 'codeActions.enabled';

const toArg = (p: vscode.Position) => ({ line: p.line, character: p.character });

export class DocsCodeActionProvider implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (context.only && !context.only.intersects(vscode.CodeActionKind.QuickFix)) return [];
    if (!vscode.workspace.getConfiguration('docsAssistant', document).get<boolean>(CODE_ACTIONS_SETTING, true)) return [];
    const input: PlanInput = { uri: document.uri.toString(), languageId: document.languageId };
    if (!range.isEmpty) {
      const short = range.isSingleLine && range.end.character - range.start.character <= SHORT_SELECTION_CHARS;
      input.selection = { start: toArg(range.start), end: toArg(range.end), ...(short ? { text: document.getText(range) } : {}) };
    } else {
      const word = document.getWordRangeAtPosition(range.start);
      if (word) input.word = { start: toArg(word.start), end: toArg(word.end), text: document.getText(word) };
    }
    return planCodeActions(input, vscode.l10n.t).map((a) => {
      const action = new vscode.CodeAction(a.title, vscode.CodeActionKind.QuickFix);
      action.command = { title: a.title, command: a.command, arguments: [a.args] };
      return action;
    });
  }
}

/** Registers the provider for files and untitled documents (not output, git or virtual documents). */
export function registerCodeActionsFeature(): vscode.Disposable {
  return vscode.languages.registerCodeActionsProvider(
    [{ scheme: 'file' }, { scheme: 'untitled' }],
    new DocsCodeActionProvider(),
    DocsCodeActionProvider.metadata,
  );
}
