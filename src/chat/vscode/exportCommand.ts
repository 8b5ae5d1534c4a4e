import * as vscode from 'vscode';
import { conversationMarkdown, exportFileName, type ExportableConversation } from '../core/exportMarkdown';

// "Export Conversation as Markdown…": the conversation (its questions, attached context, answers
// and sources; never its thread) to an untitled Markdown document, or to a file the user picks.

export async function exportConversation(conversation: ExportableConversation | undefined): Promise<void> {
  if (!conversation?.turns.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Docs Assistant: This conversation has no questions to export yet.'));
    return;
  }
  const markdown = conversationMarkdown(conversation, vscode.l10n.t);
  const untitled: vscode.QuickPickItem = { label: `$(new-file) ${vscode.l10n.t('Open as Untitled Document')}` };
  const file: vscode.QuickPickItem = { label: `$(save-as) ${vscode.l10n.t('Save to File…')}` };
  const pick = await vscode.window.showQuickPick([untitled, file], {
    title: vscode.l10n.t('Docs Assistant: Export Conversation as Markdown'),
    placeHolder: vscode.l10n.t('Where should “{0}” go?', conversation.title),
  });
  if (pick === untitled) {
    const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: markdown });
    await vscode.window.showTextDocument(doc);
  } else if (pick === file) {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = exportFileName(conversation.title);
    const uri = await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Export Conversation as Markdown'),
      saveLabel: vscode.l10n.t('Export'),
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
      filters: { [vscode.l10n.t('Markdown')]: ['md'] },
    });
    if (!uri) return;
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(markdown));
    const open = vscode.l10n.t('Open');
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t('Docs Assistant: Conversation exported to {0}.', vscode.workspace.asRelativePath(uri)),
      open,
    );
    if (choice === open) await vscode.window.showTextDocument(uri);
  }
}
