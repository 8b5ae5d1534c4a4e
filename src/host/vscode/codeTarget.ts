import * as vscode from 'vscode';
import { refuseTarget, type CodeTargetArgs, type ReadableScope } from '../../common/commandArgs';
import type { Selection } from '../../common/selection';
import { selectedText } from '../core/selection';
import { widenToSymbol, type SymbolNode } from '../core/symbolTarget';
import { workspacePath } from './workspacePath';

// What a code action's command is about, read when the command runs (src/codeActions builds the
// arguments without awaiting anything). A word at the cursor is widened here, through the
// document's symbols, to the symbol it declares or is used in; a slow symbol provider is not
// waited for past SYMBOL_LOOKUP_MS, and then the word's line stands in. Any extension or
// `command:` link can run these commands with any arguments, so a document is read only when
// refuseTarget (src/common/commandArgs.ts) allows it: inside a workspace folder and open in an
// editor. This is the one place the commands that take a document check that.

/** How long a command waits for the document's symbols before it takes the word's line. */
export const SYMBOL_LOOKUP_MS = 2000;

/** The selection a command's arguments name, with the symbol when the action was about the word at the cursor. */
type CodeTarget = Selection & { symbol?: string };

/** The workspace folders and the documents open in an editor tab, as VS Code has them now. */
function readableScope(): ReadableScope {
  const open = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .flatMap(({ input }) =>
      input instanceof vscode.TabInputText ? [input.uri] : input instanceof vscode.TabInputTextDiff ? [input.original, input.modified] : [],
    );
  return {
    folders: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString()),
    openInEditors: open.map((u) => u.toString()),
  };
}

async function documentFor(uri: vscode.Uri): Promise<vscode.TextDocument | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open;
  // A tab restored after a reload may not have loaded its document yet; refuseTarget already
  // checked that this one is open in an editor. An untitled document is never loaded from disk.
  return uri.scheme === 'file' ? vscode.workspace.openTextDocument(uri) : undefined;
}

async function symbolsOf(uri: vscode.Uri, timeoutMs: number): Promise<SymbolNode[]> {
  let resolveTimeout: (v: undefined) => void = () => undefined;
  const timeout = new Promise<undefined>((resolve) => (resolveTimeout = resolve));
  const timer = setTimeout(() => resolveTimeout(undefined), timeoutMs);
  try {
    const found = await Promise.race([
      Promise.resolve(
        vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>('vscode.executeDocumentSymbolProvider', uri),
      ),
      timeout,
    ]);
    return (found ?? []).map((s) => ('location' in s ? { name: s.name, range: s.location.range } : s));
  } catch {
    return [];
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The document, lines and text a command's arguments name, or undefined, after saying why, when
 * the command may not read the document (refuseTarget) or it has no text there.
 */
export async function resolveCodeTarget(args: CodeTargetArgs, timeoutMs = SYMBOL_LOOKUP_MS): Promise<CodeTarget | undefined> {
  const uri = vscode.Uri.parse(args.uri, true);
  const refused = refuseTarget(uri.toString(), readableScope(), vscode.l10n.t);
  if (refused) {
    void vscode.window.showWarningMessage(refused);
    return undefined;
  }
  const target = await readTarget(uri, args, timeoutMs);
  if (!target) void vscode.window.showInformationMessage(vscode.l10n.t('Docs Assistant: Could not read that part of the document.'));
  return target;
}

async function readTarget(uri: vscode.Uri, args: CodeTargetArgs, timeoutMs: number): Promise<CodeTarget | undefined> {
  const document = await documentFor(uri);
  if (!document) return undefined;
  let range = document.validateRange(new vscode.Range(args.start.line, args.start.character, args.end.line, args.end.character));
  let symbol = args.symbol;
  if (symbol !== undefined) {
    const widened = widenToSymbol(await symbolsOf(uri, timeoutMs), range.start, symbol);
    if (widened) {
      symbol = widened.name;
      range = document.validateRange(
        new vscode.Range(widened.range.start.line, widened.range.start.character, widened.range.end.line, widened.range.end.character),
      );
    } else if (range.isSingleLine) {
      range = document.lineAt(range.start.line).range;
    }
  }
  const selected = selectedText({ selection: range, document });
  if (!selected || selected.text.trim() === '') return undefined;
  return { ...selected, path: workspacePath(uri), ...(symbol !== undefined ? { symbol } : {}) };
}
