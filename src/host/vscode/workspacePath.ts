import * as vscode from 'vscode';

/**
 * The workspace-relative path the service sees (chat context, currentPath, agent prompts). A file
 * outside every workspace folder goes as its name only: its absolute path would tell the service
 * about the user's disk.
 */
export function workspacePath(uri: vscode.Uri): string {
  const relative = vscode.workspace.asRelativePath(uri, false);
  return relative === uri.fsPath || relative === uri.toString() ? (uri.path.split('/').pop() ?? '') : relative;
}
